import { Injectable } from '@nestjs/common';
import { CohortRead, CohortRepository } from '../cohort/cohort.repository';
import { MEASURE_IDS } from '../clinical/care-gaps';
import { Period } from '../clinical/shared/clinical-dates';
import { PublishedCareGapsService } from '../measure-packages';
import { CompletePeriod, CompletePeriodMemo } from './complete-period-memo';
import { decodeResultCursor, encodeResultCursor, InvalidResultCursorError } from './result-cursor';
import { MEASURE_STATEMENTS as SQL } from './measure-results.sql';
import { compareMeasures } from './period-measures';
import { PlanChoices } from './plan-choices';
import { StoredMeasureResult } from './stored-result';
import { WorklistKeyset, worklistKeysetOf, WorklistPatientRow, WorklistQuery } from './worklist-page';
import { fixedShapeOf, preparedWorklistName, WORKLIST_ROWS_MAX, worklistStatementName } from './worklist-shape';
import { FilterCheck, SPARSE_MATCHES_BELOW, WORKLIST_STATEMENTS } from './worklist.sql';

const WORKLIST = { statements: WORKLIST_STATEMENTS };

/** A term as a LIKE pattern: its own `%`, `_` and `\\` match themselves. */
function likeEscaped(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * A reason filter as the statements' LIKE pattern: a code matches itself only (`…:esrd` is not
 * `…:esrd-procedure`), a class every code of that class (`denominator` is not `denominator-exclusion`).
 */
function reasonPattern(reason: string): string {
  return reason.includes(':') ? likeEscaped(reason) : `${likeEscaped(reason)}:%`;
}

export interface CareTeamResultsQuery {
  careTeamId: string;
  period: Period;
  measureId?: string;
  status?: string;
  reasonCode?: string;
  /** From the previous page's `nextCursor`; an invalid one throws `InvalidResultCursorError`. */
  cursor?: string;
  /** Rows per page, 1–1000. */
  limit: number;
}

export interface CareTeamResultsPage {
  rows: StoredMeasureResult[];
  /** Null on the last page. */
  nextCursor: string | null;
}

/** A worklist page, and the complete period it was read from (when its run finished). */
export interface WorklistPage {
  period: Period;
  finishedAt: string;
  /** Each with its matching results (tuples: `WorklistResultTuple`). */
  patients: WorklistPatientRow[];
  /** Where the page ended, to read the next one after (`after`); null on the last page. */
  last: WorklistKeyset | null;
}

/** Which stored results a period has: what a population publication is versioned by. */
export interface PopulationResultsVersion {
  rowCount: number;
  /** The largest run id among the period's results ('0' when none). */
  maxRunId: string;
  /** The newest `computed_at` among them; null when none. */
  newestComputedAt: string | null;
}

/** One microcell as the database groups it: the age as its decade's first year (90 for 90 and over). */
export interface PopulationMicrocellRow {
  careTeams: string[];
  ageDecade: number;
  sex: string;
  measureId: string;
  status: string;
  reasonClass: string;
  count: number;
  /** The sum of the microcell's patients' secret record keys modulo 2^48 (a bigint, as text): never published. */
  keySum: string;
}

/** Everything one population publication is computed from, read in one snapshot. */
export interface PopulationInputs {
  version: PopulationResultsVersion;
  microcells: PopulationMicrocellRow[];
  careTeamCodes: string[];
}

/**
 * How a page in a patient order checks its filters (see `pageStatement` in worklist.sql.ts): hashed
 * when they are rare, which only a measure, a reason or an attestation filter can make them (a
 * status alone spans six measures); counting costs a round trip and at most `SPARSE_MATCHES_BELOW`
 * index entries, so it is done only then, and the choice is reused for a while (`PlanChoices`).
 * Both checks give the same page: this is a choice of plan, never of rows.
 */
