import type { FhirValue } from './fhir-value';
import { codeKey, Expansion } from './value-sets';
import type { CodeSet } from './terminology';

/**
 * One patient’s resources of a type (and profile), indexed by the codes at one code path: for each
 * system-and-code key, the positions of the resources holding a code with that key. A retrieve with a
 * constant code filter then tests only the resources that can match — those holding a code of the
 * value set (or one of the codes), and those whose codes a key cannot stand for (a bare string is
 * matched by code alone) — instead of every resource of the type. The filter itself still decides
 * each candidate, so the answer is the full scan’s, in the same order: the index only leaves out
 * resources the filter could not have kept.
 */
export class CodeIndex {
  private readonly byKey = new Map<string, number[]>();
  /** Positions of resources with a string code: keys cannot say which filters they pass. */
  private readonly unkeyed: number[] = [];

  constructor(
    readonly records: readonly FhirValue[],
    readonly codes: readonly CodeSet[],
  ) {
    codes.forEach((set, position) => {
      let keyed = true;
      const seen = new Set<string>();
      set.codes.forEach((code, i) => {
        const key = set.keys[i];
        if (typeof code === 'string') keyed = false;
        if (key === null || seen.has(key)) return;
        seen.add(key);
        let list = this.byKey.get(key);
        if (!list) this.byKey.set(key, (list = []));
        list.push(position);
      });
      if (!keyed) this.unkeyed.push(position);
    });
  }

  /** The resources (in their order) that may hold a code of the expansion: every one that `inCodeSet` can accept. */
  candidatesIn(expansion: Expansion): FhirValue[] {
    const lists: number[][] = [];
    for (const [key, positions] of this.byKey) if (expansion.keys.has(key)) lists.push(positions);
    return this.collect(lists);
  }

  /** The resources (in their order) that may hold one of the codes (by system and code): every one `codesMatch` can accept. */
  candidatesFor(codes: readonly { system?: unknown; code?: unknown }[]): FhirValue[] {
    const lists: number[][] = [];
    for (const code of codes) {
      const positions = this.byKey.get(codeKey(code.system, code.code));
      if (positions) lists.push(positions);
    }
    return this.collect(lists);
  }

  private collect(lists: number[][]): FhirValue[] {
    if (this.unkeyed.length > 0) lists.push(this.unkeyed);
    if (lists.length === 0) return [];
    let positions = lists[0];
    if (lists.length > 1) {
      positions = [...new Set(lists.flat())].sort((a, b) => a - b);
    }
    return positions.map((position) => this.records[position]);
  }
}
