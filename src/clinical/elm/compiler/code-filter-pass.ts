import type { FhirValue } from '../runtime/fhir-value';
import type { PatientData } from '../runtime/patient-data';
import type { CodeSet } from '../runtime/terminology';

/**
 * The constant code filters (value sets, lists of codes) of the retrieves of one resource type,
 * profile and code path, over every measure compiled in the process: a patient's resources of that
 * kind are read once, each code looked up in one table of which filters name it, and every filter's
 * resources come out of that one pass. Without it each retrieve tested every resource against its
 * own filter: the measures evaluated for one patient ask some thirty filters of a handful of such
 * kinds (encounters by type, conditions and observations by code), so most resources were tested
 * many times over.
 *
 * A filter names the system-and-code keys (`codeKey`) a resource's code must have to match. For a
 * value set that is the whole test (`inCodeSet` matches by key); a list of codes compares system and
 * code as they are, which equal keys do not prove (a number and a string print alike), so a key
 * found there is confirmed by the filter's own test. A bare string code follows rules of its own
 * (matched by code alone; refused against a value set of several code systems), so a patient with
 * one at this path has no pass: each retrieve then tests its resources itself, as before.
 *
 * The passes live as long as the process, as the compiled retrieves' value sets do: one entry per
 * distinct filter (by what it selects), so compiling a measure again adds nothing. A filter nobody
 * evaluates any more costs only its keys in the table: a patient's pass looks up its own codes.
 */
export interface CodeFilter {
  /** What the filter selects, as text: two filters with the same text are one (retrieves.ts). */
  selects: string;
  /** The code keys it matches by: a resource with none of them is not selected. */
  keys: Iterable<string>;
  /** Where a key is not enough: the filter's own test of a resource's codes. */
  confirm?: (codes: CodeSet) => boolean;
}

interface Pass {
  count: number;
  members: (FhirValue[] | undefined)[];
}

export class CodeFilterPass {
  /** Each registered filter's number, by what it selects. */
  private readonly numbers = new Map<string, number>();
  private readonly confirms: (((codes: CodeSet) => boolean) | undefined)[] = [];
  /** For each code key, the numbers of the filters that name it, ascending. */
  private readonly holders = new Map<string, number[]>();

  constructor(
    /** Where the pass is kept in a patient's data: unique to the type, profile and code path. */
    private readonly key: string,
    /** The codes at this code path of a resource (retrieves.ts). */
    private readonly codesOf: (resource: FhirValue) => CodeSet,
  ) {}

  /** A filter a retrieve selects by, from now on included in every pass; its number. */
  register(filter: CodeFilter): number {
    let number = this.numbers.get(filter.selects);
    if (number !== undefined) return number;
    number = this.numbers.size;
    this.numbers.set(filter.selects, number);
    this.confirms.push(filter.confirm);
    for (const code of new Set(filter.keys)) {
      let list = this.holders.get(code);
      if (!list) this.holders.set(code, (list = []));
      list.push(number);
    }
    return number;
  }

  /**
   * The resources among `records` filter `number` selects, in their order; undefined where the pass
   * cannot answer (a bare string code, or a filter registered after this patient's pass was made:
   * another measure compiled meanwhile), and the caller tests the resources itself.
   */
  select(data: PatientData, records: readonly FhirValue[], number: number): FhirValue[] | undefined {
    const pass = data.cached(this.key, () => this.run(records));
    if (!pass || number >= pass.count) return undefined;
    return pass.members[number] ?? [];
  }

  /** One pass over the records: for each filter registered so far, the records it selects. */
  private run(records: readonly FhirValue[]): Pass | null {
    const count = this.numbers.size;
    const members: (FhirValue[] | undefined)[] = new Array(count);
    for (const record of records) {
      const set = this.codesOf(record);
      const { codes, keys } = set;
      for (let i = 0; i < codes.length; i++) {
        if (typeof codes[i] === 'string') return null;
        const key = keys[i];
        const numbers = key === null ? undefined : this.holders.get(key);
        if (!numbers) continue;
        for (const number of numbers) {
          if (number >= count) break;
          let list = members[number];
          // A record with two codes one filter names is listed once.
          if (list && list[list.length - 1] === record) continue;
          const confirm = this.confirms[number];
          if (confirm && !confirm(set)) continue;
          if (!list) members[number] = list = [];
          list.push(record);
        }
      }
    }
    return { count, members };
  }
}
