import 'reflect-metadata';
import { benchLogger, publishReport, ROOT, runBench, withBenchApp } from './harness';
import { randomBytes, randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { patients, staff } from '../fixtures';
import { StaffRole } from '../src/common/roles';
import { fixtureId } from '../src/cohort/fixtures/fixture-rows';
import { bootstrapMedianDifference, mannWhitneyU, seededRandom, shuffle, Summary, summarize } from './stats';

/**
 * Does a patient outside the caller's care teams take measurably longer (or shorter) to refuse than
 * a patient that does not exist? Over real HTTP against the real app on a throwaway, freshly seeded
 * database, interleaving the two kinds of request in random order (plus own-team reads for scale).
 * A benchmark, not a test: it reports, it never fails on a number. See README "Benchmarks".
 */

type Kind = 'foreign' | 'missing' | 'own';
const KINDS: { kind: Kind; label: string; status: number }[] = [
  { kind: 'foreign', label: '(a) foreign patient, exists (404)', status: 404 },
  { kind: 'missing', label: '(b) random UUID, no such patient (404)', status: 404 },
  { kind: 'own', label: '(c) own care team (200, reference)', status: 200 },
];

interface Options {
  requests: number;
  warmup: number;
  seed: number;
  note: string;
}

interface Sample {
  kind: Kind;
  path: string;
}

const RESULTS = join(ROOT, 'bench', 'results', 'access-timing.md');

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const clinician = staff.users.find((user) => user.role === StaffRole.Clinician && user.active !== false && user.careTeams.length === 1);
  if (!clinician) throw new Error('the fixtures have no single-team clinician');
  const onTeam = (teams: string[]) => teams.some((team) => clinician.careTeams.includes(team));
  const foreign = patients.filter((patient) => !onTeam(patient.careTeams)).map((patient) => fixtureId('patient', patient.key));
  const own = patients.filter((patient) => onTeam(patient.careTeams)).map((patient) => fixtureId('patient', patient.key));

  await withBenchApp('bench:access', {}, async (bench) => {
    let connections = 0;
    bench.app.getHttpServer().on('connection', () => (connections += 1));
    const token = await bench.tokenFor(clinician.username);

    const random = seededRandom(options.seed);
    const plan = (count: number): Sample[] =>
      shuffle(
        KINDS.flatMap(({ kind }) =>
          Array.from({ length: count }, (_, i) => ({
            kind,
            path: `/patients/${kind === 'foreign' ? foreign[i % foreign.length] : kind === 'own' ? own[i % own.length] : randomUUID()}/labs`,
          })),
        ),
        random,
      );
    const checks = new ResponseChecks();
    const run = async (samples: Sample[], timings?: Record<Kind, number[]>) => {
      for (const sample of samples) {
        if (bench.interrupted()) throw new Error('interrupted');
        const { ms, status, body, headers } = await timedGet(bench.base + sample.path, token);
        const expected = KINDS.find((entry) => entry.kind === sample.kind)!.status;
        if (status !== expected) throw new Error(`${sample.kind} request answered ${status}, expected ${expected}`);
        if (expected === 404) checks.add(body, headers);
        timings?.[sample.kind].push(ms);
      }
    };
    log(`warm-up: ${options.warmup} of each kind`);
    await run(plan(options.warmup));
    const timings: Record<Kind, number[]> = { foreign: [], missing: [], own: [] };
    log(`measuring: ${options.requests} of each kind, interleaved at random (seed ${options.seed})`);
    await run(plan(options.requests), timings);

    const report = renderReport(options, timings, {
      clinician: `${clinician.username} (${clinician.careTeams.join(', ')})`,
      poolSize: bench.poolSize,
      foreignPatients: foreign.length,
      ownPatients: own.length,
      postgres: bench.postgres,
      connections,
      checks: checks.describe(),
    });
    publishReport('bench:access', RESULTS, report);
  });
}

/** One request, timed from sending to the last byte of the body, on the global keep-alive agent. */
async function timedGet(url: string, token: string): Promise<{ ms: number; status: number; body: string; headers: string }> {
  const start = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = await response.text();
  const ms = performance.now() - start;
  return { ms, status: response.status, body, headers: [...response.headers.keys()].sort().join(',') };
}

/** Confirms every 404 is the same answer (bar the per-request ids), so the timing is the only question left. */
class ResponseChecks {
  private readonly bodies = new Set<string>();
  private readonly lengths = new Set<number>();
  private readonly headerSets = new Set<string>();
  private count = 0;

  add(body: string, headers: string): void {
    const { correlationId: _c, instance: _i, ...rest } = JSON.parse(body) as Record<string, unknown>;
    this.bodies.add(JSON.stringify(rest));
    this.lengths.add(Buffer.byteLength(body));
    this.headerSets.add(headers);
    this.count += 1;
  }

