import { Cell } from './load';
import { ScaleoutResult } from './scaleout';
import { InsertToSeal } from './seal-lag';
import { ToolLatencyResult } from './tool-latency';

/** docs/benchmarks.md's issue-15 section: two API processes and a worker, the sealer's lag, a killed leader. */

const ms = (value: number | null) => (value !== null && Number.isFinite(value) ? value.toFixed(1) : '–');
const yes = (ok: boolean) => (ok ? 'met' : '**not met**');

export const SEAL_LAG_TARGET_MS = 1000;

export type ScaleoutPart = ScaleoutResult | { skipped: string };

export function scaleoutSection(part: ScaleoutPart | undefined, tools: ToolLatencyResult | undefined): string[] {
  const lines = ['## Scale-out: two API processes and a worker (issue 15)', ''];
  if (!part) return [...lines, 'Skipped (BENCH_SKIP).', ''];
  if ('skipped' in part) return [...lines, `Skipped: ${part.skipped}.`, ''];
  const c = part.concurrency;
  const toolCell = (tool: string): Cell | undefined => tools?.tools.find((measured) => measured.tool === tool)?.cells.vigil.find((cell) => cell.concurrency === c);
  const total = (pick: (entry: ScaleoutResult['tools'][number]) => Cell) => part.tools.reduce((sum, entry) => sum + pick(entry).rps, 0);
  lines.push(
    'Two Vigil API processes (`dist-bench/src/main.js`, as `npm start` runs it, with `QUEUE_WORKERS_IN_API=false` and `MEASURES_WORKERS_IN_API=false`) and one ' +
      'worker process (`dist-bench/src/worker.js`, as `npm run worker`) on the bench database and Redis; every process runs an audit sealer, one leads. ' +
      `Each of the five tools at concurrency ${c} for ${part.seconds} s, first against one API process and then spread evenly over both ` +
      `(${c / 2} connections each), back to back, the same requests. Every process serves its metrics (\`METRICS_PORT\`), which the single Vigil of the tool cells does not. ` +
      'CPU ms/req: the API processes\' CPU time per answer (the worker\'s and Postgres\'s not included).',
    '',
    '| Tool | one API process req/s | two API processes req/s | × | p50 ms (one / two) | p99 ms (one / two) | CPU ms/req (one / two) | errors | tool cells\' Vigil req/s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const { tool, single, combined } of part.tools) {
    const alone = toolCell(tool);
    lines.push(
      `| \`${tool}\` | ${single.rps.toFixed(0)} | ${combined.rps.toFixed(0)} | ${(combined.rps / single.rps).toFixed(2)} | ${ms(single.p50)} / ${ms(combined.p50)} | ` +
        `${ms(single.p99)} / ${ms(combined.p99)} | ${ms(single.cpuMsPerRequest ?? Number.NaN)} / ${ms(combined.cpuMsPerRequest ?? Number.NaN)} | ${single.errors + combined.errors} | ${alone ? alone.rps.toFixed(0) : '–'} |`,
    );
  }
  const single = total((entry) => entry.single);
  const combined = total((entry) => entry.combined);
  lines.push(
    `| all five (sum) | ${single.toFixed(0)} | ${combined.toFixed(0)} | ${(combined / single).toFixed(2)} | | | | | |`,
    '',
    'The last column is the single Vigil process of this run\'s tool cells (queue worker in-process), where those ran. Two API processes share the ' +
      'same cores with Postgres, the worker and the load generator: the ratio says what a second process buys on this machine, not on a bigger one.',
    '',
    `Audit seal lag during these cells (target p99 ≤ ${SEAL_LAG_TARGET_MS} ms):`,
    '',
    '| Seal lag | events / samples | p50 ms | p99 ms | max ms | target |',
    '|---|---:|---:|---:|---:|---|',
    lagRow('insert to seal, every event of the cells (`sealed_at` − `occurred_at`, from the database)', part.sealLag, true),
    `| the leader's \`vigil_audit_seal_lag_seconds\` (oldest unsealed event's age), scraped every 250 ms | ${part.gauge.samples} | ${ms(part.gauge.p50)} | ${ms(part.gauge.p99)} | ${ms(part.gauge.max)} | |`,
    '',
    ...takeoverLines(part),
  );
  return lines;
}

function lagRow(label: string, lag: InsertToSeal, target: boolean): string {
  return `| ${label} | ${lag.events} | ${ms(lag.p50)} | ${ms(lag.p99)} | ${ms(lag.max)} | ${target && Number.isFinite(lag.p99) ? yes(lag.p99 <= SEAL_LAG_TARGET_MS) : ''} |`;
}

function takeoverLines(part: ScaleoutResult): string[] {
  const t = part.takeover;
  const verified = part.verify.ok && part.unsealed === 0;
  return [
    `**A killed sealer.** ${t.seconds} s of load at concurrency ${part.concurrency} over the API processes still alive (a client that cannot connect takes a process out, ` +
      'as a balancer would), cycling the five tools; half way the process that leads the sealer (the one whose metrics report the seal gauge) was killed with SIGKILL: ' +
      `**${t.killed}**. Another backend held the leader's lock ${ms(t.lockAfterMs)} ms after the kill; ` +
      `${t.newLeader ? `**${t.newLeader}** reported leading (its metrics, after a finished pass) ${ms(t.leaderAfterMs)} ms after it` : '**no other process reported leading within 20 s**'}; ` +
      `the first link committed after the kill began ${ms(t.firstSealAfterMs)} ms after it. Requests: ${t.answered} answered, ${t.failed} failed ` +
      '(those in flight on a killed API process, and its refused connections).',
    '',
    '| Seal lag around the kill | events | p50 ms | p99 ms | max ms | target |',
    '|---|---:|---:|---:|---:|---|',
    lagRow('every event of this load', t.phase, false),
    lagRow('events that occurred from 1 s before the kill to 2 s after it', t.aroundKill, false),
    '',
    `**Verified afterwards.** ${part.unsealed === 0 ? 'Every event of the part sealed' : `**${part.unsealed} event(s) of the part still unsealed after 30 s**`}; ` +
      'the verification `npm run audit:verify` runs (the chain, unsealed events and the signed checkpoints, with this run\'s checkpoint directory and key; ' +
      `events older than 5 s required sealed) over the whole trail: ${verified ? 'passed' : '**FAILED**'}.`,
    '',
    '```',
    ...part.verify.lines,
    '```',
    '',
  ];
}
