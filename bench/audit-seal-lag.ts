import 'reflect-metadata';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { patients, staff } from '../fixtures';
import { AuditSealer, AuditSealLag, verifyAuditChain } from '../src/audit';
import { StaffRole } from '../src/common/roles';
import { fixtureId } from '../src/cohort/fixtures/fixture-rows';
import { benchLogger, BenchApp, publishReport, ROOT, runBench, withBenchApp } from './harness';
import { insertToSeal, lastEventId, waitUntilSealed } from './seal-lag';
import { summarize } from './stats';

const RESULTS = join(ROOT, 'bench', 'results', 'audit-seal-lag.md');
const log = benchLogger('bench:seal');

interface Options {
  concurrency: number;
  seconds: number;
  note?: string;
}

interface Run {
  sealer: boolean;
  requests: number;
  failures: number;
  seconds: number;
  latencyMs: { p50: number; p99: number };
  /** Sealed − occurred for every event of the run, from the database (the seal transaction's start time). */
  insertToSealMs?: { p50: number; p99: number; max: number };
  /** The sealer's own view at the end (its last 4096 events, seal commit − occurred). */
  sealerLag?: AuditSealLag;
  /** Samples of the oldest-unsealed age every 100 ms during the load. */
  backlogMs?: { p99: number; max: number };
  verified?: string;
}

/**
 * Issue 15's lag target: PHI reads at concurrency 16 (`GET /patients/:id/labs` as a clinician, over
 * keep-alive HTTP), the real app with its sealer running, then the insert-to-seal time of every
 * audit event of the run. A second run with the sealer off gives the throughput it costs.
 */
async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const runs: Run[] = [];
  for (const sealer of [false, true]) {
    runs.push(await withBenchApp('bench:seal', { AUDIT_SEALER_ENABLED: String(sealer) }, (bench) => measure(bench, sealer, options)));
  }
  publishReport('bench:seal', RESULTS, render(options, runs));
}

async function measure(bench: BenchApp, sealerOn: boolean, options: Options): Promise<Run> {
  const clinician = staff.users.find((user) => user.role === StaffRole.Clinician && user.active !== false)!;
  const own = patients.filter((patient) => patient.careTeams.some((team) => clinician.careTeams.includes(team))).map((patient) => fixtureId('patient', patient.key));
  const token = await bench.tokenFor(clinician.username);
  const dataSource = bench.app.get(DataSource);
  const sealer = bench.app.get(AuditSealer);
  const start = await lastEventId(dataSource);
  log(`${sealerOn ? 'sealer on' : 'sealer off'}: ${options.concurrency} concurrent clients for ${options.seconds} s`);
  const latencies: number[] = [];
  const backlog: number[] = [];
  let failures = 0;
  const until = performance.now() + options.seconds * 1000;
  const sampler = setInterval(() => backlog.push(sealer.lag().oldestUnsealedAgeMs), 100);
  await Promise.all(
    Array.from({ length: options.concurrency }, async (_, client) => {
      for (let index = client; performance.now() < until && !bench.interrupted(); index += options.concurrency) {
        const started = performance.now();
        const res = await fetch(`${bench.base}/patients/${own[index % own.length]}/labs`, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        if (res.status !== 200) failures += 1;
        latencies.push(performance.now() - started);
      }
    }),
  );
  clearInterval(sampler);
  const latency = summarize(latencies);
  const run: Run = { sealer: sealerOn, requests: latencies.length, failures, seconds: options.seconds, latencyMs: { p50: latency.median, p99: latency.p99 } };
  if (!sealerOn) return run;
  // Let the sealer finish the tail, then read every event's lag from the database.
  await waitUntilSealed(dataSource, start);
  const lags = await insertToSeal(dataSource, start);
  const sortedBacklog = [...backlog].sort((a, b) => a - b);
  const verification = await verifyAuditChain(dataSource, { graceSeconds: 1 });
  return {
    ...run,
    insertToSealMs: { p50: lags.p50, p99: lags.p99, max: lags.max },
    sealerLag: sealer.lag(),
    backlogMs: { p99: sortedBacklog[Math.ceil(0.99 * sortedBacklog.length) - 1] ?? 0, max: sortedBacklog[sortedBacklog.length - 1] ?? 0 },
    verified: `${verification.ok ? 'ok' : 'FAILED'}: ${verification.count} link(s)`,
  };
}

function render(options: Options, runs: Run[]): string {
  const ms = (value: number) => value.toFixed(1);
  const [off, on] = runs;
  const rate = (run: Run) => run.requests / run.seconds;
  const lines = [
    '# Audit seal lag under load (`npm run bench:seal`)',
    '',
    `${new Date().toISOString().slice(0, 10)}, ${cpus().length} CPU(s)${options.note ? `, ${options.note}` : ''}. ${options.concurrency} concurrent clients, ` +
      `${options.seconds} s per run, \`GET /patients/:id/labs\` as a clinician over keep-alive HTTP on a throwaway fixture database (each request: one audit event). ` +
      'Postgres, the app and the clients share the machine.',
    '',
    '| Run | requests | req/s | failures | p50 ms | p99 ms |',
    '|---|---|---|---|---|---|',
    ...runs.map((run) => `| sealer ${run.sealer ? 'on' : 'off'} | ${run.requests} | ${rate(run).toFixed(0)} | ${run.failures} | ${ms(run.latencyMs.p50)} | ${ms(run.latencyMs.p99)} |`),
    '',
    `Throughput with the sealer on: ${((rate(on) / rate(off)) * 100).toFixed(0)} % of the run without it (one run each: on a shared machine, compare several).`,
    '',
    '| Insert to seal, every event of the run (sealed_at − occurred_at) | p50 ms | p99 ms | max ms |',
    '|---|---|---|---|',
    `| from the database | ${ms(on.insertToSealMs!.p50)} | ${ms(on.insertToSealMs!.p99)} | ${ms(on.insertToSealMs!.max)} |`,
    `| the sealer's own window (last ${on.sealerLag!.insertToSeal.count} events, to the seal's commit) | ${ms(on.sealerLag!.insertToSeal.p50Ms)} | ${ms(on.sealerLag!.insertToSeal.p99Ms)} | ${ms(on.sealerLag!.insertToSeal.maxMs)} |`,
    '',
    `Oldest unsealed event's age, sampled every 100 ms during the load: p99 ${ms(on.backlogMs!.p99)} ms, max ${ms(on.backlogMs!.max)} ms. ` +
      `Chain after the run: ${on.verified}. Target (issue 15): insert-to-seal p99 ≤ 1000 ms at concurrency 16. ` +
      'The sealer polls every `AUDIT_SEAL_INTERVAL_MS` (200 ms), so the floor of the lag is about half that on average.',
    '',
  ];
  return lines.join('\n');
}

function parseOptions(args: string[]): Options {
  const value = (name: string) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 ? args[index + 1] : undefined;
  };
  return { concurrency: Number(value('concurrency') ?? 16), seconds: Number(value('seconds') ?? 20), note: value('note') };
}

runBench('bench:seal', main);
