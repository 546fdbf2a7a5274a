import { LRUCache } from 'lru-cache';
import { FilterCheck } from './worklist.sql';

/**
 * How long a worklist filter's plan choice is reused before its matching results are counted
 * again: the count moves only as results are recomputed, and a stale choice can cost time but never
 * change a page (both checks give the same rows).
 */
export const PLAN_CHOICE_TTL_MS = 60_000;

/** Distinct filters remembered (measure × status × reason prefix × period: a few hundred at most in use). */
const MAX_REMEMBERED = 512;

/**
 * The worklist's plan choices (`filterCheck` in the results repository), per filter: counting the
 * matching results is a round trip and an index walk of up to `SPARSE_MATCHES_BELOW` entries, paid by
 * every filtered page in a patient order; a page of the same filter within the TTL reuses the choice.
 * The key holds when the newest whole-cohort run finished, so after another one a filter is counted afresh.
 */
export class PlanChoices {
  private readonly choices: LRUCache<string, FilterCheck>;

  constructor(ttlMs = PLAN_CHOICE_TTL_MS, clock?: { now(): number }) {
    // ttlResolution 0: read the clock on every lookup (lru-cache otherwise reuses one reading for 1 ms).
    this.choices = new LRUCache<string, FilterCheck>({ max: MAX_REMEMBERED, ttl: ttlMs, ttlResolution: 0, ...(clock ? { perf: clock } : {}) });
  }

  async choose(key: readonly unknown[], count: () => Promise<FilterCheck>): Promise<FilterCheck> {
    const id = JSON.stringify(key);
    const known = this.choices.get(id);
    if (known) return known;
    const chosen = await count();
    this.choices.set(id, chosen);
    return chosen;
  }
}