async function filterCheck(
  query: Omit<WorklistQuery, 'period'>,
  remembered: (count: () => Promise<FilterCheck>) => Promise<FilterCheck>,
  countUpTo: (cap: number) => Promise<{ matching: number }[]>,
): Promise<FilterCheck> {
  if (query.sort === 'lastResult' || (query.measureId === undefined && query.reason === undefined && query.attestation === undefined)) return 'probe';
  return remembered(async () => {
    const [{ matching }] = await countUpTo(SPARSE_MATCHES_BELOW);
    return matching < SPARSE_MATCHES_BELOW ? 'hashed' : 'probe';
  });
}

type CompletePeriodRow = { periodStart: string; periodEnd: string; finishedAt: string };

function completePeriodOf([row]: CompletePeriodRow[]): CompletePeriod | null {
  return row ? { period: { start: row.periodStart, end: row.periodEnd }, finishedAt: row.finishedAt } : null;
}

/**
 * Reads of the stored measure results, for the surfaces built on them (worklists, search, analyst
 * counts). Every row says when it was computed (`computedAt`) and whether the patient's data has
 * changed since (`stale`). These are raw reads by patient or care team: the caller decides access,
 * projection and audit (through the one PHI path) before anything reaches a person. Each read runs
 * in the cohort's READ ONLY session as `vigil_reader` (`CohortReader.readStatements`): in a
 * transaction of its own, or in the one open read (`CohortRead`) a caller hands it.
 */
@Injectable()
export class MeasureResultsRepository {
  /** Each worklist filter's plan choice, reused for a while (`PlanChoices`). */
  private readonly planChoices = new PlanChoices();
  /** The newest complete period, reused for a second (`CompletePeriodMemo`). */
  private readonly completePeriod = new CompletePeriodMemo();

  constructor(
    private readonly cohort: CohortRepository,
    private readonly published: PublishedCareGapsService,
  ) {}

  /** The measures a period's stored results have: the built-in ones, then the loaded ones it has a care gap for. */
  async measuresOf(period: Period): Promise<string[]> {
    return [...MEASURE_IDS, ...(await this.published.evaluableFor(period)).editions.map((edition) => edition.key)];
  }

  /** One patient's stored results for the period, the built-in measures in the live tool's order, then loaded ones by key; empty when none are stored. */
  async patientResults(patientId: string, period: Period): Promise<StoredMeasureResult[]> {
    const rows = await this.read<StoredMeasureResult>(SQL.patientResults, [patientId, period.start, period.end]);
    return rows.sort((a, b) => compareMeasures(a.measureId, b.measureId));
  }

