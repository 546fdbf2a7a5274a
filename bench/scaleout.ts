import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeAuditChain, DirectoryCheckpointStore, loadCheckpointKey, verifyAuditChain } from '../src/audit';
import { AUDIT_SEALER_LOCK_KEY } from '../src/audit/audit.sql';
import { loadConfig } from '../src/config/load-config';
import { SqlSession } from '../src/schema/sql-session';
import { ToolName } from '../src/tools/tool-names';
import { Cell, httpLoadSpread, HttpRequestSpec } from './load';
import { cycle } from './patient-sample';
import { InsertToSeal, insertToSeal, lastEventId, waitUntilSealed } from './seal-lag';
import { freePort, ServerProcess, startServer } from './servers';
import { quantile } from './stats';
import { Assignment, BENCH_TOOLS, vigilPath } from './tool-reads';

/**
 * Issue 15's scale-out part of `npm run bench`: two API processes and one worker process on the same
 * bench database and Redis. Each tool at the highest concurrency, first against one API process and
 * then spread evenly over both (the same processes, the same moment: the ratio is the scale-out);
 * then a load over both while the process that leads the audit sealer is killed (SIGKILL) half way,
 * timing until another process leads and seals; then `audit-verify` over the whole trail.
 */

export interface ScaleoutResult {
  concurrency: number;
  seconds: number;
  tools: { tool: ToolName; single: Cell; combined: Cell }[];
  /** Insert to seal of every event the tool cells wrote (one process and both), from the database. */
  sealLag: InsertToSeal;
  /** The leader's `vigil_audit_seal_lag_seconds` (oldest unsealed event's age), scraped every 250 ms during the cells, in ms. */
  gauge: { samples: number; p50: number; p99: number; max: number };
  takeover: Takeover;
  /** Events of the part still unsealed after waiting up to 30 s for the sealer. */
  unsealed: number;
  verify: { ok: boolean; lines: string[] };
}

export interface Takeover {
  killed: string;
  newLeader: string | null;
  /** SIGKILL to the leader's advisory lock held by another backend (Postgres saw the connection gone and a standby retried). */
  lockAfterMs: number | null;
  /** SIGKILL to a surviving process reporting the seal gauge (it leads and has finished a pass). */
  leaderAfterMs: number | null;
  /** SIGKILL to the first link committed after it (`sealed_at`: the sealing transaction's start). */
  firstSealAfterMs: number | null;
  /** Insert to seal: every event of the kill's load, and those that occurred from 1 s before the kill to 2 s after it. */
  phase: InsertToSeal;
  aroundKill: InsertToSeal;
  seconds: number;
  answered: number;
  failed: number;
}

interface Processes {
  apis: ServerProcess[];
  worker: ServerProcess;
  /** `http://127.0.0.1:<METRICS_PORT>` of each process, by name. */
  metrics: Map<string, string>;
  names: Map<ServerProcess, string>;
}

const GAUGE = /^vigil_audit_seal_lag_seconds (\S+)$/m;
/** The backend holding the sealer's leadership lock (a bigint advisory lock: its high and low 32 bits). */
const LOCK_HOLDER = `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND ((classid::bigint << 32) | objid::bigint) = $1::bigint`;

