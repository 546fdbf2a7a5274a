import { Code, Interval } from 'cql-execution';
import { ElmEvaluationError } from '../elm-errors';
import { FHIR_NS } from '../runtime/fhir-model';
import { FhirValue, isNil, toCodes } from '../runtime/fhir-value';
import { periodToInterval } from '../runtime/fhir-helpers';
import { CodeLike, CodeSet, codesMatch, inCodeSet } from '../runtime/terminology';
import type { PatientData } from '../runtime/patient-data';
import { codeKey, type Expansion } from '../runtime/value-sets';
import type { ElmNode } from '../elm.types';
import { libraryOf, codeOf } from './clinical';
import { Compiler, Handler, Run, Scope } from './compiler.types';
import { CodeFilter, CodeFilterPass } from './code-filter-pass';

/**
 * Retrieves (CQL §11): the patient's resources of the retrieve's type, selected by its profile as
 * the reference engine selects them (see profiles.ts), filtered by the codes at its code path (a
 * value set, or codes compared by system and code) and by its date range, when it has one. A
 * retrieve whose codes are constants is computed once per patient and shared by every define, its
 * code filter answered with every other constant one of its kind by one pass (code-filter-pass.ts).
 */

type Matcher = (codes: CodeSet) => boolean;
/** A constant filter: its matcher, what it selects (two with the same text select the same resources), the code keys it needs. */
type Filter = CodeFilter & { matcher: Matcher };

/** The codes at a code path of a resource, as retrieves filter on them (cql-exec-fhir's getCode, flattened). */
function readCodes(resource: FhirValue, path: string): CodeSet {
  const fromJson = jsonCodes(resource, path);
  return fromJson ? CodeSet.ofCodes(fromJson) : new CodeSet(fromJson === null ? null : toCodes(resource.get(path)));
}

/** Per code path, per resource, the codes a retrieve that tests resources itself reads: once, whatever the value sets. */
const codeSetsByPath = new Map<string, WeakMap<FhirValue, CodeSet>>();

/** The codes at one code path of each resource, kept: a retrieve finds its path's table once, when compiled. */
function codesAtPath(path: string): (resource: FhirValue) => CodeSet {
  let sets = codeSetsByPath.get(path);
  if (!sets) codeSetsByPath.set(path, (sets = new WeakMap()));
  const table = sets;
  return (resource) => {
    let set = table.get(resource);
    if (!set) table.set(resource, (set = readCodes(resource, path)));
    return set;
  };
}

/** Per resource type, profile and code path, the pass that answers its constant code filters together (code-filter-pass.ts). */
const codeFilterPasses = new Map<string, CodeFilterPass>();

function codeFilterPassFor(resourceType: string, templateId: string | undefined, codeProperty: string): CodeFilterPass {
  const key = JSON.stringify(['code filter pass', resourceType, templateId ?? null, codeProperty]);
  let pass = codeFilterPasses.get(key);
  // The pass reads each resource once per patient (it is kept in the patient's data), so it keeps no table of codes: a weak
  // table's entry for every resource of every patient cost more (in the collector) than reading a resource's codes again.
  if (!pass) codeFilterPasses.set(key, (pass = new CodeFilterPass(key, (resource) => readCodes(resource, codeProperty))));
  return pass;
}

type Json = Record<string, unknown>;
const isJsonObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/**
 * The codes at a code path that is a CodeableConcept, a list of them or a Coding, read straight from the
 * JSON: the (system, code) pairs `toCodes` gives through `FhirValue` (a missing one null, as there),
 * without wrapping every concept and coding of every resource a retrieve tests (most never read
 * again). Undefined where the JSON takes `FhirValue`'s rules to read (a primitive's `_x`, another
 * type, a dotted path): the caller reads it that way then.
 */
function jsonCodes(resource: FhirValue, path: string): CodeLike[] | null | undefined {
  if (path.includes('.')) return undefined;
  const found = resource.propertyOf(path);
  if (!found) return null;
  const data = resource.json[found.property];
  const type = found.type;
  const single = type.kind === 'class' ? type.name : null;
  const listed = type.kind === 'list' && type.element.kind === 'class' ? type.element.name : null;
  if (single !== 'Coding' && single !== 'CodeableConcept' && listed !== 'CodeableConcept') return undefined;
  if (isNil(data)) return null;
  if (single === 'Coding') return isJsonObject(data) ? codingCodes([data]) : undefined;
  if (single === 'CodeableConcept') return conceptCodes(data);
  if (!Array.isArray(data)) return null;
  const codes: CodeLike[] = [];
  for (const item of data as unknown[]) {
    if (isNil(item)) continue;
    const itemCodes = conceptCodes(item);
    if (itemCodes === undefined) return undefined;
    if (itemCodes) codes.push(...itemCodes);
  }
  return codes;
}

/** A CodeableConcept's codes, as `toCodes` reads one that `FhirValue` wrapped (a non-object wraps as nothing). */
function conceptCodes(data: unknown): CodeLike[] | null | undefined {
  if (!isJsonObject(data)) return null;
  return Array.isArray(data.coding) ? codingCodes(data.coding) : null;
}

function codingCodes(codings: readonly unknown[]): CodeLike[] | undefined {
  const codes: CodeLike[] = [];
  for (const coding of codings) {
    if (!isJsonObject(coding)) continue;
    if (!isNil(coding._code) || !isNil(coding._system)) return undefined;
    codes.push({ system: coding.system ?? null, code: coding.code ?? null });
  }
  return codes;
}

