import { FRAMEWORK_LABELS, FRAMEWORK_TARGETS, FrameworkResult } from './framework-cost';
import { Cell } from './load';
import { leverCells, LEVERS, withAndWithout } from './levers';
import { ToolLatencyResult } from './tool-latency';

/**
 * The targets against the floor plus the work the brief requires (`Floor: node:http + pg + audit`),
 * and what the framework costs on its own. Ratios within the run only.
 */

export const FLOOR_TARGETS = {
  /** Vigil's req/s at the highest concurrency ÷ the audited floor's: at least. */
  rpsShare: 0.8,
  /** Vigil's p50 at concurrency 1 ÷ the audited floor's: at most. */
  serialP50: 1.5,
  /** Vigil's CPU per answered request at the highest concurrency ÷ the audited floor's: at most. */
  cpuPerRequest: 1.6,
  /** Vigil's req/s at the highest concurrency ÷ PostGraphile's: at least. */
  overPostGraphile: 1.2,
};

const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '–');
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '–');
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');

export function floorTargetSections(tools: ToolLatencyResult | undefined, framework: FrameworkResult | undefined, concurrency: number[]): string[] {
  const top = Math.max(...concurrency);
  const low = Math.min(...concurrency);
  const lines: string[] = [];
  if (tools) {
    const at = (cells: Cell[], c: number) => cells.find((cell) => cell.concurrency === c) as Cell;
    lines.push(
      '## Targets against the floor plus the required work',
      '',
      'The reference is **Floor: node:http + pg + audit**: the same reads as Vigil through `pg` behind bare `node:http`, and the audit event every read ' +
        'must leave, written durably before the answer and fail closed (see "What is compared"). The bare floor stays beside it as the physical limit.',
      '',
      `| Tool | req/s at c=${top} ÷ floor + audit (≥ ${FLOOR_TARGETS.rpsShare}) | p50 at c=${low} ÷ floor + audit (≤ ${FLOOR_TARGETS.serialP50}) | ` +
        `CPU/req at c=${top} ÷ floor + audit (≤ ${FLOOR_TARGETS.cpuPerRequest}) | req/s at c=${top} ÷ PostGraphile (≥ ${FLOOR_TARGETS.overPostGraphile})¹ |`,
      '|---|---|---|---|---|',
    );
    for (const { tool, cells } of tools.tools) {
      const rps = at(cells.vigil, top).rps / at(cells.floorAuditHttp, top).rps;
      const p50 = at(cells.vigil, low).p50 / at(cells.floorAuditHttp, low).p50;
      const cpu = (at(cells.vigil, top).cpuMsPerRequest ?? Number.NaN) / (at(cells.floorAuditHttp, top).cpuMsPerRequest ?? Number.NaN);
      const peer = at(cells.vigil, top).rps / at(cells.peer, top).rps;
      lines.push(
        `| \`${tool}\` | ${ratio(rps)}: ${verdict(rps >= FLOOR_TARGETS.rpsShare)} | ${ratio(p50)}: ${verdict(p50 <= FLOOR_TARGETS.serialP50)} | ` +
          `${ratio(cpu)}: ${verdict(cpu <= FLOOR_TARGETS.cpuPerRequest)} | ${ratio(peer)}: ${verdict(peer >= FLOOR_TARGETS.overPostGraphile)} |`,
      );
    }
    lines.push(
      '',
      '¹ PostGraphile here does no authentication, no care-team check, no projection and no audit write; Vigil does all four on every request.',
      '',
      '| Tool | c | Vigil p50 ms | floor + audit p50 ms | bare floor p50 ms | Vigil req/s | floor + audit req/s | bare floor req/s | Vigil CPU ms/req | floor + audit CPU ms/req | bare floor CPU ms/req |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const { tool, cells } of tools.tools) {
      for (const c of concurrency) {
        const [v, a, f] = [at(cells.vigil, c), at(cells.floorAuditHttp, c), at(cells.floorHttp, c)];
        lines.push(
          `| \`${tool}\` | ${c} | ${ms(v.p50)} | ${ms(a.p50)} | ${ms(f.p50)} | ${v.rps.toFixed(0)} | ${a.rps.toFixed(0)} | ${f.rps.toFixed(0)} | ` +
            `${ms(v.cpuMsPerRequest ?? Number.NaN)} | ${ms(a.cpuMsPerRequest ?? Number.NaN)} | ${ms(f.cpuMsPerRequest ?? Number.NaN)} |`,
        );
      }
    }
    lines.push('');
  }
  if (tools) lines.push(...leverSection(tools, concurrency));
  if (framework) lines.push(...frameworkSection(framework, concurrency));
  if (tools && framework) lines.push(...frameworkShare(tools, framework, top));
  return lines;
}

