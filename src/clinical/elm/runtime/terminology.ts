import { Code } from 'cql-execution';
import { ElmEvaluationError } from '../elm-errors';
import { isNil } from './fhir-value';
import { codeKey, Expansion } from './value-sets';

/**
 * Code membership as cql-execution's ValueSet.hasMatch and Code.hasMatch decide it: by code system
 * URI and code; a bare string matches by code alone (and is refused when the value set spans
 * several code systems, since the answer would be ambiguous); a concept matches by any of its codes.
 */

export interface CodeLike {
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

/**
 * A value's codes flattened once (`codeList`), each code with its system-and-code key: a retrieve
 * tests one resource's codes against several value sets, so they are made ready once per resource.
 */
export class CodeSet {
  readonly codes: readonly unknown[];
  /** `codeKey` of each code that is neither a string nor null (null where it is). */
  readonly keys: readonly (string | null)[];

  constructor(value: unknown, flat = false) {
    this.codes = flat ? (value as readonly unknown[]) : codeList(value);
    this.keys = this.codes.map((c) => (typeof c === 'string' || isNil(c) ? null : codeKey((c as CodeLike).system, (c as CodeLike).code)));
  }

  /** Codes already flat, each an object with its system and code (as `codeList` would leave them). */
  static ofCodes(codes: readonly CodeLike[]): CodeSet {
    return new CodeSet(codes, true);
  }
}

export function inExpansion(expansion: Expansion, value: unknown): boolean {
  return inCodeSet(expansion, new CodeSet(value));
}

/** `inExpansion` of the value the codes were made from. */
export function inCodeSet(expansion: Expansion, set: CodeSet): boolean {
  const codes = set.codes;
  if (codes.length === 1 && typeof codes[0] === 'string') {
    const text = codes[0];
    const found = expansion.codes.some((c) => c.code === text);
    let mixed = multipleSystems.get(expansion);
    if (mixed === undefined) multipleSystems.set(expansion, (mixed = new Set(expansion.codes.map((c) => c.system)).size > 1));
    if (found && mixed) throw new ElmEvaluationError('a string code tested against a value set of several code systems is ambiguous');
    return found;
  }
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (typeof c === 'string') {
      if (expansion.codes.some((v) => v.code === c)) return true;
    } else if (set.keys[i] !== null && expansion.keys.has(set.keys[i]!)) return true;
  }
  return false;
}

/** Code.hasMatch: the value (a code, concept, string or list) holds this code. */
export function matchesCode(code: Code, value: unknown): boolean {
  return codesMatch(code, codeList(value));
}

/** `matchesCode` over a value's codes already flattened (`codeList`, or a `CodeSet`'s). */
export function codesMatch(code: Code, codes: readonly unknown[]): boolean {
  return codes.some((c) => (typeof c === 'string' ? c === code.code : !isNil(c) && (c as CodeLike).code === code.code && (c as CodeLike).system === code.system));
}
