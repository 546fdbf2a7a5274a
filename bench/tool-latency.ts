import type { Pool } from 'pg';
import type { AuditService } from '../src/audit';
import { ToolName } from '../src/tools/tool-names';
import { Cell, directLoad, httpLoad, HttpRequestSpec } from './load';
import { cycle } from './patient-sample';
import { sampler, ServerProcess } from './servers';
import { LEVERS } from './levers';
import { Assignment, BENCH_TOOLS, floorRead, graphqlBody, vigilPath, vigilRequest } from './tool-reads';

/**
 * Each tool against its targets, interleaved per cell so drift on a shared machine hits all of
 * them alike: Vigil, the node:http + pg floor with the audit write the brief requires (the
 * reference), the bare node:http + pg floor (the physical limit), the pg-only floor (no HTTP) with and
 * without the audit write, and PostGraphile.
 */

export const TARGETS = ['vigil', 'vigilNoCache', 'vigilNoTokenCache', 'vigilRequestLog', 'vigilExactRateLimit', 'vigilControl', 'floorAuditHttp', 'floorHttp', 'floorPg', 'floorAudit', 'peer'] as const;
export type Target = (typeof TARGETS)[number];
/** Vigil's second processes, one per lever (`levers.ts`). */
type LeverTarget = (typeof LEVERS)[number]['target'];
export const TARGET_LABELS: Record<Target, string> = {
  vigil: 'Vigil',
  ...(Object.fromEntries(LEVERS.map((lever) => [lever.target, lever.label])) as Record<LeverTarget, string>),
  floorAuditHttp: 'Floor: node:http + pg + audit',
  floorHttp: 'Floor: node:http + pg',
  floorPg: 'Floor: pg only',
  floorAudit: 'Diagnostic: pg floor + audit write',
  peer: 'PostGraphile 4.14',
};

type HttpTarget = 'vigil' | LeverTarget | 'floorAuditHttp' | 'floorHttp' | 'peer';

export interface ToolMeasurement {
  tool: ToolName;
  cells: Record<Target, Cell[]>;
  /** Rows each target returned for the first sampled patient (a sanity check of "same read"). */
  probe: Record<HttpTarget, string>;
}

export interface ToolLatencyResult {
  tools: ToolMeasurement[];
  /** Vigil's RSS in bytes: before any load, and every 250 ms during its runs at the highest concurrency. */
  idleRss: number;
  loadedRss: number[];
}

export async function measureTools(options: {
  vigil: ServerProcess;
  /** Vigil's second process for each lever (`levers.ts`), measured in the same run. */
  levers: Record<LeverTarget, ServerProcess>;
  floor: ServerProcess;
  /** The floor server with `FLOOR_AUDIT=1`: the reference the targets are measured against. */
  floorAudit: ServerProcess;
  peer: ServerProcess;
  pool: Pool;
  /** Vigil's AuditService on its own DataSource, and the reader pool its reads use, for the diagnostic target. */
  audited: { pool: Pool; audit: AuditService };
  sample: Assignment[];
  tokens: Map<string, string>;
  concurrency: number[];
  seconds: number;
  warmupSeconds: number;
  stop: () => boolean;
  log: (message: string) => void;
}): Promise<ToolLatencyResult> {
  const sequence = cycle(options.sample);
  const specFor = (target: HttpTarget, tool: ToolName) => (): HttpRequestSpec => {
    const assignment = sequence.next();
    const { patientId, username } = assignment;
    if (target === 'vigil' || target in options.levers) return vigilRequest(tool, assignment, options.tokens);
    if (target === 'floorHttp' || target === 'floorAuditHttp') return { method: 'GET', path: vigilPath(tool, patientId), headers: { 'x-bench-user': username } };
    return { method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: graphqlBody(tool, patientId) };
  };
  const servers: Record<HttpTarget, ServerProcess> = { vigil: options.vigil, ...options.levers, floorAuditHttp: options.floorAudit, floorHttp: options.floor, peer: options.peer };
  const bases = Object.fromEntries(Object.entries(servers).map(([target, server]) => [target, server.base])) as Record<HttpTarget, string>;
  const run = async (target: Target, tool: ToolName, concurrency: number, seconds: number): Promise<Cell> => {
    const cpu = target in servers ? () => servers[target as HttpTarget].cpuMs() : () => process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000;
    const before = cpu();
    const cell = await runCell(target, tool, concurrency, seconds);
    return { ...cell, cpuMsPerRequest: (cpu() - before) / Math.max(1, cell.requests) };
  };
  const runCell = (target: Target, tool: ToolName, concurrency: number, seconds: number): Promise<Cell> => {
    sequence.reset();
    if (target === 'floorPg') return directLoad(() => floorRead(options.pool, tool, sequence.next()), concurrency, seconds);
    if (target === 'floorAudit') return directLoad(() => floorRead(options.audited.pool, tool, sequence.next(), options.audited.audit), concurrency, seconds);
    return httpLoad(bases[target], specFor(target, tool), concurrency, seconds);
  };

  const idleRss = options.vigil.rss();
  const loadedRss: number[] = [];
  const top = Math.max(...options.concurrency);
  const tools: ToolMeasurement[] = [];
  for (const tool of BENCH_TOOLS) {
    const probe = await probeTool(tool, options.sample[0], bases, options.tokens);
    options.log(`${tool}: rows for the first patient — ${Object.entries(probe).map(([target, rows]) => `${target} ${rows}`).join(', ')}`);
    if (options.warmupSeconds > 0) for (const target of TARGETS) await run(target, tool, top, options.warmupSeconds);
    const cells = Object.fromEntries(TARGETS.map((target) => [target, []])) as unknown as Record<Target, Cell[]>;
    for (const concurrency of options.concurrency) {
      // Two halves, the targets in one order and then the other: the first target after a change of
      // tool ran up to 44 % slower at c=1 than a process of the same build measured later (the levers of the run on 31f0586).
      const halves = Object.fromEntries(TARGETS.map((target) => [target, [] as Cell[]])) as unknown as Record<Target, Cell[]>;
      for (const order of [TARGETS, [...TARGETS].reverse()]) {
        for (const target of order) {
          if (options.stop()) throw new Error('interrupted');
          const memory = target === 'vigil' && concurrency === top ? sampler(() => options.vigil.rss()) : null;
          halves[target].push(await run(target, tool, concurrency, options.seconds / 2));
          if (memory) loadedRss.push(...memory.stop());
        }
      }
      for (const target of TARGETS) {
        const cell = bothHalves(halves[target]);
        cells[target].push(cell);
        options.log(
          `${tool} c=${concurrency} ${TARGET_LABELS[target]}: p50 ${cell.p50.toFixed(2)} ms, p99 ${cell.p99.toFixed(2)} ms, ${cell.rps.toFixed(0)} req/s, ` +
            `${cell.cpuMsPerRequest?.toFixed(2)} CPU ms/req` +
            (cell.errors ? `, ${cell.errors} errors` : ''),
        );
      }
    }
    tools.push({ tool, cells, probe });
  }
  return { tools, idleRss, loadedRss };
}

