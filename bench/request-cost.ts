import 'reflect-metadata';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateDevKey } from '../src/auth/dev-signing-key';
import { mintDevToken } from '../src/auth/token.service';
import { StaffRole } from '../src/common/roles';
import { loadConfig } from '../src/config/load-config';
import { activeUsers, patientIdOf, patients, sharesTeam } from '../test/setup/cohort';
import { benchLogger, publishReport, ROOT, runBench, withBenchDatabase } from './harness';
import { httpLoad, HttpRequestSpec } from './load';
import { cycle } from './patient-sample';
import { benchVigilEnv, startSealerLeader, cpuMilliseconds, mainThreadCpuMilliseconds, ServerProcess, startServer, stopChildrenOnSignals } from './servers';
import { quantile } from './stats';
import { vigilPath } from './tool-reads';
import { Lever, leverCells, LEVERS, withAndWithout } from './levers';
import { ToolName } from '../src/tools/tool-names';

/**
 * Where a tool request's CPU goes (issue 15: Vigil spends several times the node:http floor's CPU
 * per request). Kinds of request, each answered by a server process of its own measuring, in
 * turn, at each concurrency: what any Vigil request costs before it does anything (`GET /health`:
 * HTTP, the edges, the rate limit, Nest and Fastify), what a refused tool request adds (the guard and
 * the refusal's audit write), a whole tool request (`patient_labs` unless BENCH_TOOL), the same on one
 * more Vigil process per lever (`levers.ts`), and the floors' same read, bare and with the audit
 * write (the targets' reference). CPU per request is
 * the server's main thread (the event loop) and the whole process (with V8's GC and compiler
 * threads). On the fixture cohort, in a throwaway database: the 100k cohort changes the reads'
 * Postgres time, not the service's CPU. A diagnostic, not a target: it reports, it never fails.
 */

const RESULTS = join(ROOT, 'bench', 'results', 'request-cost.md');
const SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,16').split(',').map(Number);
/** The tool measured (BENCH_TOOL, default `patient_labs`). */
const TOOL = (process.env.BENCH_TOOL ?? 'patient_labs') as ToolName;
/** BENCH_KINDS=tool,floorAudit: only these kinds (and only their servers: a profile of one kind of request); default all. */
const ONLY = process.env.BENCH_KINDS ? new Set(process.env.BENCH_KINDS.split(',')) : null;
/** BENCH_VIGIL_CPU_PROFILE=<directory>: V8 CPU profiles of the Vigil processes and the floor + audit's, the reference to read them against (`bench/cpu-profile.ts`); it slows them, so not for a measured run. */
const PROFILE: Record<string, string> = process.env.BENCH_VIGIL_CPU_PROFILE ? { NODE_OPTIONS: `--require ${join(ROOT, 'dist-bench', 'bench', 'cpu-profile.js')}` } : {};

type Server = 'vigil' | Lever['target'] | 'floor' | 'floorAudit';
/** `health:<lever>`: `GET /health` on a lever's process, for a lever that acts on every request. */
type Kind = 'health' | 'refused' | 'tool' | Lever['target'] | `health:${Lever['target']}` | 'floor' | 'floorAudit';
const EVERY_REQUEST_LEVERS = LEVERS.filter((lever) => lever.everyRequest);
const ALL_KINDS: { kind: Kind; label: string; server: Server; status: 'ok' | 'refused' }[] = [
  { kind: 'health', label: 'Vigil `GET /health` (HTTP, edges, rate limit, Nest; no token, no database)', server: 'vigil', status: 'ok' },
  { kind: 'refused', label: `Vigil \`${TOOL}\` without a token (+ the guard and the 401’s audit write)`, server: 'vigil', status: 'refused' },
  { kind: 'tool', label: `Vigil \`${TOOL}\` (the whole request)`, server: 'vigil', status: 'ok' },
  ...LEVERS.map((lever) => ({ kind: lever.target, label: `${lever.label}: \`${TOOL}\``, server: lever.target, status: 'ok' as const })),
  ...EVERY_REQUEST_LEVERS.map((lever) => ({ kind: `health:${lever.target}` as const, label: `${lever.label}: \`GET /health\``, server: lever.target, status: 'ok' as const })),
  { kind: 'floor', label: 'Floor: node:http + pg, the same read', server: 'floor', status: 'ok' },
  { kind: 'floorAudit', label: 'Floor: node:http + pg + audit (the targets’ reference), the same read', server: 'floorAudit', status: 'ok' },
];
const KINDS = ALL_KINDS.filter(({ kind }) => !ONLY || ONLY.has(kind));

interface Cell {
  answers: number;
  rps: number;
  p50: number;
  mainMs: number;
  processMs: number;
}

