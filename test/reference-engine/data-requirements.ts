import { Bundle, CanonicalResource, Measure, Resource } from './fhir';

/**
 * Drops, before the engine sees them, the resources that no retrieve of the measure's ELM can
 * return. The CQL reads patient data only through retrieves (`[Observation: "HbA1c Laboratory
 * Test"]`; a reference is followed by another retrieve), so a resource that matches none of them
 * cannot change a result; but cql-exec-fhir wraps every resource of the retrieved type, for every
 * retrieve, before the code filter runs, which makes a 300-resource Synthea chart cost ~340 ms per
 * measure instead of ~60. The match mirrors the engine's, erring towards keeping:
 *
 * - type: the retrieve's dataType; profile: its templateId must be in the resource's
 *   `meta.profile` (fqm-execution's trustMetaProfile), unless it is the base resource profile;
 * - no code filter: kept; a value set or a code: kept if a coding of the retrieve's codeProperty
 *   (a choice such as `medication[x]` included) has the same system and code (cql-execution's
 *   equivalence), or if that property is present but not a CodeableConcept/Coding (a
 *   medicationReference, say), or if the retrieve's codes are anything the walker does not know.
 *
 * reference-engine.int-spec.ts checks that pruning changes no result.
 */
interface RetrieveFilter {
  resourceType: string;
  profile?: string;
  codeProperty?: string;
  /** `system|code` keys, or undefined: every resource of the type (and profile). */
  codes?: Set<string>;
}

interface ElmLibrary {
  library: {
    identifier: { id: string };
    includes?: { def?: { localIdentifier: string; path: string }[] };
    valueSets?: { def?: { name: string; id: string }[] };
    codes?: { def?: { name: string; id: string; codeSystem: { name: string; libraryName?: string } }[] };
    codeSystems?: { def?: { name: string; id: string }[] };
  };
}

type ElmNode = { type?: string; name?: string; libraryName?: string; operand?: ElmNode; [key: string]: unknown };

const BASE = 'http://hl7.org/fhir/StructureDefinition/';

function valueSetCodes(valueSets: CanonicalResource[]): Map<string, Set<string>> {
  const byUrl = new Map<string, Set<string>>();
  type Contains = { system?: string; code?: string; contains?: Contains[] };
  const add = (set: Set<string>, items: Contains[] | undefined) => {
    for (const item of items ?? []) {
      if (item.code) set.add(`${item.system}|${item.code}`);
      add(set, item.contains);
    }
  };
  for (const valueSet of valueSets) {
    if (!valueSet.url) continue;
    const set = byUrl.get(valueSet.url) ?? new Set<string>();
    add(set, (valueSet.expansion as { contains?: Contains[] } | undefined)?.contains);
    for (const include of (valueSet.compose as { include?: { system?: string; concept?: { code: string }[] }[] } | undefined)?.include ?? []) {
      for (const concept of include.concept ?? []) set.add(`${include.system}|${concept.code}`);
    }
    byUrl.set(valueSet.url, set);
  }
  return byUrl;
}

