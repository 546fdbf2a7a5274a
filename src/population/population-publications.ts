import { createHash } from 'node:crypto';
import { PopulationResultsVersion } from '../measure-results/measure-results.repository';
import { PopulationCounts } from './population-counts';
import { Period } from '../clinical/shared/clinical-dates';

/** One publication: the tables of one period computed once from one version of the stored results. */
export interface PopulationPublication extends PopulationCounts {
  period: Period;
  /** The newest `computed_at` of the results counted (null when the period has none). */
  computedAt: string | null;
  resultsVersion: string;
}

/**
 * The version of a period's stored results: a digest of how many rows there are, the newest run
 * and the newest computation. Any recompute writes `computed_at = now()` on every row it touches,
 * so a changed result is a new version; the digest names the results, never their contents.
 */
export function resultsVersionOf(period: Period, version: PopulationResultsVersion): string {
  const digest = createHash('sha256').update(JSON.stringify([period.start, period.end, version.rowCount, version.maxRunId, version.newestComputedAt])).digest('hex');
  return `run-${version.maxRunId}.${digest.slice(0, 16)}`;
}

/**
 * The publications computed in this process, a few at most, by (period, results version). Each is
 * computed once and served whole: two requests for the same version get the same object (and the
 * same bytes). Concurrent first requests share one computation; a failed one is forgotten.
 */
export class PublicationCache {
  private readonly entries = new Map<string, Promise<PopulationPublication>>();

  constructor(private readonly capacity = 4) {}

  keyOf(period: Period, resultsVersion: string): string {
    return `${period.start}/${period.end}/${resultsVersion}`;
  }

  get(key: string): Promise<PopulationPublication> | undefined {
    return this.entries.get(key);
  }

  /** Stores the computation under the key it reports (its snapshot may be newer than the probe's). */
  async compute(probeKey: string, work: () => Promise<PopulationPublication>): Promise<PopulationPublication> {
    const pending = work();
    this.put(probeKey, pending);
    try {
      const publication = await pending;
      const actualKey = this.keyOf(publication.period, publication.resultsVersion);
      if (actualKey !== probeKey) {
        // The results changed between the probe and the snapshot: keep only the existing publication of the newer version, if any.
        this.entries.delete(probeKey);
        const existing = this.entries.get(actualKey);
        if (existing) return existing;
        this.put(actualKey, pending);
      }
      return publication;
    } catch (error) {
      if (this.entries.get(probeKey) === pending) this.entries.delete(probeKey);
      throw error;
    }
  }

  private put(key: string, value: Promise<PopulationPublication>): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
}