  /** A page of a care team's stored results for the period, in (patient, measure) order. */
  async careTeamResults(query: CareTeamResultsQuery): Promise<CareTeamResultsPage> {
    if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > 1000) throw new RangeError('limit must be an integer from 1 to 1000');
    const after = query.cursor === undefined ? null : decodeResultCursor(query.cursor, await this.measuresOf(query.period));
    const rows = await this.read<StoredMeasureResult>(SQL.careTeamResults, [
      query.careTeamId,
      query.period.start,
      query.period.end,
      query.measureId ?? null,
      query.status ?? null,
      query.reasonCode ?? null,
      after?.patientId ?? null,
      after?.measureId ?? null,
      query.limit + 1,
    ]);
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return { rows: page, nextCursor: rows.length > query.limit && last ? encodeResultCursor(last) : null };
  }

  /**
   * One page of a care team's worklist for the newest complete period (`latestCompletePeriod`, as
   * this process read it within the last second: `CompletePeriodMemo`): the team's patients with a
   * stored result for it that matches the filters, in the query's order, each with those matching
   * results. Null before the first complete period. Raw rows: access, projection and audit are the
   * caller's (through the one PHI path), and so is turning `last` into a cursor: it holds the last
   * patient's name or birth date. An `after` not of the order's shape throws `InvalidResultCursorError`.
   * `checkMeasure` is given the period once it is read, and may refuse the query's measure for it.
   * Read in `within`, the open read of a request's `inOneRead`.
   */
  async worklistPage(query: Omit<WorklistQuery, 'period'>, checkMeasure: ((period: Period) => Promise<void>) | undefined, within: CohortRead): Promise<WorklistPage | null> {
    // A page statement returns at most WORKLIST_ROWS_MAX rows: the page and one more.
    if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > WORKLIST_ROWS_MAX - 1) throw new RangeError(`limit must be an integer from 1 to ${WORKLIST_ROWS_MAX - 1}`);
    const after = query.after === undefined ? null : worklistKeysetOf(query.after, query.sort);
    if (query.after !== undefined && !after) throw new InvalidResultCursorError();
    return within.readStatements(async (read) => {
      const stored = await this.completePeriod.get(async () => completePeriodOf(await read<CompletePeriodRow>(SQL.latestCompletePeriod, [])));
      if (!stored) return null;
      const { period } = stored;
      // A loaded measure's key is checked against the period read, before any statement over results.
      await checkMeasure?.(period);
      const filters = [period.start, period.end, query.measureId ?? null, query.status ?? null, query.reason ? reasonPattern(query.reason) : null];
      const attestation = query.attestation ?? null;
      const remembered = (count: () => Promise<FilterCheck>) => this.planChoices.choose([...filters, attestation, stored.finishedAt], count);
      const check = await filterCheck(query, remembered, (cap) => read<{ matching: number }>(WORKLIST.statements.worklistMatchingResults, [cap, ...filters, attestation]));
      // A page of a fixed shape runs its fixed statement, prepared: planned once per connection, not per call.
      const shape = fixedShapeOf(query, check, after !== null);
      const name = worklistStatementName(query.sort, query.order, query.measureId !== undefined, check, shape);
      const rows = await read<WorklistPatientRow>(
        WORKLIST.statements[name],
        [[query.careTeamId], ...filters, after?.key1 ?? null, after?.key2 ?? null, after?.patientId ?? null, query.limit + 1, attestation],
        shape ? preparedWorklistName(name) : undefined,
      );
      // Each row's results stay the tuples the statement sent: the caller projects them as they are.
      const patients = rows.slice(0, query.limit);
      const last = patients[patients.length - 1];
      const more = rows.length > query.limit && last;
      return { period, finishedAt: stored.finishedAt, patients, last: more ? { key1: last.key1, key2: last.key2, patientId: last.id } : null };
    });
  }

  /** The newest period every patient has results for (a whole-cohort run finished), and when; null before the first. */
  async latestCompletePeriod(): Promise<CompletePeriod | null> {
    return completePeriodOf(await this.read<CompletePeriodRow>(SQL.latestCompletePeriod, []));
  }

  /** The version of period's stored results (cheap: a cache is looked up by it). */
  async populationResultsVersion(period: Period): Promise<PopulationResultsVersion> {
    const [row] = await this.read<PopulationResultsVersion>(SQL.populationResultsVersion, [period.start, period.end]);
    return row;
  }

  /**
   * The period's results as microcells, with their version and the care-team codes, all from one
   * REPEATABLE READ snapshot: the version returned is the version of exactly these counts.
   */
  async populationInputs(period: Period): Promise<PopulationInputs> {
    return this.cohort.readStatements(async (query) => {
      const [version] = await query<PopulationResultsVersion>(SQL.populationResultsVersion, [period.start, period.end]);
      const microcells = await query<PopulationMicrocellRow>(SQL.populationMicrocells, [period.start, period.end]);
      const teams = await query<{ code: string }>(SQL.careTeamCodes, []);
      return { version, microcells, careTeamCodes: teams.map((team) => team.code) };
    }, { snapshot: true });
  }

  private read<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.cohort.readStatements((query) => query<T>(sql, params));
  }
}