export async function measureScaleout(options: {
  /** Vigil's environment in the rest of the bench (database, Redis, keys, checkpoints, limits). */
  env: Record<string, string>;
  root: string;
  db: SqlSession;
  sample: Assignment[];
  tokens: Map<string, string>;
  concurrency: number;
  seconds: number;
  warmupSeconds: number;
  stop: () => boolean;
  log: (message: string) => void;
}): Promise<ScaleoutResult> {
  const { log } = options;
  const processes = await startProcesses(options.env, options.root);
  const all = [...processes.apis, processes.worker];
  try {
    const sequence = cycle(options.sample);
    const spec = (tool: ToolName) => (): HttpRequestSpec => {
      const { patientId, username } = sequence.next();
      return { method: 'GET', path: vigilPath(tool, patientId), headers: { authorization: `Bearer ${options.tokens.get(username)}` } };
    };
    const [one, two] = processes.apis;
    const cpu = (servers: ServerProcess[]) => servers.reduce((sum, server) => sum + server.cpuMs(), 0);
    const cell = async (servers: ServerProcess[], tool: ToolName, seconds: number): Promise<Cell> => {
      sequence.reset();
      const before = cpu(servers);
      const measured = await httpLoadSpread(servers.map((server) => server.base), spec(tool), options.concurrency, seconds);
      return { ...measured, cpuMsPerRequest: (cpu(servers) - before) / Math.max(1, measured.requests) };
    };
    const start = await lastEventId(options.db);
    const gauge = gaugeSampler(processes.metrics);
    const tools: ScaleoutResult['tools'] = [];
    for (const tool of BENCH_TOOLS) {
      if (options.stop()) throw new Error('interrupted');
      if (options.warmupSeconds > 0) await cell([one, two], tool, options.warmupSeconds);
      const single = await cell([one], tool, options.seconds);
      const combined = await cell([one, two], tool, options.seconds);
      tools.push({ tool, single, combined });
      log(`scale-out ${tool} c=${options.concurrency}: one API process ${single.rps.toFixed(0)} req/s, two ${combined.rps.toFixed(0)} req/s` + (single.errors + combined.errors ? `, ${single.errors + combined.errors} errors` : ''));
    }
    const gaugeMs = gauge.stop();
    const cellsEnd = await lastEventId(options.db);
    const takeover = await killTheLeader(processes, options.db, options.sample, options.tokens, options.concurrency, Math.max(6, options.seconds), log);
    log('scale-out: waiting for the sealer to finish, then audit-verify');
    const unsealed = await waitUntilSealed(options.db, start, 30_000);
    const sealLag = await insertToSeal(options.db, start, cellsEnd);
    const verify = await auditVerify(options.db, options.env);
    log(`scale-out: ${verify.lines[verify.lines.length - 1]}`);
    return { concurrency: options.concurrency, seconds: options.seconds, tools, sealLag, gauge: gaugeMs, takeover, unsealed, verify };
  } finally {
    for (const server of all) await server.stop().catch(() => undefined);
  }
}

/** The API processes with their queue and recompute workers off (the worker process runs them), each serving its own metrics. */
async function startProcesses(env: Record<string, string>, root: string): Promise<Processes> {
  const metrics = new Map<string, string>();
  const names = new Map<ServerProcess, string>();
  const shared = { ...env, METRICS_HOST: '127.0.0.1', QUEUE_PREFIX: `vigil-bench-s-${process.pid}` };
  const apis: ServerProcess[] = [];
  for (const name of ['api-1', 'api-2']) {
    const metricsPort = await freePort();
    const api = await startServer({
      name,
      script: join(root, 'dist-bench', 'src', 'main.js'),
      env: { ...shared, METRICS_PORT: String(metricsPort), QUEUE_WORKERS_IN_API: 'false', MEASURES_WORKERS_IN_API: 'false' },
      readyPath: '/health/ready',
    });
    apis.push(api);
    names.set(api, name);
    metrics.set(name, `http://127.0.0.1:${metricsPort}`);
  }
  // The worker serves no API: it is ready once its metrics answer.
  const worker = await startServer({ name: 'worker', script: join(root, 'dist-bench', 'src', 'worker.js'), env: shared, portEnv: 'METRICS_PORT', readyPath: '/metrics' });
  names.set(worker, 'worker');
  metrics.set('worker', worker.base);
  return { apis, worker, metrics, names };
}

/** The seal gauge of one process, in ms: null on a standby (the gauge is absent there), or when it does not answer. */
async function sealGaugeMs(metricsBase: string): Promise<number | null> {
  try {
    const response = await fetch(`${metricsBase}/metrics`, { signal: AbortSignal.timeout(2000) });
    const match = GAUGE.exec(await response.text());
    return match ? Number(match[1]) * 1000 : null;
  } catch {
    return null;
  }
}

/** The process that leads the sealer now (the one reporting the gauge), or null. */
async function leaderOf(metrics: Map<string, string>, among: string[]): Promise<string | null> {
  const gauges = await Promise.all(among.map(async (name) => ({ name, value: await sealGaugeMs(metrics.get(name)!) })));
  return gauges.find((gauge) => gauge.value !== null)?.name ?? null;
}

function gaugeSampler(metrics: Map<string, string>): { stop(): ScaleoutResult['gauge'] } {
  const samples: number[] = [];
  const timer = setInterval(() => {
    void Promise.all([...metrics.values()].map(sealGaugeMs)).then((values) => samples.push(...values.filter((value): value is number => value !== null)));
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      const sorted = Float64Array.from(samples).sort();
      return { samples: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted[sorted.length - 1] ?? Number.NaN };
    },
  };
}

/**
 * A closed loop of `concurrency` clients over the API processes still alive (a balancer's view: a
 * process that refuses connections is taken out), cycling the five tools, for `seconds`; half way
 * the sealer's leader is killed with SIGKILL, and the survivors are watched until one leads.
 */
