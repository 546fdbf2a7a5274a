import { Worker } from 'node:worker_threads';

/**
 * The disclosure check's integer programs, solved by HiGHS (WebAssembly) on a worker thread of its
 * own. One program runs synchronously for up to seconds and a check runs hundreds; on the request
 * thread that would hold every other request behind it. The worker is started on the first check,
 * kept for the life of the process, and restarted if it dies; a program in flight when it dies fails
 * its check, which is then computed again. It holds the process open only while a program is in
 * flight (a command awaiting a check must not exit under it; an idle thread must not keep a
 * finished process alive).
 */

/** A linear expression: variable → coefficient. */
export type Expression = Map<string, number>;

export interface IntegerProgram {
  /** Constraints in CPLEX LP syntax, without names: `1 x + 2 y >= 3`. */
  rows: readonly string[];
  /** Every variable (all general integers, non-negative). */
  variables: readonly string[];
}

/** The worker's whole program: plain JavaScript, so it runs the same from sources (tests) and from the build. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const highs = require(workerData.highsPath)();
parentPort.on('message', async ({ id, lp }) => {
  try {
    const solver = await highs;
    const result = solver.solve(lp, { mip_rel_gap: 0, output_flag: false });
    const columns = {};
    for (const [name, column] of Object.entries(result.Columns || {})) columns[name] = column.Primal;
    parentPort.postMessage({ id, status: result.Status, columns });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

interface Reply { id: number; status?: string; columns?: Record<string, number>; error?: string }

class SolverThread {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();

  run(lp: string): Promise<Reply> {
    const worker = this.started();
    const id = (this.nextId += 1);
    return new Promise<Reply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, lp });
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { highsPath: require.resolve('highs') } });
    // A listener on the worker refs it again, so idleness is declared after each one is attached.
    worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      waiter?.resolve(reply);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`disclosure check: the solver thread exited (${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

const thread = new SolverThread();

export const textOf = (expression: Expression): string => {
  // One term a line: the LP format limits the length of a line.
  const terms = [...expression].filter(([, c]) => c !== 0).map(([name, c], i) => `${c < 0 ? '-' : i === 0 ? '' : '+'} ${Math.abs(c)} ${name}`);
  return terms.length === 0 ? '0 zero' : terms.join('\n ');
};
export const valueOf = (assignment: ReadonlyMap<string, number>, expression: Expression) =>
  [...expression].reduce((sum, [name, c]) => sum + c * (assignment.get(name) ?? 0), 0);
export const add = (expression: Expression, name: string, c: number) => expression.set(name, (expression.get(name) ?? 0) + c);

/** An integer solution of the program with the extra rows, or null when there is none. */
export async function solve(program: IntegerProgram, extra: readonly string[] = []): Promise<Map<string, number> | null> {
  const rows = [...program.rows, ...extra];
  const lp = ['Minimize', ' obj: 0 zero', 'Subject To', ' z: 1 zero = 0', ...rows.map((row, i) => ` c${i}: ${row}`), 'General', ...program.variables.map((v) => ` ${v}`), 'End'].join('\n');
  const reply = await thread.run(lp);
  if (reply.error !== undefined) throw new Error(`disclosure check: ${reply.error}`);
  if (reply.status === 'Infeasible') return null;
  if (reply.status !== 'Optimal') throw new Error(`disclosure check: solver status ${reply.status}`);
  return new Map(Object.entries(reply.columns ?? {}).map(([name, primal]) => [name, Math.round(primal)]));
}
