import type { FhirValue } from '../runtime/fhir-value';
import type { PatientData } from '../runtime/patient-data';
import type { CodeSet } from '../runtime/terminology';
import type { Expansion } from '../runtime/value-sets';

/**
 * The value-set retrieves of one resource type, profile and code path, over every measure compiled
 * in the process: a patient's resources of that kind are read once, each code looked up in one
 * table of which value sets hold it, and every value set's resources come out of that one pass.
 * Without it each retrieve tested every resource against its own value set: the measures evaluated
 * for one patient ask about some thirty value sets of a handful of such kinds (encounters by type,
 * conditions by code), so most resources were tested many times over.
 *
 * Membership is `inCodeSet`'s: a resource is in a value set when one of its codes' system-and-code
 * keys is among the expansion's keys. A bare string code follows rules of its own there (matched by
 * code alone, refused against a value set of several code systems), so a patient with one at this
 * path has no pass: each retrieve then tests its resources itself, as before.
 */
export class ValueSetPass {
  /** Each registered value set's number, by its membership digest: equal digests select alike. */
  private readonly numbers = new Map<string, number>();
  /** For each code key, the numbers of the value sets that hold it, ascending. */
  private readonly holders = new Map<string, number[]>();

  constructor(
    /** Where the pass is kept in a patient's data: unique to the type, profile and code path. */
    private readonly key: string,
    /** The codes at this code path of a resource (one shared table per path: see retrieves.ts). */
    private readonly codesOf: (resource: FhirValue) => CodeSet,
  ) {}

  /** A value set a retrieve filters by, from now on included in every pass; its number. */
  register(expansion: Expansion): number {
    let number = this.numbers.get(expansion.membership);
    if (number !== undefined) return number;
    number = this.numbers.size;
    this.numbers.set(expansion.membership, number);
    for (const code of expansion.keys) {
      let list = this.holders.get(code);
      if (!list) this.holders.set(code, (list = []));
      list.push(number);
    }
    return number;
  }

  /**
   * The resources among `records` in value set `number`, in their order; undefined where the pass
   * cannot answer (a bare string code, or a value set registered after this patient's pass was made:
   * another measure compiled meanwhile), and the caller tests the resources itself.
   */
  select(data: PatientData, records: readonly FhirValue[], number: number): FhirValue[] | undefined {
    const pass = data.cached(this.key, () => this.run(records));
    if (!pass || number >= pass.count) return undefined;
    return pass.members[number] ?? [];
  }

  /** One pass over the records: for each value set registered so far, the records it holds. */
  run(records: readonly FhirValue[]): { count: number; members: (FhirValue[] | undefined)[] } | null {
    const count = this.numbers.size;
    const members: (FhirValue[] | undefined)[] = new Array(count);
    for (const record of records) {
      const { codes, keys } = this.codesOf(record);
      for (let i = 0; i < codes.length; i++) {
        if (typeof codes[i] === 'string') return null;
        const key = keys[i];
        const numbers = key === null ? undefined : this.holders.get(key);
        if (!numbers) continue;
        for (const number of numbers) {
          if (number >= count) break;
          let list = members[number];
          if (!list) members[number] = list = [];
          // A record with two codes in one value set is listed once.
          if (list[list.length - 1] !== record) list.push(record);
        }
      }
    }
    return { count, members };
  }
}