async function main(): Promise<void> {
  const log = benchLogger('bench:request-cost');
  const servers: ServerProcess[] = [];
  stopChildrenOnSignals(() => log('interrupted'));
  await withBenchDatabase('bench:request-cost', async (database, interrupted) => {
    try {
      const env = benchVigilEnv({ databaseUrl: database.url, redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', keyDir: database.keyDir, poolSize: 10 });
      const config = loadConfig(env);
      const key = loadOrCreateDevKey(config.auth.devKeyFile);
      const pairs = patients.flatMap((patient) =>
        activeUsers.filter((user) => user.role === StaffRole.Clinician && sharesTeam(user, patient)).slice(0, 1).map((user) => ({ patientId: patientIdOf(patient), username: user.username })),
      );
      const tokens = new Map<string, string>();
      for (const { username } of pairs) tokens.set(username, await mintDevToken(key, username, { issuer: config.auth.issuer, audience: config.auth.audience, ttlSeconds: 24 * 3600 }));
      log(`starting Vigil (and one more per lever: ${LEVERS.map((lever) => lever.target).join(', ')}) and the node:http floors`);
      const vigilScript = join(ROOT, 'dist-bench', 'src', 'main.js');
      const floorScript = join(ROOT, 'dist-bench', 'bench', 'floor-server.js');
      const serverOf = {} as Record<Server, ServerProcess>;
      const needed = new Set(KINDS.map(({ server }) => server));
      const start = async (server: Server, name: string, script: string, serverEnv: Record<string, string>, readyPath: string) => {
        if (!needed.has(server)) return;
        serverOf[server] = await startServer({ name, script, env: serverEnv, readyPath });
        servers.push(serverOf[server]);
      };
      // The audit sealer leads in one process of the database's Vigils and chains every process's events (and the floor's):
      // started first, this unmeasured one leads, and the measured ones stand by alike, none paying for the others' events.
      servers.push(await startSealerLeader(vigilScript, env));
      await start('vigil', 'vigil', vigilScript, { ...env, ...PROFILE }, '/health/ready');
      for (const lever of LEVERS) await start(lever.target, `vigil ${lever.target}`, vigilScript, { ...env, ...lever.env }, '/health/ready');
      await start('floor', 'floor', floorScript, { DATABASE_URL: database.url }, '/health');
      await start('floorAudit', 'floor+audit', floorScript, { DATABASE_URL: database.url, FLOOR_AUDIT: '1', ...PROFILE }, '/health');

      const sequence = cycle(pairs);
      const withToken = (): HttpRequestSpec => {
        const { patientId, username } = sequence.next();
        return { method: 'GET', path: vigilPath(TOOL, patientId), headers: { authorization: `Bearer ${tokens.get(username)}` } };
      };
      const floorRequest = (): HttpRequestSpec => {
        const { patientId, username } = sequence.next();
        return { method: 'GET', path: vigilPath(TOOL, patientId), headers: { 'x-bench-user': username } };
      };
      const health = (): HttpRequestSpec => ({ method: 'GET', path: '/health', headers: {} });
      const specs: Record<Kind, () => HttpRequestSpec> = {
        health,
        ...(Object.fromEntries(LEVERS.map((lever) => [`health:${lever.target}`, health])) as Record<`health:${Lever['target']}`, () => HttpRequestSpec>),
        refused: () => ({ method: 'GET', path: vigilPath(TOOL, sequence.next().patientId), headers: {} }),
        tool: withToken,
        ...(Object.fromEntries(LEVERS.map((lever) => [lever.target, withToken])) as Record<Lever['target'], () => HttpRequestSpec>),
        floor: floorRequest,
        floorAudit: floorRequest,
      };
      const cells = new Map<string, Cell[]>();
      for (const concurrency of CONCURRENCY) {
        for (const { kind, server } of KINDS) await httpLoad(serverOf[server].base, specs[kind], concurrency, 2);
        for (let round = 0; round < ROUNDS; round += 1) {
          for (const { kind, server, status } of KINDS) {
            if (interrupted()) throw new Error('interrupted');
            const target = serverOf[server];
            const main = mainThreadCpuMilliseconds(target.pid);
            const all = cpuMilliseconds(target.pid);
            const cell = await httpLoad(target.base, specs[kind], concurrency, SECONDS);
            // A refusal is a non-2xx answer, which the load counts apart; every answer of a kind must be of its kind.
            const answers = status === 'ok' ? cell.requests : cell.errors;
            if ((status === 'ok' ? cell.errors : cell.requests) > 0) throw new Error(`${kind}: answers of the wrong kind`);
            const key = `${kind}@${concurrency}`;
            cells.set(key, [
              ...(cells.get(key) ?? []),
              {
                answers,
                rps: answers / SECONDS,
                p50: cell.p50,
                mainMs: (mainThreadCpuMilliseconds(target.pid) - main) / answers,
                processMs: (cpuMilliseconds(target.pid) - all) / answers,
              },
            ]);
          }
        }
        log(`concurrency ${concurrency} done`);
      }
      publishReport('bench:request-cost', RESULTS, render(cells, database.postgres));
    } finally {
      for (const server of servers.splice(0)) await server.stop();
    }
  });
}

function median(values: number[]): number {
  return quantile([...values].sort((a, b) => a - b), 0.5);
}

function render(cells: Map<string, Cell[]>, postgres: string): string {
  const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
  const of = (kind: Kind, concurrency: number, field: keyof Cell) => median((cells.get(`${kind}@${concurrency}`) ?? []).map((cell) => cell[field]));
  const lines = [
    '# Request cost: where a tool request’s CPU goes',
    '',
    `- Date: ${new Date().toISOString()}`,
    '- Command: `npm run bench:request-cost`',
    `- Machine: ${cpus().length} cores, shared, noisy (${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, ${postgres})`,
    `- Setup: a throwaway database with the fixture cohort; Vigil (\`dist-bench/src/main.js\`, pool of 10; one more process per lever, the same build with one setting changed: ${LEVERS.map((lever) => `\`${Object.entries(lever.env).map(([name, value]) => `${name}=${value}`).join(' ')}\``).join(', ')}) and the node:http + pg floor (\`bench/floor-server.ts\`, bare and with \`FLOOR_AUDIT=1\`) as processes of their own; autocannon, keep-alive connections, closed loop. Each kind ${ROUNDS} × ${SECONDS} s per concurrency, the kinds in turn, after 2 s of warm-up each; medians of the rounds. Tool: \`${TOOL}\`.`,
    '- CPU ms per answer: the server’s main thread (the event loop: everything JavaScript does) and the whole process (with V8’s GC and compiler threads). Postgres’s and Redis’s CPU are not in either.',
    '',
    '| Kind | c | answers/s | p50 ms | main thread CPU ms | process CPU ms |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const concurrency of CONCURRENCY) {
    for (const { kind, label, status } of KINDS) {
      const p50 = status === 'ok' ? fixed(of(kind, concurrency, 'p50')) : '—';
      lines.push(`| ${label} | ${concurrency} | ${fixed(of(kind, concurrency, 'rps'), 0)} | ${p50} | ${fixed(of(kind, concurrency, 'mainMs'), 3)} | ${fixed(of(kind, concurrency, 'processMs'), 3)} |`);
    }
  }
  lines.push(
    '',
    `Read down a concurrency: \`GET /health\` is what every Vigil request pays before its own work; a refused tool request adds the guard and one audit write; \`${TOOL}\` minus \`/health\` is the tool request’s own work (identity, access probe, the read, projection, the audit event, the envelope); the floors make the same reads with nothing around them (+ the audit write). Each lever is a second Vigil process with one setting changed (\`bench/levers.ts\`), answering the same requests.`,
  );
  const has = (kind: Kind) => KINDS.some((each) => each.kind === kind);
  for (const concurrency of CONCURRENCY) {
    const main = (kind: Kind) => of(kind, concurrency, 'mainMs');
    const rps = (kind: Kind) => of(kind, concurrency, 'rps');
    const tool = main('tool');
    const parts = [`At c=${concurrency}, main thread: \`${TOOL}\` ${fixed(tool, 3)} ms`];
    if (has('health')) parts.push(` = \`/health\` ${fixed(main('health'), 3)} ms (${fixed((100 * main('health')) / tool, 0)} %) + the request’s own work ${fixed(tool - main('health'), 3)} ms`);
    if (has('floor')) parts.push(`; Vigil ÷ bare floor ${fixed(tool / main('floor'))}×`);
    if (has('floorAudit')) parts.push(`; Vigil ÷ floor + audit ${fixed(tool / main('floorAudit'))}× main-thread CPU, ${fixed(of('tool', concurrency, 'processMs') / of('floorAudit', concurrency, 'processMs'))}× process CPU, ${fixed(rps('tool') / rps('floorAudit'))}× answers/s`);
    lines.push('', `${parts.join('')}.`);
    for (const lever of LEVERS.filter((each) => has(each.target))) {
      const { on, off } = withAndWithout(lever, { vigil: 'tool' as Kind, ...leverCells(() => lever.target) });
      lines.push(`- ${lever.name}, with ÷ without: ${fixed(main(on) / main(off))}× main-thread CPU, ${fixed(of(on, concurrency, 'processMs') / of(off, concurrency, 'processMs'))}× process CPU, ${fixed(rps(on) / rps(off))}× answers/s.`);
    }
    for (const lever of EVERY_REQUEST_LEVERS.filter((each) => has(`health:${each.target}`) && has('health'))) {
      const second = `health:${lever.target}` as Kind;
      const { on, off } = withAndWithout(lever, { vigil: 'health' as Kind, ...leverCells(() => second) });
      lines.push(`- ${lever.name} on \`GET /health\`, with ÷ without: ${fixed(main(on) / main(off))}× main-thread CPU, ${fixed(of(on, concurrency, 'processMs') / of(off, concurrency, 'processMs'))}× process CPU, ${fixed(rps(on) / rps(off))}× answers/s.`);
    }
  }
  return `${lines.join('\n')}\n`;
}

runBench('bench:request-cost', main);
