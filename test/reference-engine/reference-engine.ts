import { ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pruneToRetrieves, retrieveFilters } from './data-requirements';
import { Bundle } from './fhir';
import { MeasureKey, measureBundle } from './measure-bundles';
import { ProfileOptions, withInferredProfiles } from './profiles';

/**
 * The reference side of the differential tests of issue 10: the stewards' ELM run by
 * fqm-execution (projecttacoma; cql-execution underneath), on a pool of child processes.
 * Test code only; src/ never imports fqm-execution.
 */

/** One patient's result for one population group of a measure, in the Measure's group order. */
export interface GroupPopulations {
  groupId: string;
  initialPopulation: boolean;
  denominator: boolean;
  denominatorExclusion: boolean;
  denominatorException: boolean;
  numerator: boolean;
}

/** Calendar dates (`YYYY-MM-DD`); fqm-execution makes them [start 00:00:00.000Z, end 23:59:59.999Z]. */
export interface MeasurementPeriod {
  start: string;
  end: string;
}

export interface ReferenceOptions extends ProfileOptions {
  /** 'raw' (default, fast) or 'calculate' (fqm-execution's public Calculator.calculate). */
  mode?: 'raw' | 'calculate';
  /** Patients per engine call; the batch is split over the pool's workers. Default: up to 100. */
  chunkSize?: number;
  /** Also return a summary of every define of the main library per patient ('raw' mode only). */
  statements?: boolean;
  /** Drop the resources no retrieve of the measure can return (data-requirements.ts). Default true. */
  prune?: boolean;
}

export interface ReferenceStats {
  measure: MeasureKey;
  patients: number;
  calls: number;
  /** Wall time of the whole run, pool start-up excluded. */
  wallMs: number;
  /** ELM set-up in the workers (once per worker and measure; 0 when already done). */
  setupMs: number;
  /** Engine time summed over the calls, set-up excluded. */
  engineMs: number;
  /** engineMs / patients: the cost of one patient on one core. */
  msPerPatient: number;
}

export interface ReferenceRun {
  populations: Map<string, GroupPopulations[]>;
  /** With `statements: true`: per Patient.id, each define's value in brief. */
  statements?: Map<string, Record<string, unknown>>;
  stats: ReferenceStats;
}

type EngineGroup = { groupId: string; populations: Record<string, boolean> };
type EngineAnswer = { id: number; ok: true; results: { patientId: string; groups: EngineGroup[]; statements?: Record<string, unknown> }[]; engineMs: number; setupMs: number } | { id: number; ok: false; error: string };
interface Task {
  key: MeasureKey;
  patients: Bundle[];
  period: MeasurementPeriod;
  mode: 'raw' | 'calculate';
  statements: boolean;
  resolve: (answer: Extract<EngineAnswer, { ok: true }>) => void;
  reject: (error: Error) => void;
}

const WORKER = join(__dirname, 'reference-worker.cjs');

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  measures: Set<MeasureKey>;
  busy?: Task & { id: number };
}

/**
 * N forked Node processes (default: as many as there are cores, at most 2), each running one
 * engine call at a time. Idle workers are unref'd, so a forgotten pool does not keep Jest alive;
 * call close() anyway. Workers run with TZ=UTC: cql-execution reads a FHIR dateTime without an
 * offset in the process's local zone, so the zone must be fixed for the results to be.
 */
export class ReferenceEnginePool {
  private readonly workers: Worker[] = [];
  private readonly queue: Task[] = [];
  private readonly bundles = new Map<MeasureKey, Bundle>();
  private readonly filters = new Map<MeasureKey, ReturnType<typeof retrieveFilters>>();
  private nextId = 1;
  private closed = false;
  /** Milliseconds from fork to every worker having loaded fqm-execution. */
  readonly started: Promise<number>;

