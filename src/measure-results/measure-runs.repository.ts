import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Period } from '../clinical/shared/clinical-dates';
import { WRITER_SESSION } from '../cohort/read-session.statements';
import { MeasureRunReason } from './enum';
import { ChunkOfRun, ChunkRef, MEASURE_STATEMENTS as SQL, RunProgress, UnplannedRun } from './measure-results.sql';
import type { ExpectedResults } from './period-measures';
import { FailureRowInput, ResultRowInput } from './stored-result';

/** What one chunk writes: its results, and its loaded measures that failed. */
export interface ChunkWrite {
  rows: ResultRowInput[];
  failures: FailureRowInput[];
}

export interface RunRequest {
  reason: MeasureRunReason;
  period: Period;
  /** The patients to recompute; omitted: the whole cohort. */
  patientIds?: readonly string[];
  force?: boolean;
  chunkSize: number;
}

export interface ChunkPatient {
  id: string;
  /** How many of the patient's stored rows for the period are current. */
  current: number;
}

/** A chunk as the planner made it: its id bounds (NULL: open, or a slice of a listed run). */
export interface PlannedChunk {
  afterId: string | null;
  throughId: string | null;
}

/**
 * The recompute's bookkeeping in Postgres: runs (what to recompute, for which period), their
 * chunks (each job's share), which patients of a chunk are due, and the chunk's one write of
 * results. Redis only ever carries a run id and a chunk number.
 */
