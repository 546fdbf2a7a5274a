import { Cell, httpLoad } from './load';
import { ServerProcess } from './servers';

/**
 * What the framework costs on its own: a request that does nothing, answered by bare node:http (the
 * floor's `/health`), by a Nest route on Express and on Fastify (`bench/noop-nest-server.ts`), by a
 * Nest + Fastify route with the framework parts a tool route uses (the same process), and
 * Vigil's `GET /health` (Nest on Fastify with Vigil's edges: log line, correlation id, security
 * headers, metrics, rate limit). Interleaved per cell, as the tools are.
 */

export const FRAMEWORK_TARGETS = ['nodeHttp', 'nestExpress', 'nestFastify', 'nestFastifyRoute', 'vigilHealth'] as const;
export type FrameworkTarget = (typeof FRAMEWORK_TARGETS)[number];
export const FRAMEWORK_LABELS: Record<FrameworkTarget, string> = {
  nodeHttp: 'node:http, nothing (`/health` of the floor)',
  nestExpress: 'Nest + Express route that does nothing',
  nestFastify: 'Nest + Fastify route that does nothing',
  nestFastifyRoute: 'Nest + Fastify route shaped like `patient_labs`, doing nothing (middleware, async guard, param decorator, UUID pipe, Vigil’s validation pipe and labs query DTO)',
  vigilHealth: 'Vigil `GET /health` (Nest + Fastify and Vigil’s edges)',
};
const PATHS: Record<FrameworkTarget, string> = {
  nodeHttp: '/health',
  nestExpress: '/noop',
  nestFastify: '/noop',
  // The query a labs request of the benchmarks would carry if it were windowed: both of the DTO's kinds of field.
  nestFastifyRoute: '/route/3f1f5b7e-8c1a-4d2e-9b6f-0a4c2e7d9b31?from=2025-01-01&to=2025-12-31&code=2160-0',
  vigilHealth: '/health',
};

export interface FrameworkResult {
  cells: Partial<Record<FrameworkTarget, Cell[]>>;
  /** Targets not measured, with why (a platform not installed). */
  skipped: Partial<Record<FrameworkTarget, string>>;
}

export async function measureFramework(options: {
  servers: Partial<Record<FrameworkTarget, ServerProcess>>;
  skipped: Partial<Record<FrameworkTarget, string>>;
  concurrency: number[];
  seconds: number;
  warmupSeconds: number;
  stop: () => boolean;
  log: (message: string) => void;
}): Promise<FrameworkResult> {
  const present = FRAMEWORK_TARGETS.filter((target) => options.servers[target]);
  const run = async (target: FrameworkTarget, concurrency: number, seconds: number): Promise<Cell> => {
    const server = options.servers[target] as ServerProcess;
    const before = server.cpuMs();
    const cell = await httpLoad(server.base, () => ({ method: 'GET', path: PATHS[target], headers: {} }), concurrency, seconds);
    return { ...cell, cpuMsPerRequest: (server.cpuMs() - before) / Math.max(1, cell.requests) };
  };
  const top = Math.max(...options.concurrency);
  if (options.warmupSeconds > 0) for (const target of present) await run(target, top, options.warmupSeconds);
  const cells: FrameworkResult['cells'] = {};
  for (const concurrency of options.concurrency) {
    for (const target of present) {
      if (options.stop()) throw new Error('interrupted');
      const cell = await run(target, concurrency, options.seconds);
      (cells[target] ??= []).push(cell);
      options.log(
        `framework c=${concurrency} ${FRAMEWORK_LABELS[target]}: p50 ${cell.p50.toFixed(2)} ms, ${cell.rps.toFixed(0)} req/s, ${cell.cpuMsPerRequest?.toFixed(3)} CPU ms/req` +
          (cell.errors ? `, ${cell.errors} errors` : ''),
      );
    }
  }
  return { cells, skipped: options.skipped };
}
