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

/**
 * The V8 flags the API process starts with: `npm start`, the image's command and the benchmarks'
 * API processes all pass exactly these (a test holds the first two to it). They cannot be set from
 * inside the process: V8 sizes its young generation when the heap is made.
 *
 * `--max-semi-space-size=32` (MiB; Node 20's default is 16): a request's rows are garbage within
 * milliseconds, but at concurrency 16 the young generation fills several times while they are in
 * flight, so each scavenge copies them and promotes the survivors to the old space, which then
 * needs full collections. Twice the room means half the scavenges and fewer rows promoted: less CPU
 * per request (measured as a lever in docs/benchmarks.md), for at most 32 MiB more resident memory.
 */
export const API_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