/** Every retrieve of every Library in the measure Bundle, as a filter. */
export function retrieveFilters(measureBundle: Bundle): RetrieveFilter[] {
  const resources = (measureBundle.entry ?? []).map((entry) => entry.resource!).filter(Boolean);
  const codesByUrl = valueSetCodes(resources.filter((r) => r.resourceType === 'ValueSet'));
  const libraries = new Map<string, ElmLibrary>();
  for (const library of resources.filter((r) => r.resourceType === 'Library')) {
    const content = (library.content as { contentType?: string; data?: string }[] | undefined)?.find((c) => c.contentType === 'application/elm+json');
    if (!content?.data) continue;
    const elm = JSON.parse(Buffer.from(content.data, 'base64').toString('utf8')) as ElmLibrary;
    libraries.set(elm.library.identifier.id, elm);
  }
  if (!resources.some((r): r is Measure => r.resourceType === 'Measure')) throw new Error('no Measure in the bundle');

  const filters: RetrieveFilter[] = [];
  for (const elm of libraries.values()) {
    const libraryOf = (alias: string | undefined): ElmLibrary | undefined => {
      if (!alias) return elm;
      const include = elm.library.includes?.def?.find((d) => d.localIdentifier === alias);
      return include ? libraries.get(include.path) : undefined;
    };
    /** The `system|code` keys a retrieve's `codes` stands for; undefined where unknown. */
    const codesOf = (node: ElmNode): Set<string> | undefined => {
      if (node.type === 'ValueSetRef') {
        const url = libraryOf(node.libraryName)?.library.valueSets?.def?.find((d) => d.name === node.name)?.id;
        return url ? codesByUrl.get(url) : undefined;
      }
      if (node.type === 'ToList' && node.operand) return codesOf(node.operand);
      if (node.type === 'CodeRef') {
        const owner = libraryOf(node.libraryName);
        const code = owner?.library.codes?.def?.find((d) => d.name === node.name);
        const systemOwner = code && (code.codeSystem.libraryName ? libraries.get(owner!.library.includes?.def?.find((d) => d.localIdentifier === code.codeSystem.libraryName)?.path ?? '') : owner);
        const system = systemOwner?.library.codeSystems?.def?.find((d) => d.name === code!.codeSystem.name)?.id;
        return code && system ? new Set([`${system}|${code.id}`]) : undefined;
      }
      return undefined;
    };
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== 'object') return;
      const n = node as ElmNode;
      if (n.type === 'Retrieve') {
        const resourceType = String(n.dataType).replace(/^\{http:\/\/hl7\.org\/fhir\}/, '');
        const codes = n.codes ? codesOf(n.codes as ElmNode) : undefined;
        // Codes the walker does not know leave `codes` undefined: every resource of the type is kept.
        filters.push({ resourceType, profile: n.templateId as string | undefined, codeProperty: n.codeProperty as string | undefined, codes });
      }
      Object.values(n).forEach(walk);
    };
    walk(elm.library);
  }
  return filters;
}

function codingsOf(value: unknown): { system?: string; code?: string }[] | 'unknown' {
  if (Array.isArray(value)) {
    const all = value.map(codingsOf);
    return all.includes('unknown') ? 'unknown' : (all as { system?: string; code?: string }[][]).flat();
  }
  if (value && typeof value === 'object') {
    const v = value as { coding?: unknown[]; system?: string; code?: string };
    if (Array.isArray(v.coding)) return v.coding as { system?: string; code?: string }[];
    if ('code' in v || 'system' in v) return [v];
  }
  return 'unknown';
}

function matches(resource: Resource, filter: RetrieveFilter): boolean {
  if (resource.resourceType !== filter.resourceType) return false;
  if (filter.profile && filter.profile !== `${BASE}${filter.resourceType}` && !(resource.meta?.profile ?? []).includes(filter.profile)) return false;
  if (!filter.codes || !filter.codeProperty) return true;
  const property = filter.codeProperty;
  const key = Object.keys(resource).find((k) => k === property || (k.startsWith(property) && /^[A-Z]/.test(k.slice(property.length))));
  if (key === undefined) return false; // the engine sees null: no match
  const codings = codingsOf(resource[key]);
  if (codings === 'unknown') return true;
  return codings.some((coding) => coding.system === undefined || filter.codes!.has(`${coding.system}|${coding.code}`));
}

/** A copy of the patient Bundle without the resources that no retrieve can return (the Patient stays). */
export function pruneToRetrieves(bundle: Bundle, filters: readonly RetrieveFilter[]): Bundle {
  const byType = new Map<string, RetrieveFilter[]>();
  for (const filter of filters) byType.set(filter.resourceType, [...(byType.get(filter.resourceType) ?? []), filter]);
  return {
    ...bundle,
    entry: (bundle.entry ?? []).filter(({ resource }) => {
      if (!resource) return false;
      if (resource.resourceType === 'Patient') return true;
      return (byType.get(resource.resourceType) ?? []).some((filter) => matches(resource, filter));
    }),
  };
}
