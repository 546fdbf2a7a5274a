import { setFlagsFromString } from 'node:v8';

/**
 * Bounds how far the API process's heap grows between full collections: to `(1 + percent/100)`
 * times what survived the last one (V8's `--heap-growing-percent`; 0 leaves V8's own factor).
 *
 * Why: a request's rows live for the whole request, so under concurrent load they outlast a few
 * young-generation collections, are promoted, and die in the old space. V8's own factor, tuned for
 * throughput, then lets the old space reach three to four times the live heap before it collects:
 * at c=16 on the 100k bench cohort Vigil's RSS went from 150 MiB idle to a 320–340 MiB peak with a
 * live heap of about 70 MiB. With 100 the peak was 212–216 MiB and the req/s stayed within the
 * machine's noise (docs/benchmarks.md). V8 reads the factor at every full collection, so setting it
 * at start-up, before the app's modules allocate, is enough; it cannot be put in NODE_OPTIONS.
 */
export function applyHeapPolicy(heapGrowingPercent: number, setFlags: (flags: string) => void = setFlagsFromString): void {
  if (!Number.isInteger(heapGrowingPercent) || heapGrowingPercent < 0) throw new RangeError('heapGrowingPercent must be a whole number ≥ 0');
  if (heapGrowingPercent > 0) setFlags(`--heap-growing-percent=${heapGrowingPercent}`);
}
