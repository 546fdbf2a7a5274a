import 'reflect-metadata';
import { benchLogger, publishReport, ROOT, runBench, withBenchApp } from './harness';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { StaffRole } from '../src/common/roles';
import { patientIdOf, userFor } from '../test/setup/cohort';
import { FakeModel } from '../test/setup/fake-model';
import { AGENT_PATIENT as PATIENT, AGENT_TOOLS as TOOLS, checkTurn, timedTurn, turnScript } from './agent-turn';
import { summarize } from './stats';

/**
 * The server's own cost of an agent turn: everything but the model. Over real HTTP against the real
 * app on a throwaway, freshly seeded database, with the tests' scripted model answering instantly.
 * Each turn is three tool calls in one model reply, then a grounded final answer (two model calls).
 * Overhead = the turn's wall time at the client − the time spent inside the model's handler, so the
 * openai client, the loop, the tools, their audit writes, the turn record and grounding all count as the server's.
 * A benchmark, not a test: it reports, it never fails on a number. See README "Benchmarks".
 */

const RESULTS = join(ROOT, 'bench', 'results', 'agent-overhead.md');

interface Options {
  turns: number;
  warmup: number;
  note: string;
}

interface Sample {
  turnMs: number;
  modelMs: number;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const clinician = userFor(StaffRole.Clinician, PATIENT);
  const model = new FakeModel();
  await model.start();
  try {
    await withBenchApp('bench:agent', { AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted', AGENT_MAX_TURNS_PER_HOUR: '10000' }, async (bench) => {
      const url = `${bench.base}/patients/${patientIdOf(PATIENT)}/agent/turns`;
      const token = await bench.tokenFor(clinician.username);
      const run = async (count: number, samples?: Sample[]) => {
        for (let i = 0; i < count; i += 1) {
          if (bench.interrupted()) throw new Error('interrupted');
          model.script(turnScript());
          const busyBefore = model.busyMs;
          const { ms, body } = await timedTurn(url, token);
          checkTurn(body);
          samples?.push({ turnMs: ms, modelMs: model.busyMs - busyBefore });
        }
      };
      log(`warm-up: ${options.warmup} turns`);
      await run(options.warmup);
      const samples: Sample[] = [];
      log(`measuring: ${options.turns} turns, one at a time`);
      await run(options.turns, samples);
      publishReport('bench:agent', RESULTS, renderReport(options, samples, { clinician: clinician.username, poolSize: bench.poolSize, postgres: bench.postgres }));
    });
  } finally {
    await model.stop().catch(() => undefined);
  }
}

function renderReport(options: Options, samples: Sample[], facts: { clinician: string; poolSize: number; postgres: string }): string {
  const rows: [string, number[]][] = [
    ['Server overhead (turn − model)', samples.map((s) => s.turnMs - s.modelMs)],
    ['Turn at the client', samples.map((s) => s.turnMs)],
    ['Inside the model handler (2 calls)', samples.map((s) => s.modelMs)],
  ];
  const ms = (value: number) => value.toFixed(2);
  const args = process.argv.slice(2).join(' ');
  return [
    '# Agent overhead: the server\'s share of a three-tool turn',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Command: \`npm run bench:agent${args ? ` -- ${args}` : ''}\``,
    `- Machine: ${options.note} (${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${facts.postgres})`,
    `- Setup: a throwaway database migrated and seeded with the fixture cohort; the real app (silent logger, pool of ${facts.poolSize}) ` +
      `on a free port; the tests' scripted OpenAI-compatible model (test/setup/fake-model.ts) answering at once over local HTTP. ` +
      `Each turn, as ${facts.clinician} about \`${PATIENT}\`: one model reply calling ${TOOLS.join(', ')}, then a final answer ` +
      `with one statement citing a lab row (grounded). ${options.warmup} warm-up turns discarded, then ${options.turns} measured, one at a time.`,
    '- Overhead = wall time at the HTTP client − time inside the model\'s request handler; it includes the openai client, ' +
      'the loop, the three tools with their audit writes, the turn record (one turn row, the three tool-call rows in one statement, the final update), ' +
      'grounding, and both HTTP hops.',
    '',
    '| Per turn | n | median ms | p90 ms | p99 ms | mean ms |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(([label, values]) => {
      const s = summarize(values);
      return `| ${label} | ${s.count} | ${ms(s.median)} | ${ms(s.p90)} | ${ms(s.p99)} | ${ms(s.mean)} |`;
    }),
    '',
  ].join('\n');
}

function parseOptions(args: string[]): Options {
  const options: Options = { turns: 200, warmup: 20, note: `${cpus().length} cores, shared, noisy` };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (flag === '--note' && value) options.note = value;
    else if (['--turns', '--warmup'].includes(flag) && /^\d+$/.test(value ?? '')) options[flag.slice(2) as 'turns' | 'warmup'] = Number(value);
    else throw new Error(`usage: npm run bench:agent -- [--turns N (default 200)] [--warmup N (default 20)] [--note TEXT]; got "${flag}"`);
  }
  if (options.turns < 10) throw new Error('--turns must be at least 10');
  return options;
}

const log = benchLogger('bench:agent');

runBench('bench:agent', main);