async function killTheLeader(
  processes: Processes,
  db: SqlSession,
  sample: Assignment[],
  tokens: Map<string, string>,
  concurrency: number,
  seconds: number,
  log: (message: string) => void,
): Promise<Takeover> {
  const start = await lastEventId(db);
  const alive = new Set(processes.apis);
  const sequence = cycle(sample);
  let answered = 0;
  let failed = 0;
  let request = 0;
  const until = performance.now() + seconds * 1000;
  const load = Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until && alive.size > 0) {
        const index = request++;
        const api = [...alive][index % alive.size];
        const { patientId, username } = sequence.next();
        try {
          const response = await fetch(`${api.base}${vigilPath(BENCH_TOOLS[index % BENCH_TOOLS.length], patientId)}`, {
            headers: { authorization: `Bearer ${tokens.get(username)}` },
            signal: AbortSignal.timeout(30_000),
          });
          await response.arrayBuffer();
          if (response.status === 200) answered += 1;
          else failed += 1;
        } catch {
          failed += 1;
          if (api.pid && !isRunning(api.pid)) alive.delete(api);
        }
      }
    }),
  );
  await sleep((seconds * 1000) / 2);
  const everyone = [...processes.names.values()];
  const killed = await leaderOf(processes.metrics, everyone);
  if (!killed) throw new Error('no process reports the audit seal gauge: no sealer leads');
  const victim = [...processes.names].find(([, name]) => name === killed)![0];
  const [{ seq }] = await db.query<{ seq: string }[]>(`SELECT coalesce(max(seq), 0)::text AS seq FROM audit_seals`);
  const holder = async () => (await db.query<{ pid: number }[]>(LOCK_HOLDER, [AUDIT_SEALER_LOCK_KEY]))[0]?.pid ?? null;
  const before = await holder();
  const killedAt = Date.now();
  await victim.kill();
  alive.delete(victim);
  log(`scale-out: killed ${killed} (the sealer's leader, SIGKILL) half way through ${seconds} s of load`);
  let lockAfterMs: number | null = null;
  while (lockAfterMs === null && Date.now() - killedAt < 20_000) {
    const now = await holder();
    if (now !== null && now !== before) lockAfterMs = Date.now() - killedAt;
    else await sleep(20);
  }
  const survivors = everyone.filter((name) => name !== killed);
  let newLeader: string | null = null;
  while (!newLeader && Date.now() - killedAt < 20_000) {
    newLeader = await leaderOf(processes.metrics, survivors);
    if (!newLeader) await sleep(50);
  }
  const leaderAfterMs = newLeader ? Date.now() - killedAt : null;
  await load;
  const [{ first }] = await db.query<{ first: number | null }[]>(
    `SELECT (extract(epoch FROM min(sealed_at)) * 1000)::float8 AS first FROM audit_seals WHERE seq > $1::bigint AND sealed_at >= to_timestamp($2::float8 / 1000)`,
    [seq, killedAt],
  );
  await waitUntilSealed(db, start, 30_000);
  const [window] = await db.query<{ from: string | null; to: string | null }[]>(
    `SELECT (min(id) - 1)::text AS "from", max(id)::text AS "to" FROM audit_events
      WHERE id > $1::bigint AND occurred_at BETWEEN to_timestamp(($2::float8 - 1000) / 1000) AND to_timestamp(($2::float8 + 2000) / 1000)`,
    [start, killedAt],
  );
  const none: InsertToSeal = { events: 0, p50: Number.NaN, p99: Number.NaN, max: Number.NaN };
  return {
    killed,
    newLeader,
    lockAfterMs,
    leaderAfterMs,
    firstSealAfterMs: first === null ? null : first - killedAt,
    phase: await insertToSeal(db, start),
    aroundKill: window.from === null ? none : await insertToSeal(db, window.from, window.to ?? undefined),
    seconds,
    answered,
    failed,
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * What `npm run audit:verify` runs (the `audit-verify` command: chain, unsealed events, signed
 * checkpoints), with this run's checkpoint directory and key; events older than 5 s must be sealed.
 */
async function auditVerify(db: SqlSession, env: Record<string, string>): Promise<{ ok: boolean; lines: string[] }> {
  const config = loadConfig({ ...env, AUDIT_SEAL_GRACE_SECONDS: '5' });
  const store = new DirectoryCheckpointStore(config.audit.checkpointDir);
  const result = await verifyAuditChain(db, { checkpoints: { store, key: loadCheckpointKey(config, { create: false }) }, graceSeconds: config.audit.sealGraceSeconds });
  return { ok: result.ok, lines: describeAuditChain(result) };
}