/** A constant code filter: a value-set reference, or a code or list of codes. */
function staticCodes(node: ElmNode, scope: Scope, cx: Compiler): Filter | null | undefined {
  if (node.type === 'ValueSetRef') {
    const def = libraryOf(node, scope)?.valueSet(String(node.name));
    if (!def) return undefined;
    const expansion: Expansion = cx.expansion(def.url);
    // Membership by key is inCodeSet's whole test.
    return { matcher: (codes) => inCodeSet(expansion, codes), selects: `in value set ${expansion.membership}`, keys: expansion.keys };
  }
  const codeNodes = node.type === 'ToList' ? [node.operand] : node.type === 'List' ? ((node.element as unknown[]) ?? []) : node.type === 'CodeRef' ? [node] : null;
  if (!codeNodes) return null;
  const codes: Code[] = [];
  for (const item of codeNodes as ElmNode[]) {
    if (item?.type !== 'CodeRef') return null;
    const def = libraryOf(item, scope)?.code(String(item.name));
    if (!def) return undefined;
    codes.push(codeOf(def));
  }
  // codesMatch reads a code's system and code only, as they are: a key names the candidates, the matcher decides.
  const matcher: Matcher = (set) => codes.some((code) => codesMatch(code, set.codes));
  const selects = `codes ${JSON.stringify(codes.map((code) => [code.system, code.code]))}`;
  return { matcher, selects, keys: codes.map((code) => codeKey(code.system, code.code)), confirm: matcher };
}

/** A code filter known only at run time: a list of codes, or a value set. */
function dynamicCodes(value: unknown, cx: Compiler): Matcher | null {
  if (isNil(value)) return null;
  if (Array.isArray(value)) return (set) => value.some((code) => (code instanceof Code ? codesMatch(code, set.codes) : false));
  const vs = value as { isValueSet?: boolean; id?: string };
  if (vs.isValueSet && vs.id) {
    const expansion = cx.expansion(vs.id);
    return (codes) => inCodeSet(expansion, codes);
  }
  throw new ElmEvaluationError('retrieve codes that are neither a list of codes nor a value set');
}

/** The date a retrieve's date filter reads (cql-exec-fhir's getDateOrInterval). */
function dateOf(resource: FhirValue, path: string): unknown {
  const value = resource.get(path);
  if (value instanceof FhirValue) return value.cls.valueType ? value.get('value') : periodToInterval(value);
  return value;
}

export const retrieveHandlers: Record<string, Handler> = {
  Retrieve: (node, scope, cx) => {
    const dataType = String(node.dataType);
    if (!dataType.startsWith(FHIR_NS)) return cx.unsupported(`Retrieve of ${dataType}`, scope);
    for (const field of ['context', 'includedIn', 'idProperty', 'valueSetProperty']) {
      if (node[field] !== undefined) return cx.unsupported(`Retrieve with ${field}`, scope);
    }
    for (const field of ['include', 'codeFilter', 'dateFilter', 'otherFilter']) {
      if (Array.isArray(node[field]) && (node[field] as unknown[]).length > 0) return cx.unsupported(`Retrieve with ${field}`, scope);
    }
    const resourceType = dataType.slice(FHIR_NS.length);
    const templateId = node.templateId as string | undefined;
    const codeProperty = node.codeProperty as string | undefined;
    const codesNode = node.codes as ElmNode | undefined;
    if (codesNode && !codeProperty) return cx.unsupported('Retrieve with codes but no code path', scope);
    const fixed = codesNode ? staticCodes(codesNode, scope, cx) : null;
    if (fixed === undefined) return cx.unsupported('Retrieve codes naming an unknown value set or code', scope);
    const dynamic: Run | undefined = codesNode && fixed === null ? cx.expr(codesNode, scope) : undefined;
    const matcher = fixed?.matcher ?? null;
    const dateProperty = node.dateProperty as string | undefined;
    const dateRange: Run | undefined = node.dateRange ? cx.expr(node.dateRange, scope) : undefined;
    // The key of a constant retrieve's result in the patient's data, which the measures evaluated for the patient share: every retrieve
    // that selects the same resources (type, profile, code path, the codes' membership), in this measure or another, reads one result.
    const key = JSON.stringify([resourceType, templateId ?? null, fixed ? codeProperty : null, fixed?.selects ?? null]);

    const codesAt = codeProperty ? codesAtPath(codeProperty) : null;
    // A constant code filter reads its resources from the pass shared by every such filter asked of this kind of resource.
    const pass = fixed && codeProperty ? codeFilterPassFor(resourceType, templateId, codeProperty) : null;
    const inPass = pass ? pass.register(fixed!) : -1;
    const select = (data: PatientData, by: Matcher | null, range: Interval | null | undefined): FhirValue[] => {
      const records = data.withProfile(resourceType, templateId);
      let out = by ? ((by === matcher && pass?.select(data, records, inPass)) || records.filter((r) => by(codesAt!(r)))) : records;
      if (range && dateProperty) out = out.filter((r) => range.includes(dateOf(r, dateProperty)));
      return out;
    };

    if (!dynamic && !dateRange) return (c) => c.data.cached(key, () => select(c.data, matcher, undefined));
    return (c, f) => {
      let chosen = matcher;
      if (dynamic) {
        const value = dynamic(c, f);
        if (isNil(value)) return [];
        chosen = dynamicCodes(value, cx);
      }
      return select(c.data, chosen, dateRange ? (dateRange(c, f) as Interval | null) : undefined);
    };
  },
};