  constructor(readonly size = Math.max(1, Math.min(2, availableParallelism()))) {
    const begin = performance.now();
    for (let i = 0; i < size; i++) this.workers.push(this.spawn());
    this.started = Promise.all(this.workers.map((worker) => worker.ready)).then(() => performance.now() - begin);
    this.started.catch(() => undefined); // run() reports it
  }

  private spawn(): Worker {
    const env: NodeJS.ProcessEnv = { ...process.env, TZ: 'UTC' };
    delete env.NODE_OPTIONS; // Jest's --experimental-vm-modules is not for the workers
    const child = fork(WORKER, [], { env, execArgv: [], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const worker: Worker = { child, measures: new Set(), ready: Promise.resolve() };
    worker.ready = new Promise((resolve, reject) => {
      child.once('message', () => {
        if (!worker.busy) this.idle(worker);
        resolve();
      });
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`reference engine worker exited (${code}) while starting`)));
    });
    child.on('message', (answer: EngineAnswer | { type: 'ready' }) => {
      if (!('id' in answer) || !worker.busy || worker.busy.id !== answer.id) return;
      const task = worker.busy;
      worker.busy = undefined;
      if (answer.ok) task.resolve(answer);
      else task.reject(new Error(`fqm-execution (${task.key}): ${answer.error}`));
      this.dispatch();
    });
    child.on('exit', (code, signal) => {
      // No respawn: a worker that dies (out of memory, a crash in the engine) fails its task, and
      // the pool goes on with the others; with none left every queued task fails.
      const index = this.workers.indexOf(worker);
      if (index >= 0) this.workers.splice(index, 1);
      const task = worker.busy;
      worker.busy = undefined;
      if (this.closed) return;
      task?.reject(new Error(`reference engine worker exited (${signal ?? code}) during ${task.key}`));
      if (this.workers.length === 0) for (const queued of this.queue.splice(0)) queued.reject(new Error('every reference engine worker has exited'));
      else this.dispatch();
    });
    return worker;
  }

  private idle(worker: Worker): void {
    worker.child.unref();
    (worker.child.channel as { unref?: () => void } | undefined)?.unref?.();
  }

  private dispatch(): void {
    for (const worker of this.workers) {
      if (worker.busy) continue;
      const task = this.queue.shift();
      if (!task) {
        this.idle(worker);
        continue;
      }
      worker.child.ref();
      (worker.child.channel as { ref?: () => void } | undefined)?.ref?.();
      if (!worker.measures.has(task.key)) {
        worker.child.send({ type: 'measure', key: task.key, bundle: this.measureBundle(task.key) });
        worker.measures.add(task.key);
      }
      const id = this.nextId++;
      worker.busy = { ...task, id };
      worker.child.send({ type: 'run', id, key: task.key, patients: task.patients, period: task.period, mode: task.mode, statements: task.statements });
    }
  }

  private measureBundle(key: MeasureKey): Bundle {
    let bundle = this.bundles.get(key);
    if (!bundle) this.bundles.set(key, (bundle = measureBundle(key)));
    return bundle;
  }

  private call(task: Omit<Task, 'resolve' | 'reject'>): Promise<Extract<EngineAnswer, { ok: true }>> {
    if (this.closed) return Promise.reject(new Error('the reference engine pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ ...task, resolve, reject });
      this.dispatch();
    });
  }

  /** Populations per Patient.id, for every patient Bundle, with timings. */
  async run(key: MeasureKey, patientBundles: readonly (Bundle | object)[], period: MeasurementPeriod, options: ReferenceOptions = {}): Promise<ReferenceRun> {
    await this.started;
    const begin = performance.now();
    let filters = this.filters.get(key);
    if (!filters) this.filters.set(key, (filters = retrieveFilters(this.measureBundle(key))));
    const tagged = patientBundles.map((bundle) => withInferredProfiles(bundle as Bundle, options));
    const bundles = options.prune === false ? tagged : tagged.map((bundle) => pruneToRetrieves(bundle, filters));
    const ids = bundles.map(patientIdOf);
    const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
    if (duplicate) throw new Error(`two patient Bundles have Patient.id ${duplicate}`);

    const chunkSize = options.chunkSize ?? Math.max(1, Math.min(100, Math.ceil(bundles.length / this.workers.length)));
    const chunks: Bundle[][] = [];
    for (let i = 0; i < bundles.length; i += chunkSize) chunks.push(bundles.slice(i, i + chunkSize));
    const answers = await Promise.all(chunks.map((patients) => this.call({ key, patients, period, mode: options.mode ?? 'raw', statements: options.statements === true })));

    const populations = new Map<string, GroupPopulations[]>();
    const statements = new Map<string, Record<string, unknown>>();
    for (const answer of answers) {
      for (const result of answer.results) {
        populations.set(result.patientId, result.groups.map(toGroupPopulations));
        if (result.statements) statements.set(result.patientId, result.statements);
      }
    }
    const missing = ids.filter((id) => !populations.has(id));
    const extra = [...populations.keys()].filter((id) => !ids.includes(id));
    if (missing.length > 0 || extra.length > 0) {
      throw new Error(`${key}: the engine's patient ids are not the Bundles' Patient.id (missing ${missing.slice(0, 3).join(', ')}; unexpected ${extra.slice(0, 3).join(', ')})`);
    }
    const ordered = new Map(ids.map((id) => [id, populations.get(id)!]));
    const engineMs = answers.reduce((sum, answer) => sum + answer.engineMs, 0);
    const setupMs = answers.reduce((sum, answer) => sum + answer.setupMs, 0);
    return {
      populations: ordered,
      ...(options.statements ? { statements: new Map(ids.map((id) => [id, statements.get(id)!])) } : {}),
      stats: { measure: key, patients: ids.length, calls: chunks.length, wallMs: performance.now() - begin, setupMs, engineMs, msPerPatient: ids.length ? engineMs / ids.length : 0 },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('the reference engine pool was closed');
    for (const task of this.queue.splice(0)) task.reject(error);
    await Promise.all(
      [...this.workers].map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.child.exitCode !== null || worker.child.signalCode !== null) return resolve();
            worker.child.once('exit', () => resolve());
            worker.child.kill();
          }),
      ),
    );
  }
}