  describe(): string {
    const same = this.bodies.size === 1 && this.lengths.size === 1 && this.headerSets.size === 1;
    return (
      `${this.count} 404 responses (warm-up included): ${this.bodies.size} distinct body (correlationId and instance aside), ` +
      `${this.lengths.size} distinct length, ${this.headerSets.size} distinct set of header names${same ? '' : ' — NOT IDENTICAL'}`
    );
  }
}

interface RunFacts {
  clinician: string;
  poolSize: number;
  foreignPatients: number;
  ownPatients: number;
  postgres: string;
  connections: number;
  checks: string;
}

function renderReport(options: Options, timings: Record<Kind, number[]>, facts: RunFacts): string {
  const summaries = Object.fromEntries(KINDS.map(({ kind }) => [kind, summarize(timings[kind])])) as Record<Kind, Summary>;
  const { foreign, missing, own } = summaries;
  const test = mannWhitneyU(timings.foreign, timings.missing);
  const gap = bootstrapMedianDifference(timings.foreign, timings.missing, seededRandom(options.seed ^ 0x9e3779b9));
  const ms = (value: number) => value.toFixed(2);
  const signed = (value: number, digits = 3) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(digits)}`;
  const p = test.p < 1e-4 ? test.p.toExponential(1) : test.p.toFixed(4);
  const distinguishable = test.p < 0.05;
  const args = process.argv.slice(2).join(' ');
  return [
    '# Access timing: a foreign patient vs a patient that does not exist',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Command: \`npm run bench:access${args ? ` -- ${args}` : ''}\``,
    `- Machine: ${options.note} (${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${facts.postgres})`,
    `- Setup: a throwaway database migrated and seeded with the fixture cohort; the real app (silent logger, pool of ${facts.poolSize}) ` +
      `on a free port; \`GET /patients/:id/labs\` as ${facts.clinician}, one request at a time over keep-alive ` +
      `(${facts.connections} connection(s) opened), ${options.warmup} warm-up requests of each kind discarded, then ` +
      `${options.requests} of each kind in one shuffled sequence (seed ${options.seed}). (a) cycles through the ` +
      `${facts.foreignPatients} fixture patients outside the clinician's teams, (b) is a fresh random UUID each time, ` +
      `(c) cycles through the ${facts.ownPatients} patients on the clinician's team. Every request, 404s included, appends an audit event.`,
    '',
    '| Requests | n | median ms | p90 ms | p99 ms | mean ms |',
    '|---|---:|---:|---:|---:|---:|',
    ...KINDS.map(({ kind, label }) => {
      const s = summaries[kind];
      return `| ${label} | ${s.count} | ${ms(s.median)} | ${ms(s.p90)} | ${ms(s.p99)} | ${ms(s.mean)} |`;
    }),
    '',
    '| Ratio | median | p90 |',
    '|---|---:|---:|',
    `| (a) foreign / (b) missing | ${(foreign.median / missing.median).toFixed(3)} | ${(foreign.p90 / missing.p90).toFixed(3)} |`,
    '',
    `- Mann–Whitney U, (a) vs (b), two-sided: U = ${test.u.toFixed(0)}, z = ${test.z.toFixed(2)}, p = ${p}; ` +
      `P(a foreign request is slower than a missing one) = ${test.superiority.toFixed(3)} (0.5 = no difference).`,
    `- Median gap (a) − (b), percentile bootstrap (2000 resamples), 95% CI: ${signed(gap.estimate)} ms ` +
      `[${signed(gap.low)}, ${signed(gap.high)}], ${signed((100 * gap.estimate) / missing.median, 1)}% of the (b) median. ` +
      `For scale, an own-team 200 takes ${ms(own.median - missing.median)} ms longer than a 404 at the median.`,
    `- Verdict: ${
      distinguishable
        ? `distinguishable at α = 0.05 on this run; judge the size of the gap above against the run-to-run noise before calling it a leak.`
        : `not distinguishable at α = 0.05: the two kinds of 404 take the same time within this run's noise.`
    }`,
    `- Same answer: ${facts.checks}.`,
    '',
  ].join('\n');
}

function parseOptions(args: string[]): Options {
  const options: Options = {
    requests: 2000,
    warmup: 200,
    seed: randomBytes(4).readUInt32BE(0),
    note: `${cpus().length} cores, shared, noisy: compare ratios only`,
  };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (flag === '--note' && value) options.note = value;
    else if (['--requests', '--warmup', '--seed'].includes(flag) && /^\d+$/.test(value ?? '')) {
      options[flag.slice(2) as 'requests' | 'warmup' | 'seed'] = Number(value);
    } else {
      throw new Error(`usage: npm run bench:access -- [--requests N (each kind, default 2000)] [--warmup N] [--seed N] [--note TEXT]; got "${flag}"`);
    }
  }
  if (options.requests < 20) throw new Error('--requests must be at least 20');
  return options;
}

const log = benchLogger('bench:access');

runBench('bench:access', main);
