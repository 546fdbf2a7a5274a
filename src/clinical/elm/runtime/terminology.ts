import { Code } from 'cql-execution';
import { ElmEvaluationError } from '../elm-errors';
import { isNil } from './fhir-value';
import { codeKey, Expansion } from './value-sets';

/**
 * Code membership as cql-execution's ValueSet.hasMatch and Code.hasMatch decide it: by code system
 * URI and code; a bare string matches by code alone (and is refused when the value set spans
 * several code systems, since the answer would be ambiguous); a concept matches by any of its codes.
 */

interface CodeLike {
  code?: unknown;
  system?: unknown;
  codes?: unknown;
}

/** A code, a concept, a string or a list of them, flattened to the codes to test. */
export function codeList(value: unknown): unknown[] {
  if (isNil(value)) return [];
  if (Array.isArray(value)) return value.flatMap(codeList);
  const concept = value as CodeLike;
  if (typeof value === 'object' && Array.isArray(concept.codes)) return concept.codes;
  return [value];
}

const multipleSystems = new WeakMap<Expansion, boolean>();

export function inExpansion(expansion: Expansion, value: unknown): boolean {
  const codes = codeList(value);
  if (codes.length === 1 && typeof codes[0] === 'string') {
    const text = codes[0];
    const found = expansion.codes.some((c) => c.code === text);
    let mixed = multipleSystems.get(expansion);
    if (mixed === undefined) multipleSystems.set(expansion, (mixed = new Set(expansion.codes.map((c) => c.system)).size > 1));
    if (found && mixed) throw new ElmEvaluationError('a string code tested against a value set of several code systems is ambiguous');
    return found;
  }
  for (const c of codes) {
    if (typeof c === 'string') {
      if (expansion.codes.some((v) => v.code === c)) return true;
    } else if (!isNil(c) && expansion.keys.has(codeKey((c as CodeLike).system, (c as CodeLike).code))) return true;
  }
  return false;
}

/** Code.hasMatch: the value (a code, concept, string or list) holds this code. */
export function matchesCode(code: Code, value: unknown): boolean {
  if (typeof value === 'string') return value === code.code;
  return codeList(value).some((c) => (typeof c === 'string' ? c === code.code : !isNil(c) && (c as CodeLike).code === code.code && (c as CodeLike).system === code.system));
}
