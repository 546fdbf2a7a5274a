import { Code, Concept, Date as CqlDate, DateTime, Interval, Quantity, Ratio } from 'cql-execution';
import { Uncertainty } from 'cql-execution/lib/datatypes/uncertainty';
import { toNormalizedKey } from 'cql-execution/lib/util/immutableUtil';
import { equals } from 'cql-execution/lib/util/comparison';
import { FhirValue, isNil } from './fhir-value';

/**
 * List semantics of the reference engine (cql-execution's list operators), over values that may be
 * FHIR values: distinct by value (its normalised keys: date-times in UTC, quantities in UCUM base
 * units, tuples by their elements), membership by CQL equality, only one null kept. FHIR values are
 * keyed by their JSON, cached per object; cql-execution's own key function must never see them
 * (it would walk the FHIR model they point to).
 */

const fhirKeys = new WeakMap<object, string>();

function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson(record[k])}`)
    .join(',')}}`;
}

function dateKey(value: CqlDate | DateTime): string {
  const dt = value instanceof DateTime && typeof value.timezoneOffset === 'number' && value.timezoneOffset !== 0 ? value.convertToTimezoneOffset(0) : value;
  const fields = value instanceof DateTime ? DateTime.FIELDS : CqlDate.FIELDS;
  const record = dt as unknown as Record<string, unknown>;
  return `${value instanceof DateTime ? 'DT' : 'D'}(${fields.map((f) => String(record[f] ?? null)).join(',')}${value instanceof DateTime ? `,${String((dt as DateTime).timezoneOffset ?? null)}` : ''})`;
}

/** A string equal for two values exactly when the reference engine's distinct treats them as one. */
export function valueKey(value: unknown): string {
  if (isNil(value)) return 'null';
  switch (typeof value) {
    case 'string':
      return `s:${value}`;
    case 'number':
      return `n:${value}`;
    case 'boolean':
      return `b:${value}`;
    case 'object':
      break;
    default:
      return `?:${String(value)}`;
  }
  if (value instanceof FhirValue) {
    let key = fhirKeys.get(value.json);
    if (key === undefined) {
      // A resource is known by its type and id (one patient's data holds one resource per id), which
      // spares serialising every retrieved resource; anything else (a coding, a period) by its content.
      const { resourceType, id } = value.json as { resourceType?: unknown; id?: unknown };
      key = typeof resourceType === 'string' && typeof id === 'string' ? `R:${resourceType}/${id}` : `F:${value.typeName}:${stableJson(value.json)}`;
      fhirKeys.set(value.json, key);
    }
    return key;
  }
  if (Array.isArray(value)) return `[${value.map(valueKey).join(',')}]`;
  if (value instanceof Code) return `C(${value.code ?? null}|${value.system ?? null}|${value.version ?? null}|${value.display ?? null})`;
  if (value instanceof DateTime || value instanceof CqlDate) return dateKey(value);
  if (value instanceof Interval) {
    const closed = value.toClosed();
    return `I(${valueKey(closed.low)},${valueKey(closed.high)},${String(closed.lowClosed)},${String(closed.highClosed)})`;
  }
  if (value instanceof Quantity) {
    const key = toNormalizedKey(value) as { get(k: string): unknown };
    return `Q(${String(key.get('value'))},${String(key.get('unit'))})`;
  }
  if (value instanceof Ratio) return `R(${valueKey(value.numerator)},${valueKey(value.denominator)})`;
  if (value instanceof Uncertainty) return value.isPoint() ? valueKey(value.low) : `U(${valueKey(value.low)},${valueKey(value.high)})`;
  const record = value as Record<string, unknown>;
  const kind = value instanceof Concept ? 'Concept' : 'Tuple';
  return `${kind}{${Object.keys(record)
    .filter((k) => typeof record[k] !== 'function')
    .sort()
    .map((k) => `${k}:${valueKey(record[k])}`)
    .join(',')}}`;
}

/** cql-execution's toDistinctList followed by its removal of duplicate nulls. */
export function distinct(list: readonly unknown[]): unknown[] {
  if (list.length < 2) return [...list];
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const item of list) {
    const key = valueKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

/** `in` / `contains` for lists: some element equal, or both null. */
export function listContains(list: readonly unknown[], item: unknown): boolean {
  for (const element of list) {
    if ((isNil(element) && isNil(item)) || equals(element, item) === true) return true;
  }
  return false;
}

export function listUnion(a: readonly unknown[], b: readonly unknown[]): unknown[] {
  return distinct([...a, ...b]);
}

export function listExcept(a: readonly unknown[], b: readonly unknown[]): unknown[] {
  return distinct(a).filter((item) => !listContains(b, item));
}

export function listIntersect(a: readonly unknown[], b: readonly unknown[]): unknown[] {
  return distinct(a).filter((item) => listContains(b, item));
}

export function listIncludes(list: readonly unknown[], sublist: readonly unknown[]): boolean {
  return sublist.every((item) => listContains(list, item));
}
