import autocannon from 'autocannon';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { quantile } from './stats';

/** One measured cell: a target at one concurrency for a fixed time. Latencies in ms, of 2xx answers only. */
export interface Cell {
  concurrency: number;
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  rps: number;
  /** CPU ms the server process spent per answered request (HTTP targets), or the client process (direct targets). */
  cpuMsPerRequest?: number;
}

export interface HttpRequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * A closed loop over HTTP with autocannon: `concurrency` keep-alive connections, each sending its
 * next request as soon as the last answered, for `seconds`. `next()` picks each request (the same
 * sequence of patients for every target). Latency is taken per response from autocannon's own
 * high-resolution timer (its histogram rounds to whole milliseconds, too coarse for the floor).
 */
export function httpLoad(base: string, next: () => HttpRequestSpec, concurrency: number, seconds: number): Promise<Cell> {
  return httpLoadSpread([base], next, concurrency, seconds);
}

/**
 * The same closed loop spread over several servers of one service (processes behind a balancer):
 * the connections are shared out evenly, one autocannon per server, all at once, and the cell is
 * their sum (latencies of every answer together, requests over the longest of their durations).
 */
export async function httpLoadSpread(bases: string[], next: () => HttpRequestSpec, concurrency: number, seconds: number): Promise<Cell> {
  const latencies: number[] = [];
  let errors = 0;
  const share = (index: number) => Math.floor(concurrency / bases.length) + (index < concurrency % bases.length ? 1 : 0);
  const results = await Promise.all(
    bases.map((base, index) =>
      autocannonRun(base, next, share(index), seconds, (statusCode, responseTime) => {
        if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
        else errors += 1;
      }),
    ),
  );
  for (const result of results) errors += result.errors + result.timeouts;
  return summarizeCell(concurrency, latencies, errors, Math.max(...results.map((result) => result.duration)));
}

function autocannonRun(
  base: string,
  next: () => HttpRequestSpec,
  connections: number,
  seconds: number,
  onResponse: (statusCode: number, responseTime: number) => void,
): Promise<autocannon.Result> {
  let finished: (result: autocannon.Result) => void = () => undefined;
  let failed: (error: unknown) => void = () => undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finished = resolve;
    failed = reject;
  });
  const instance = autocannon(
    {
      url: base,
      connections,
      pipelining: 1,
      duration: seconds,
      timeout: 30,
      requests: [
        {
          setupRequest: (request) => {
            const spec = next();
            return { ...request, method: spec.method, path: spec.path, headers: { ...spec.headers }, body: spec.body };
          },
        },
      ],
    },
    (error, result) => (error ? failed(error) : finished(result)),
  );
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => onResponse(statusCode, responseTime));
  return done;
}

/**
 * Kinds of request taken in turn on one keep-alive connection, one at a time, for `seconds`: a cell
 * per kind, all measured over the same seconds. A ratio of two kinds' latencies is then not moved
 * by this shared machine's drift, which two cells one after the other are (the same kind's p50
 * moved by up to a third between cells a minute apart). Node's own client, since autocannon does
 * not say which request an answer was for; both kinds pay the same client.
 */
export async function alternatingHttpLoad(base: string, kinds: (() => HttpRequestSpec)[], seconds: number): Promise<Cell[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = kinds.map((): number[] => []);
  const errors = kinds.map(() => 0);
  const start = performance.now();
  const end = start + seconds * 1000;
  try {
    while (performance.now() < end) {
      for (const [kind, next] of kinds.entries()) {
        const begin = performance.now();
        const status = await send(base, next(), agent).catch(() => 0);
        if (status >= 200 && status < 300) latencies[kind].push(performance.now() - begin);
        else errors[kind] += 1;
      }
    }
  } finally {
    agent.destroy();
  }
  const elapsed = (performance.now() - start) / 1000;
  return kinds.map((_, kind) => summarizeCell(1, latencies[kind], errors[kind], elapsed));
}

/** One request, its answer read to the end; resolves with the status code. */
function send(base: string, spec: HttpRequestSpec, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = request(new URL(spec.path, base), { method: spec.method, headers: spec.headers, agent, timeout: 30_000 }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    });
    call.on('timeout', () => call.destroy(new Error('timeout')));
    call.on('error', reject);
    call.end(spec.body);
  });
}

/** The same closed loop without HTTP: `concurrency` async workers calling `work` back to back. */
export async function directLoad(work: () => Promise<unknown>, concurrency: number, seconds: number): Promise<Cell> {
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const begin = performance.now();
      try {
        if ((await work()) === null) errors += 1;
        else latencies.push(performance.now() - begin);
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return summarizeCell(concurrency, latencies, errors, (performance.now() - start) / 1000);
}

function summarizeCell(concurrency: number, latencies: number[], errors: number, seconds: number): Cell {
  const sorted = Float64Array.from(latencies).sort();
  return {
    concurrency,
    requests: latencies.length,
    errors,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    rps: latencies.length / seconds,
  };
}
