import { CodeSystem } from '../../cohort/enum';

/**
 * Value sets are data: each code carries its code system URI, so an ICD-10-CM `I10` never matches a
 * code that happens to read `I10` in another system. A code may be a `prefix`: an ICD-10-CM category
 * (`E11` matches `E11.9`, `E11.65`, …), compared without dots and case. Prefixes are used only for
 * ICD-10-CM, whose codes are hierarchical by construction; SNOMED CT and the rest match exactly
 * (no subsumption: a SNOMED CT descendant must be listed to match).
 */
export interface ValueSetCode {
  system: CodeSystem;
  code: string;
  match?: 'exact' | 'prefix';
}

export interface ValueSet {
  /** Stable handle used in documentation and tests. */
  id: string;
  title: string;
  /** The VSAC OID the set is an excerpt of, when there is one. */
  oid?: string;
  /** Why the set differs from its source, if it does. */
  note?: string;
  codes: readonly ValueSetCode[];
}

export interface Coded {
  codeSystem: string | null;
  code: string | null;
}

const normalize = (system: string, code: string) =>
  system === CodeSystem.Icd10Cm ? code.replace(/\./g, '').toUpperCase() : code.trim();

const exact = (system: CodeSystem) => (...codes: string[]): ValueSetCode[] => codes.map((code) => ({ system, code }));

export const icd10 = exact(CodeSystem.Icd10Cm);
export const snomed = exact(CodeSystem.SnomedCt);
export const loinc = exact(CodeSystem.Loinc);
export const cpt = exact(CodeSystem.Cpt);
export const rxnorm = exact(CodeSystem.RxNorm);

/** ICD-10-CM categories or subcategories matched by prefix (`I25` matches `I25.10`). */
export const icd10Prefix = (...prefixes: string[]): ValueSetCode[] =>
  prefixes.map((code) => ({ system: CodeSystem.Icd10Cm, code, match: 'prefix' }));

/** A run of numeric CPT codes, inclusive (`cptRange(45378, 45393)`). */
export function cptRange(from: number, to: number): ValueSetCode[] {
  return Array.from({ length: to - from + 1 }, (_, index) => ({ system: CodeSystem.Cpt, code: String(from + index) }));
}

export function defineValueSet(set: ValueSet): ValueSet {
  return Object.freeze({ ...set, codes: Object.freeze([...set.codes]) });
}

interface Matcher {
  exact: Set<string>;
  prefixes: { system: CodeSystem; prefix: string }[];
}
const matchers = new WeakMap<ValueSet, Matcher>();

function matcherOf(set: ValueSet): Matcher {
  let matcher = matchers.get(set);
  if (!matcher) {
    matcher = { exact: new Set(), prefixes: [] };
    for (const { system, code, match } of set.codes) {
      if (match === 'prefix') matcher.prefixes.push({ system, prefix: normalize(system, code) });
      else matcher.exact.add(`${system}|${normalize(system, code)}`);
    }
    matchers.set(set, matcher);
  }
  return matcher;
}

/** Whether a coded row (condition, observation, procedure, medication…) is in any of the sets. */
export function inValueSet(row: Coded, ...sets: ValueSet[]): boolean {
  const { codeSystem, code } = row;
  if (!codeSystem || !code) return false;
  const normalized = normalize(codeSystem, code);
  return sets.some((set) => {
    const matcher = matcherOf(set);
    return (
      matcher.exact.has(`${codeSystem}|${normalized}`) ||
      matcher.prefixes.some(({ system, prefix }) => system === codeSystem && normalized.startsWith(prefix))
    );
  });
}