/**
 * How much of Vigil's CPU above the floor + audit the framework explains: the tool-shaped route's CPU
 * minus bare node:http's (what Nest + Fastify's parts a tool route uses cost per request), beside each
 * tool's Vigil − floor + audit CPU at the top concurrency.
 */
function frameworkShare(tools: ToolLatencyResult, framework: FrameworkResult, top: number): string[] {
  const cpuOf = (cells: Cell[] | undefined) => cells?.find((cell) => cell.concurrency === top)?.cpuMsPerRequest ?? Number.NaN;
  const route = cpuOf(framework.cells.nestFastifyRoute) - cpuOf(framework.cells.nodeHttp);
  if (!Number.isFinite(route)) return [];
  const lines = [
    `What the framework explains, at c=${top}: its parts a tool route uses cost ${route.toFixed(3)} ms of CPU per request (the tool-shaped route − node:http's nothing). ` +
      'Vigil − floor + audit, per tool, and the framework’s share of it (the rest is Vigil’s own work and the libraries it calls: ' +
      'identity, access probe, transactions through TypeORM, projection, the envelope, the derived tools’ evaluation):',
    '',
    '| Tool | Vigil − floor + audit CPU ms/req | framework’s parts CPU ms/req | framework’s share |',
    '|---|---:|---:|---:|',
  ];
  for (const { tool, cells } of tools.tools) {
    const extra = cpuOf(cells.vigil) - cpuOf(cells.floorAuditHttp);
    lines.push(`| \`${tool}\` | ${extra.toFixed(3)} | ${route.toFixed(3)} | ${Number.isFinite(route / extra) ? `${Math.round((100 * route) / extra)} %` : '–'} |`);
  }
  lines.push('');
  return lines;
}

function frameworkSection(framework: FrameworkResult, concurrency: number[]): string[] {
  const lines = [
    '## The framework’s own cost',
    '',
    'A request that does nothing, in the same run: how much of a Vigil request is the framework before any of Vigil’s work. ' +
      'CPU ms/req is the server process’s CPU per answer.',
    '',
    '| Target | c | p50 ms | req/s | CPU ms/req | CPU ÷ node:http |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const c of concurrency) {
    const base = framework.cells.nodeHttp?.find((cell) => cell.concurrency === c)?.cpuMsPerRequest ?? Number.NaN;
    for (const target of FRAMEWORK_TARGETS) {
      const cell = framework.cells[target]?.find((each) => each.concurrency === c);
      if (!cell) continue;
      const cpu = cell.cpuMsPerRequest ?? Number.NaN;
      lines.push(`| ${FRAMEWORK_LABELS[target]} | ${c} | ${ms(cell.p50)} | ${cell.rps.toFixed(0)} | ${cpu.toFixed(3)} | ${ratio(cpu / base)} |`);
    }
  }
  for (const [target, why] of Object.entries(framework.skipped)) lines.push('', `${FRAMEWORK_LABELS[target as keyof typeof FRAMEWORK_LABELS]}: not measured (${why}).`);
  lines.push('');
  return lines;
}

/** Each lever as Vigil with it ÷ Vigil without it, the same requests in the same run. */
function leverSection(tools: ToolLatencyResult, concurrency: number[]): string[] {
  const at = (cells: Cell[], c: number) => cells.find((cell) => cell.concurrency === c) as Cell;
  const lines = [
    '## Levers (Vigil with ÷ without, same run)',
    '',
    'Each lever is a second Vigil process, the same build with one setting changed, answering the same requests (`bench/levers.ts`). ' +
      'Throughput ratios above 1 and latency and CPU ratios below 1 mean the lever helps (for an edge such as the log line: what it costs).',
  ];
  for (const lever of LEVERS) {
    lines.push('', `With ÷ without ${lever.name}; the second process: ${lever.label}.`, '', '| Tool | c | p50 with ÷ without | req/s with ÷ without | CPU ms/req with ÷ without |', '|---|---:|---:|---:|---:|');
    for (const { tool, cells } of tools.tools) {
      for (const c of concurrency) {
        const { on, off } = withAndWithout(lever, { vigil: at(cells.vigil, c), ...leverCells((target) => at(cells[target], c)) });
        lines.push(`| \`${tool}\` | ${c} | ${ratio(on.p50 / off.p50)} | ${ratio(on.rps / off.rps)} | ${ratio((on.cpuMsPerRequest ?? Number.NaN) / (off.cpuMsPerRequest ?? Number.NaN))} |`);
      }
    }
  }
  lines.push('');
  return lines;
}
