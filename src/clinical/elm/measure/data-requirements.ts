import type { ElmLibrary, ElmNode, ElmStatement } from '../elm.types';
import type { FhirMeasure } from './measure.types';

/**
 * What a measure's retrieves read: each Retrieve node its evaluation can reach (every statement of
 * the main library, which the reference engine evaluates whole, and what they reference, across the
 * included libraries), as the type, profile, code path and value set or codes it selects by. The
 * date filters and the `where` clauses around a retrieve are left out: this is what the data must
 * hold for the measure to find anything, not what it then keeps.
 */

const FHIR_NS = '{http://hl7.org/fhir}';
const FHIR_BASE = 'http://hl7.org/fhir/StructureDefinition/';

export interface RequirementCode {
  system: string;
  code: string;
  /** The code's name in the CQL (`"Birth date"`), never a patient's value. */
  name: string;
}

export interface DataRequirement {
  /** Equal for two retrieves that select the same resources, in one measure or several. */
  key: string;
  resourceType: string;
  /** The retrieve's profile (`templateId`); absent when it is the base resource's. */
  profile?: string;
  /** The element the codes are read from (`code`, `medication`, `vaccineCode`…). */
  codePath?: string;
  /** The value set the retrieve filters by, with its name in the CQL. */
  valueSet?: { url: string; name: string };
  /** Or the codes it filters by (direct-reference codes). */
  codes?: RequirementCode[];
  /** Codes computed at run time (an expression, not a constant): selected here by type and profile only. */
  runtimeCodes?: true;
}

interface Library {
  elm: ElmLibrary;
  statements: Map<string, ElmStatement[]>;
}

/** The measure's data requirements, each once, in the order first reached. */
export function dataRequirementsOf(measure: FhirMeasure, libraries: readonly ElmLibrary[]): DataRequirement[] {
  const byName = new Map<string, Library>();
  for (const elm of libraries) {
    const statements = new Map<string, ElmStatement[]>();
    for (const statement of elm.library.statements?.def ?? []) statements.set(statement.name, [...(statements.get(statement.name) ?? []), statement]);
    byName.set(elm.library.identifier.id, { elm, statements });
  }
  const mainName = measure.library?.[0]?.split('|')[0].split('/').pop();
  const main = mainName ? byName.get(mainName) : undefined;
  if (!main) return [];

  const include = (library: Library, alias: string): Library | undefined => {
    const def = library.elm.library.includes?.def?.find((d) => d.localIdentifier === alias);
    // MADiE's 2025 exports namespace the path (`https://madie.cms.gov/FHIRHelpers`): the name is its last segment.
    return def ? byName.get(def.path.slice(def.path.lastIndexOf('/') + 1)) : undefined;
  };
  const owner = (library: Library, node: ElmNode) => (typeof node.libraryName === 'string' ? include(library, node.libraryName) : library);

  const found = new Map<string, DataRequirement>();
  const visited = new Set<string>();
  const visit = (library: Library, name: string) => {
    const id = `${library.elm.library.identifier.id}\n${name}`;
    if (visited.has(id)) return;
    visited.add(id);
    for (const statement of library.statements.get(name) ?? []) walk(library, statement.expression);
  };
  const walk = (library: Library, node: unknown): void => {
    if (Array.isArray(node)) return node.forEach((item) => walk(library, item));
    if (node === null || typeof node !== 'object') return;
    const elm = node as ElmNode;
    if ((elm.type === 'ExpressionRef' || elm.type === 'FunctionRef') && typeof elm.name === 'string') {
      const target = owner(library, elm);
      if (target) visit(target, elm.name);
    }
    if (elm.type === 'Retrieve') {
      const requirement = requirementOf(library, elm, owner);
      if (requirement && !found.has(requirement.key)) found.set(requirement.key, requirement);
    }
    for (const [field, value] of Object.entries(elm)) if (field !== 'annotation' && field !== 'locator') walk(library, value);
  };
  for (const name of main.statements.keys()) visit(main, name);
  return [...found.values()];
}

function requirementOf(library: Library, node: ElmNode, owner: (library: Library, node: ElmNode) => Library | undefined): DataRequirement | undefined {
  const dataType = String(node.dataType ?? '');
  if (!dataType.startsWith(FHIR_NS)) return undefined;
  const resourceType = dataType.slice(FHIR_NS.length);
  const templateId = typeof node.templateId === 'string' && node.templateId !== `${FHIR_BASE}${resourceType}` ? node.templateId : undefined;
  const codePath = typeof node.codeProperty === 'string' ? node.codeProperty : undefined;
  const base = { resourceType, ...(templateId ? { profile: templateId } : {}) };
  const codesNode = node.codes as ElmNode | undefined;
  if (!codesNode || !codePath) return { key: JSON.stringify([resourceType, templateId ?? null]), ...base };

  if (codesNode.type === 'ValueSetRef') {
    const def = owner(library, codesNode)?.elm.library.valueSets?.def?.find((d) => d.name === codesNode.name);
    if (def) return { key: JSON.stringify([resourceType, templateId ?? null, codePath, def.id]), ...base, codePath, valueSet: { url: def.id, name: def.name } };
  }
  const refs = codesNode.type === 'ToList' ? [codesNode.operand] : codesNode.type === 'List' ? ((codesNode.element as unknown[]) ?? []) : [codesNode];
  const codes = (refs as ElmNode[]).map((ref) => (ref?.type === 'CodeRef' ? codeOf(owner(library, ref), String(ref.name), owner) : undefined));
  if (codes.length > 0 && codes.every((code) => code !== undefined)) {
    const list = codes as RequirementCode[];
    return { key: JSON.stringify([resourceType, templateId ?? null, codePath, list.map((c) => [c.system, c.code])]), ...base, codePath, codes: list };
  }
  return { key: JSON.stringify([resourceType, templateId ?? null, codePath, 'runtime']), ...base, codePath, runtimeCodes: true };
}

function codeOf(library: Library | undefined, name: string, owner: (library: Library, node: ElmNode) => Library | undefined): RequirementCode | undefined {
  const def = library?.elm.library.codes?.def?.find((d) => d.name === name);
  if (!library || !def) return undefined;
  const systemOwner = owner(library, { type: 'CodeSystemRef', ...(def.codeSystem.libraryName ? { libraryName: def.codeSystem.libraryName } : {}) });
  const system = systemOwner?.elm.library.codeSystems?.def?.find((d) => d.name === def.codeSystem.name);
  return system ? { system: system.id, code: def.id, name } : undefined;
}
