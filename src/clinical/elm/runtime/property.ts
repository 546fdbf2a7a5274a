import { FhirValue, isNil } from './fhir-value';

/**
 * ELM `Property` on any runtime value (cql-execution's rule): a FHIR value navigates by the FHIR
 * model; anything else (a tuple, an interval's `low`, a quantity's `unit`) by its own field, a dotted
 * path one segment at a time, a method called on its object; a missing value is null.
 */
export function getProperty(obj: unknown, path: string): unknown {
  if (isNil(obj)) return null;
  if (obj instanceof FhirValue) return obj.get(path);
  let value = fieldOf(obj, path);
  if (isNil(value) && path.includes('.')) {
    let current: unknown = obj;
    for (const part of path.split('.')) {
      const next = isNil(current) ? undefined : current instanceof FhirValue ? current.get(part) : fieldOf(current, part);
      current = typeof next === 'function' ? (next as () => unknown).call(current) : next;
    }
    value = current;
  }
  if (typeof value === 'function') return (value as () => unknown).call(obj) ?? null;
  return value ?? null;
}

function fieldOf(obj: unknown, name: string): unknown {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const record = obj as Record<string, unknown> & { get?: unknown };
  const value = record[name];
  if (value === undefined && typeof record.get === 'function') return (record.get as (n: string) => unknown)(name);
  return value;
}
