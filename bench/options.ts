/** `npm run bench` is configured by environment variables only, so the one command stays one command. */
export interface BenchOptions {
  /** Patients the generator creates in the bench database (BENCH_PATIENTS, default 100000). */
  patients: number;
  /** Generator seed (BENCH_SEED, default 6): the same seed and count reuse the database. */
  seed: number;
  /** Seconds per measured cell (BENCH_DURATION, default 10). */
  durationSeconds: number;
  /** Seconds of warm-up per target and tool before its cells (BENCH_WARMUP, default 2). */
  warmupSeconds: number;
  /** Concurrency levels (BENCH_CONCURRENCY, default "1,16"). */
  concurrency: number[];
  /** Connections in every pool: Vigil's, the floor's, PostGraphile's (BENCH_POOL_SIZE, default 10, Vigil's default). */
  poolSize: number;
  /** The bench database (BENCH_DATABASE, default vigil_bench). */
  database: string;
  /** A role that may create databases (BENCH_DATABASE_ADMIN_URL, else TEST_DATABASE_ADMIN_URL, else local postgres). */
  adminUrl: string;
  redisUrl: string;
  /** Proposals per second and seconds for the approval path (BENCH_PROPOSALS_PER_SECOND 5, BENCH_APPROVAL_SECONDS 30). */
  proposalsPerSecond: number;
  approvalSeconds: number;
  /** Agent turns measured (BENCH_AGENT_TURNS, default 100). */
  agentTurns: number;
  /** Parts to skip, comma-separated (BENCH_SKIP: measures, framework, tools, worklist, explain, import, agent, approvals, scaleout). */
  skip: Set<string>;
  /** Patients per recompute job in the measures part (BENCH_MEASURES_CHUNK_SIZE, default 250, the service's default). */
  measuresChunkSize: number;
  /** Drop and regenerate the bench database even when it matches (BENCH_REGENERATE=1). */
  regenerate: boolean;
  /** Free text for the report's machine line (BENCH_NOTE). */
  note: string;
}

const PARTS = ['measures', 'framework', 'tools', 'worklist', 'explain', 'import', 'agent', 'approvals', 'scaleout'];

export function readOptions(env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min) problems.push(`${name}: a whole number ≥ ${min}`);
    return Number(raw);
  };
  const concurrency = (env.BENCH_CONCURRENCY?.trim() || '1,16').split(',').map(Number);
  if (concurrency.some((c) => !Number.isInteger(c) || c < 1)) problems.push('BENCH_CONCURRENCY: comma-separated whole numbers ≥ 1');
  const skip = new Set((env.BENCH_SKIP ?? '').split(',').map((part) => part.trim()).filter(Boolean));
  const unknown = [...skip].filter((part) => !PARTS.includes(part));
  if (unknown.length) problems.push(`BENCH_SKIP: unknown part(s) ${unknown.join(', ')} (known: ${PARTS.join(', ')})`);
  const database = env.BENCH_DATABASE?.trim() || 'vigil_bench';
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) problems.push('BENCH_DATABASE: lower-case letters, digits and _');
  const options: BenchOptions = {
    patients: int('BENCH_PATIENTS', 100_000, 1),
    seed: int('BENCH_SEED', 6, 0),
    durationSeconds: int('BENCH_DURATION', 10, 1),
    warmupSeconds: int('BENCH_WARMUP', 2, 0),
    concurrency,
    poolSize: int('BENCH_POOL_SIZE', 10, 1),
    database,
    adminUrl: env.BENCH_DATABASE_ADMIN_URL || env.TEST_DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: env.BENCH_REDIS_URL || env.TEST_REDIS_URL || 'redis://127.0.0.1:6379',
    proposalsPerSecond: int('BENCH_PROPOSALS_PER_SECOND', 5, 1),
    approvalSeconds: int('BENCH_APPROVAL_SECONDS', 30, 1),
    agentTurns: int('BENCH_AGENT_TURNS', 100, 10),
    skip,
    measuresChunkSize: int('BENCH_MEASURES_CHUNK_SIZE', 250, 1),
    regenerate: env.BENCH_REGENERATE === '1',
    note: env.BENCH_NOTE?.trim() || 'shared with other work during the run',
  };
  if (problems.length) throw new Error(`bad benchmark settings:\n  ${problems.join('\n  ')}`);
  return options;
}

/** The URL of `database` on the admin URL's server. */
export function databaseUrlOf(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