function patientIdOf(bundle: Bundle): string {
  const patients = (bundle.entry ?? []).map((entry) => entry.resource).filter((resource) => resource?.resourceType === 'Patient');
  if (patients.length !== 1 || !patients[0]?.id) throw new Error(`a patient Bundle needs exactly one Patient with an id (found ${patients.length})`);
  return patients[0].id;
}

function toGroupPopulations(group: EngineGroup): GroupPopulations {
  const p = group.populations;
  return {
    groupId: group.groupId,
    initialPopulation: p['initial-population'] === true,
    denominator: p['denominator'] === true,
    denominatorExclusion: p['denominator-exclusion'] === true,
    denominatorException: p['denominator-exception'] === true,
    numerator: p['numerator'] === true,
  };
}

let shared: ReferenceEnginePool | undefined;

/** The process-wide pool behind {@link referencePopulations}, started on first use. */
export function referenceEngine(): ReferenceEnginePool {
  shared ??= new ReferenceEnginePool();
  return shared;
}

/** Stops the shared pool's workers (call it in afterAll). */
export async function closeReferenceEngine(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}

/**
 * The engine's populations for each patient Bundle, keyed by the Bundle's Patient.id, one entry
 * per population group in the Measure's order. Resources without `meta.profile` are tagged with
 * their QI-Core profiles first (profiles.ts).
 */
export async function referencePopulations(
  measureKey: MeasureKey,
  patientBundles: readonly (Bundle | object)[],
  period: MeasurementPeriod,
  options: ReferenceOptions = {},
): Promise<Map<string, GroupPopulations[]>> {
  return (await referenceEngine().run(measureKey, patientBundles, period, options)).populations;
}
