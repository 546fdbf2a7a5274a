/**
 * Vigil's levers: each one a second Vigil process, the same build with one setting changed, that
 * answers the same requests in the same run as Vigil with its defaults (`npm run bench`'s tools and
 * `npm run bench:request-cost`). `on` says which process has the lever: the default one (a lever
 * Vigil runs with, switched off in the second) or the second (an edge the benchmarks otherwise run
 * without, switched on there). Ratios are always "with ÷ without".
 */
export interface Lever {
  target: 'vigilNoCache' | 'vigilNoTokenCache' | 'vigilRequestLog' | 'vigilExactRateLimit' | 'vigilControl';
  /** The lever, for the report's prose. */
  name: string;
  /** The second process, as a target's label. */
  label: string;
  /** What the second process changes. */
  env: Record<string, string>;
  /** Which process has the lever: `default` (Vigil as benchmarked) or `second`. */
  on: 'default' | 'second';
  /** The lever acts on every request, not only on tools: `npm run bench:request-cost` also measures `GET /health` on both processes. */
  everyRequest?: true;
}

export const LEVERS: readonly Lever[] = [
  {
    target: 'vigilNoCache',
    name: 'the identity cache (`AUTH_IDENTITY_CACHE`)',
    label: 'Vigil, identity read on every request (AUTH_IDENTITY_CACHE=false)',
    env: { AUTH_IDENTITY_CACHE: 'false' },
    on: 'default',
  },
  {
    target: 'vigilNoTokenCache',
    name: 'the verified-token cache (`AUTH_TOKEN_CACHE`)',
    label: 'Vigil, every token verified (AUTH_TOKEN_CACHE=false)',
    env: { AUTH_TOKEN_CACHE: 'false' },
    on: 'default',
  },
  {
    target: 'vigilExactRateLimit',
    name: 'the rate limit decided in memory, synced with Redis in batches (`RATE_LIMIT_SYNC_MS`)',
    label: 'Vigil, one Redis rate-limit decision per request (RATE_LIMIT_SYNC_MS=0)',
    env: { RATE_LIMIT_SYNC_MS: '0' },
    on: 'default',
    everyRequest: true,
  },
  {
    target: 'vigilRequestLog',
    // The benchmarks run Vigil at LOG_LEVEL=warn (benchVigilEnv): a success writes no line there, as it does at the default level, info.
    name: 'the per-request log line (an edge: the benchmarks run Vigil at `LOG_LEVEL=warn`, which writes none for a success; the default, `info`, writes one)',
    label: 'Vigil with its per-request log line (LOG_LEVEL=info)',
    env: { LOG_LEVEL: 'info' },
    on: 'second',
  },
  {
    // No lever at all: the spread between two processes of one build in one run, which a lever's ratio must clear to mean anything.
    target: 'vigilControl',
    name: 'nothing (the control: a second process of the same build with the same settings, so its ratios are the spread between processes)',
    label: 'Vigil again, the same settings (the control)',
    env: {},
    on: 'second',
  },
];

/** The cells of the process with the lever and of the one without it. */
export function withAndWithout<T>(lever: Lever, cells: { vigil: T } & Record<Lever['target'], T>): { on: T; off: T } {
  const second = cells[lever.target];
  return lever.on === 'default' ? { on: cells.vigil, off: second } : { on: second, off: cells.vigil };
}

/** Every lever's second process's cell, by its target. */
export function leverCells<T>(cellOf: (target: Lever['target']) => T): Record<Lever['target'], T> {
  return Object.fromEntries(LEVERS.map((lever) => [lever.target, cellOf(lever.target)])) as Record<Lever['target'], T>;
}