/** One cell from its halves: p50 and p99 the means of theirs, req/s and CPU per request over both. */
export function bothHalves(halves: readonly Cell[]): Cell {
  const requests = halves.reduce((sum, half) => sum + half.requests, 0);
  const mean = (value: (half: Cell) => number) => halves.reduce((sum, half) => sum + value(half), 0) / halves.length;
  const cpu = halves.every((half) => half.cpuMsPerRequest !== undefined)
    ? halves.reduce((sum, half) => sum + (half.cpuMsPerRequest as number) * half.requests, 0) / Math.max(1, requests)
    : undefined;
  return {
    concurrency: halves[0].concurrency,
    requests,
    errors: halves.reduce((sum, half) => sum + half.errors, 0),
    p50: mean((half) => half.p50),
    p99: mean((half) => half.p99),
    // Equal halves: the mean of their rates is the rate over both.
    rps: mean((half) => half.rps),
    ...(cpu === undefined ? {} : { cpuMsPerRequest: cpu }),
  };
}

/** One request per HTTP target; refuses to measure a target that does not answer the read. */
async function probeTool(
  tool: ToolName,
  assignment: Assignment,
  bases: Record<HttpTarget, string>,
  tokens: Map<string, string>,
): Promise<Record<HttpTarget, string>> {
  const get = async (url: string, init: RequestInit) => {
    const response = await fetch(url, init);
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${tool}: ${url} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const path = vigilPath(tool, assignment.patientId);
  const vigilRows = async (target: 'vigil' | LeverTarget) =>
    `rows=${((await get(`${bases[target]}${path}`, { headers: { authorization: `Bearer ${tokens.get(assignment.username)}` } })).rows as unknown[]).length}`;
  const vigil = await vigilRows('vigil');
  const levers = {} as Record<LeverTarget, string>;
  for (const { target } of LEVERS) levers[target] = await vigilRows(target);
  const floor = await get(`${bases.floorHttp}${path}`, { headers: { 'x-bench-user': assignment.username } });
  const floorAudit = await get(`${bases.floorAuditHttp}${path}`, { headers: { 'x-bench-user': assignment.username } });
  const peer = await get(`${bases.peer}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: graphqlBody(tool, assignment.patientId) });
  if (peer.errors || !(peer.data as { patientById?: unknown } | undefined)?.patientById) {
    throw new Error(`${tool}: PostGraphile answered ${JSON.stringify(peer).slice(0, 500)}`);
  }
  const count = (value: unknown): string =>
    Object.entries(value as Record<string, unknown>)
      .filter(([, part]) => Array.isArray(part) || (part && typeof part === 'object' && Array.isArray((part as { nodes?: unknown }).nodes)))
      .map(([key, part]) => `${key}=${Array.isArray(part) ? part.length : (part as { nodes: unknown[] }).nodes.length}`)
      .join(' ');
  return {
    vigil,
    ...levers,
    floorAuditHttp: count(floorAudit),
    floorHttp: count(floor),
    peer: count((peer.data as { patientById: unknown }).patientById),
  };
}