@Injectable()
export class MeasureRunsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Records a run (nothing runs until a relay plans it); null for a run of no patients. */
  async request(run: RunRequest): Promise<string | null> {
    const ids = run.patientIds ? [...new Set(run.patientIds)].sort() : null;
    if (ids && ids.length === 0) return null;
    const [row] = await this.dataSource.query<{ id: string }[]>(SQL.insertRun, [run.reason, run.period.start, run.period.end, run.force ?? false, ids, run.chunkSize]);
    return row.id;
  }

  /** The period's rollover run, if none exists yet (any number of processes may ask at once). */
  async requestPeriodRun(period: Period, chunkSize: number): Promise<string | null> {
    const [row] = await this.dataSource.query<{ id: string }[]>(SQL.insertPeriodRun, [period.start, period.end, chunkSize]);
    return row?.id ?? null;
  }

  /**
   * Plans up to `limit` unplanned runs: splits each into chunks, hands the chunks to `enqueue`, and
   * marks the runs planned, all in one transaction. When `enqueue` throws (Redis down), nothing is
   * planned and the runs wait for the next pass. Returns the chunks enqueued.
   */
  async planRuns(limit: number, enqueue: (chunks: ChunkRef[]) => Promise<void>): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const runs = await manager.query<UnplannedRun[]>(SQL.claimUnplannedRuns, [limit]);
      const jobs: ChunkRef[] = [];
      for (const run of runs) {
        const chunks = run.listed === null ? cohortChunks(await manager.query<{ id: string }[]>(SQL.cohortBoundaries, [run.chunkSize])) : listedChunks(run.listed, run.chunkSize);
        if (chunks.length > 0) {
          await manager.query(SQL.insertChunks, [run.id, chunks.map((chunk) => chunk.afterId), chunks.map((chunk) => chunk.throughId)]);
        }
        await manager.query(SQL.markRunPlanned, [run.id, chunks.length]);
        jobs.push(...chunks.map((_, chunkNo) => ({ runId: run.id, chunkNo, periodStart: run.periodStart, periodEnd: run.periodEnd })));
      }
      if (jobs.length > 0) await enqueue(jobs);
      return jobs.length;
    });
  }

  async chunk(runId: string, chunkNo: number): Promise<ChunkOfRun | null> {
    const [row] = await this.dataSource.query<ChunkOfRun[]>(SQL.chunkOfRun, [runId, chunkNo]);
    return row ?? null;
  }

  /** The chunk's patients, each with how many of its stored rows are current for this run. */
  /** The chunk's patients, each with how many of its rows are current (`editionIds`: the loaded editions the period takes). */
  async chunkPatients(runId: string, chunkNo: number, chunk: ChunkOfRun, editionIds: readonly string[]): Promise<ChunkPatient[]> {
    const period = [chunk.periodStart, chunk.periodEnd, chunk.force];
    return chunk.listed
      ? this.dataSource.query<ChunkPatient[]>(SQL.listedChunkPatients, [chunkNo, runId, ...period, editionIds])
      : this.dataSource.query<ChunkPatient[]>(SQL.rangeChunkPatients, [chunk.afterId, chunk.throughId, ...period, runId, editionIds]);
  }

  /**
   * The chunk's one write: its rows (as `vigil_writer`), the chunk marked finished with its counts,
   * and the run finished when it was its last chunk, in one transaction. A row whose content hash
   * matches the stored row's is only stamped with the run, the time and its data version; the others
   * are upserted whole. A loaded measure's result replaces a failure recorded for it; a failure is
   * recorded in place of the result it could not give. A chunk already finished (another delivery of
   * the same job got there first) writes nothing: `already-finished`.
   */
  async writeChunk(runId: string, chunkNo: number, written: ChunkWrite, counts: { computed: number; skipped: number }): Promise<'written' | 'already-finished'> {
    const { rows, failures } = written;
    return this.dataSource.transaction(async (manager) => {
      const [chunk] = await manager.query<{ finished: boolean }[]>(SQL.lockChunk, [runId, chunkNo]);
      if (!chunk || chunk.finished) return 'already-finished';
      if (rows.length + failures.length > 0) {
        await manager.query(WRITER_SESSION.become);
        const changed = rows.length > 0 ? await this.stampUnchanged(manager, runId, rows) : [];
        if (changed.length > 0) await manager.query(SQL.upsertResults, [JSON.stringify(changed), runId]);
        const loaded = rows.filter((row) => row.measure_package_id !== null);
        if (loaded.length > 0) {
          await manager.query(SQL.clearFailures, [loaded.map((row) => row.patient_id), loaded.map((row) => row.measure_id), loaded.map((row) => row.period_start), loaded.map((row) => row.period_end)]);
        }
        if (failures.length > 0) await manager.query(SQL.upsertFailures, [JSON.stringify(failures), runId]);
        await manager.query(WRITER_SESSION.leave);
      }
      await manager.query(SQL.finishChunk, [runId, chunkNo, counts.computed, counts.skipped]);
      // Locked last (chunk rows first, then the run: one order, no deadlock), so the last chunk to finish sees all others.
      await manager.query(SQL.lockRun, [runId]);
      await manager.query(SQL.finishRunIfDone, [runId]);
      // The run was unfinished when locked, so finished now means by this chunk. A whole-cohort run
      // rewrote a period's rows: statistics before the commit that makes the period readable.
      const [{ wholeRunFinished }] = await manager.query<{ wholeRunFinished: boolean }[]>(SQL.wholeRunFinished, [runId]);
      if (wholeRunFinished) await manager.query(SQL.analyzeResults);
      return 'written';
    });
  }

  /** Stamps the rows stored with the same content; returns the others. The rows are of one period (a chunk's). */
  private async stampUnchanged(manager: EntityManager, runId: string, rows: ResultRowInput[]): Promise<ResultRowInput[]> {
    const column = <K extends keyof ResultRowInput>(key: K) => rows.map((row) => row[key]);
    const period = onePeriod(rows);
    const unstamped = await manager.query<{ index: number }[]>(SQL.stampUnchangedResults, [
      column('patient_id'),
      column('measure_id'),
      period.start,
      period.end,
      column('content_hash'),
      column('data_version'),
      runId,
      column('measure_package_id'),
    ]);
    return unstamped.map(({ index }) => rows[index]);
  }

  async progress(runId: string): Promise<RunProgress | null> {
    const [row] = await this.dataSource.query<RunProgress[]>(SQL.runProgress, [runId]);
    return row ?? null;
  }

  /** Unfinished chunks of runs planned more than `olderThanMs` ago (their jobs may be lost). */
  overdueChunks(olderThanMs: number, limit: number): Promise<ChunkRef[]> {
    return this.dataSource.query<ChunkRef[]>(SQL.overdueChunks, [olderThanMs, limit]);
  }

  async periodState(period: Period): Promise<{ rolledOver: boolean; busy: boolean }> {
    const [row] = await this.dataSource.query<{ rolledOver: boolean; busy: boolean }[]>(SQL.periodState, [period.start, period.end]);
    return row;
  }

  /** Patients whose stored results for the period are missing, older than their data or of an edition the period no longer takes. */
  async stalePatients(period: Period, expected: ExpectedResults, limit: number): Promise<string[]> {
    const rows = await this.dataSource.query<{ id: string }[]>(SQL.stalePatients, [period.start, period.end, expected.rows, limit, expected.editionIds]);
    return rows.map((row) => row.id);
  }

  /** Deletes up to `limit` results of periods ending before `before`, and those periods' failures; returns how many results. */
  async pruneResults(before: string, limit: number): Promise<number> {
    const [row] = await this.dataSource.query<{ n: number }[]>(SQL.pruneResults, [before, limit]);
    await this.dataSource.query(SQL.pruneFailures, [before]);
    return row.n;
  }

  async pruneRuns(olderThanDays: number): Promise<void> {
    await this.dataSource.query(SQL.pruneRuns, [olderThanDays]);
  }
}

/**
 * The one period of a chunk's rows (the stamp takes it as one value); a mix is a caller's error,
 * refused before anything is written.
 */
export function onePeriod(rows: readonly Pick<ResultRowInput, 'period_start' | 'period_end'>[]): Period {
  const [first] = rows;
  if (!first || rows.some((row) => row.period_start !== first.period_start || row.period_end !== first.period_end)) {
    throw new RangeError('a chunk writes the results of exactly one period');
  }
  return { start: first.period_start, end: first.period_end };
}

/** Id ranges between consecutive boundaries, the first and last open-ended: every id falls in exactly one. */
export function cohortChunks(boundaries: { id: string }[]): PlannedChunk[] {
  const ids = boundaries.map((row) => row.id);
  return [...ids, null].map((throughId, index) => ({ afterId: index === 0 ? null : ids[index - 1], throughId }));
}

/** Slices of a listed run's sorted patients: bounds are implicit (the chunk number). */
export function listedChunks(patients: number, chunkSize: number): PlannedChunk[] {
  return Array.from({ length: Math.ceil(patients / chunkSize) }, () => ({ afterId: null, throughId: null }));
}
