import { Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EncounterRow, ObservationRow, PatientChart, PatientRow } from './chart.types';
import { cut } from './chart-measure-records';
import { BULK_RECORD_PARTS, BulkRecordPart, CohortStatementName } from './cohort.statements';
import { BULK_SNAPSHOT_SESSION_BEGIN, IDENTITY_GENERATION, IDENTITY_READ_SESSION_BEGIN, SNAPSHOT_SESSION_BEGIN } from './read-session.statements';
import { DatabaseNotifications } from '../database/database-notifications';
import { ReaderPool } from '../database/reader-pool';
import { IdentityCache } from './identity-cache';
import type { StaffIdentity, StaffLookup, StaffLookupOptions, VersionedChart, ObservationReadFilter, EncounterReadFilter, ChartReadFilters } from './cohort-read.types';
import { CHART_ROW_CAP, CohortRead, CohortReader } from './cohort-read.repository';
import { ClosingResponse, OpenRead, Query, ReadSessions, RequestRead, Run } from './read-session.repository';

export { CHART_ROW_CAP, CohortRead } from './cohort-read.repository';
export type { ClosingResponse, Query, RequestRead } from './read-session.repository';
export type { Capped } from './chart-measure-records';
export type { AccessGate, PatientProbe, StaffIdentity, StaffLookup, StaffLookupOptions, TimeWindow, VersionedChart, ObservationReadFilter, EncounterReadFilter, ChartReadFilters } from './cohort-read.types';

const STAFF_LOOKUPS = {
  username: 'staffUserByUsername',
  subject: 'staffUserBySubject',
  email: 'staffUserByEmail',
  npi: 'staffUserByNpi',
} as const satisfies Record<StaffLookup['by'], CohortStatementName>;

/**
 * The only code that runs SQL over patient data. Every call runs one named statement from
 * `COHORT_STATEMENTS` read-only, as the SELECT-only `vigil_reader` role (on the reader pool's
 * connections, which are both from their start; on the embedded database, in a READ ONLY transaction:
 * see `ReadSessions`); other modules' fixed statements over patient data (the worklist's, the access
 * checks') run through `readStatements`, the same way. Each read here (`CohortReader`'s) takes a
 * connection of its own; `inOneRead` hands its work a `CohortRead` whose reads share one.
 */
@Injectable()
export class CohortRepository extends CohortReader implements OnModuleDestroy {
  private readonly sessions: ReadSessions;
  /** Absent where nothing can be heard of changes (a repository built outside the app): identities are always read. */
  private readonly identities: IdentityCache<StaffIdentity> | null;

  /**
   * `readers`: the reader pool, where there is one (a Postgres server): then the reads need no
   * transaction (see `ReadSessions`). Absent (the embedded database, a repository built outside the
   * app): every read is a transaction on `dataSource`.
   */
  constructor(@InjectDataSource() dataSource: DataSource, @Optional() notifications?: DatabaseNotifications, @Optional() readers?: ReaderPool) {
    super();
    this.sessions = new ReadSessions(dataSource, readers?.dataSource ?? null);
    this.identities = notifications
      ? new IdentityCache<StaffIdentity>(notifications, async () => {
          const [row] = (await dataSource.query(IDENTITY_GENERATION)) as { generation: string }[];
          return Number(row.generation);
        })
      : null;
  }

  onModuleDestroy(): void {
    this.identities?.stop();
  }

  /**
   * The staff user a token names, read on every request (a deactivated user or a changed role
   * counts at once). With `keepOpenFor` (the request's `RequestRead`), the read stays open (its
   * connection held; on the embedded database its transaction too) for the request's `inOneRead` to
   * continue: identity, access probe and the request's statements then share one connection (and
   * there one BEGIN and one COMMIT). The caller must end it (`RequestRead.end`) before anything that
   * waits on another connection (such as recording a refusal).
   */
  async staffUserBy(match: StaffLookup, { keepOpenFor, cached = false }: StaffLookupOptions = {}): Promise<StaffIdentity | null> {
    const cache = cached && this.identities?.usable() ? this.identities : null;
    const key = `${match.by}:${match.value}`;
    const lookup = async (open: OpenRead): Promise<StaffIdentity | null> => {
      // A read opened by an enclosing one has no generation of its own: it reads the identity.
      const generation = cache ? open.identityGeneration : undefined;
      const hit = generation === undefined ? undefined : cache?.get(key, generation);
      if (hit) return hit;
      const [row] = await open.run<StaffIdentity>(STAFF_LOOKUPS[match.by], [match.value]);
      if (row && generation !== undefined) cache?.put(key, row, generation);
      return row ?? null;
    };
    const begin = cache ? IDENTITY_READ_SESSION_BEGIN : undefined;
    return keepOpenFor ? this.sessions.openForRequest(keepOpenFor, lookup, begin) : this.sessions.transaction(lookup, begin);
  }

  /** `staffUserBy` a username (what development tokens name). */
  staffUserByUsername(username: string, options: StaffLookupOptions = {}): Promise<StaffIdentity | null> {
    return this.staffUserBy({ by: 'username', value: username }, options);
  }

  /**
   * A place for the read an HTTP request's identity lookup leaves open (`staffUserBy` with
   * `keepOpenFor`), ended when `response` closes if the request's `inOneRead` never took it.
   */
  requestRead(response: ClosingResponse): RequestRead {
    return this.sessions.requestRead(response);
  }

  /**
   * Runs `work` with one open read (`CohortRead`): every read through it shares one connection (a
   * request's identity, access probe, statements and patient header: one checkout from the pool, and
   * on the embedded database one transaction instead of one each). It continues the read `request`'s
   * identity lookup left open, when there is one, else opens its own; a transaction ends by COMMIT
   * when `work` settles, ROLLBACK when it fails.
   */
  inOneRead<T>(work: (read: CohortRead) => Promise<T>, request?: RequestRead): Promise<T> {
    return this.sessions.inOneRead((open) => CohortRead.over(open, work), request);
  }

  /**
   * The charts of many patients, read in one REPEATABLE READ snapshot with four statements (the
   * patients; their encounters; their observations, with a filter also their counts; every other
   * record type in one, `chartsRecords`), each record type identical to what `chart` reads for that patient alone: same
   * rows, same order, same cap. Patients that do not exist are absent from the map. For the
   * measure-results recompute, which evaluates a chunk of the cohort at a time.
   *
   * `filters`: read only the observations and encounters they let through (the rest of the chart
   * whole), as `chart` would give them filtered afterwards; `truncated` still says whether the whole
   * chart hits the cap. A patient with more rows of a filtered type than the cap gets the whole,
   * capped list of that type instead, since which rows survive the cap depends on all of them.
   */
  async charts(patientIds: string[], filters: ChartReadFilters = {}): Promise<Map<string, VersionedChart>> {
    const charts = new Map<string, VersionedChart>();
    if (patientIds.length === 0) return charts;
    return this.transaction(async (run) => {
      const patients = await run<PatientRow & { dataVersion: string }>('patientsByIds', [patientIds]);
      if (patients.length === 0) return charts;
      const ids = patients.map((row) => row.id);
      const coded = filters.observations ? await this.filteredObservations(run, ids, filters.observations) : null;
      const windowed = filters.encounters ? await this.filteredEncounters(run, ids, filters.encounters) : null;
      const encounters = windowed?.rows ?? byPatient(await run<OfPatient<EncounterRow>>('chartsEncounters', [ids]));
      const observations = coded?.rows ?? byPatient(await run<OfPatient<ObservationRow>>('chartsObservations', [ids]));
      const records = byPart(await run<OfPatient<unknown> & { part: BulkRecordPart }>('chartsRecords', [ids]));
      const parts = { encounters, observations, ...records };
      for (const { dataVersion, ...patient } of patients) {
        let truncated = false;
        const take = <T>(groups: Map<string, T[]>): T[] => {
          const capped = cut(groups.get(patient.id) ?? [], CHART_ROW_CAP);
          truncated ||= capped.truncated;
          return capped.rows;
        };
        const chart: PatientChart = {
          patient,
          encounters: take(parts.encounters),
          observations: take(parts.observations),
          conditions: take(parts.conditions),
          medications: take(parts.medications),
          dispenses: take(parts.dispenses),
          procedures: take(parts.procedures),
          allergies: take(parts.allergies),
          requests: take(parts.requests),
          adverseEvents: take(parts.adverseEvents),
          immunizations: take(parts.immunizations),
          communications: take(parts.communications),
          administrations: take(parts.administrations),
          tasks: take(parts.tasks),
        };
        if (coded?.overCap.has(patient.id) || windowed?.overCap.has(patient.id)) truncated = true;
        charts.set(patient.id, { chart, truncated, dataVersion });
      }
      return charts;
    }, BULK_SNAPSHOT_SESSION_BEGIN);
  }

  /**
   * Each patient's observations that `filter` lets through, and which patients have more
   * observations of any code than the cap: those get their whole, capped list (in the same snapshot).
   */
  private async filteredObservations(run: Run, ids: string[], filter: ObservationReadFilter): Promise<Filtered<ObservationRow>> {
    const counts = await run<{ patientId: string; n: number }>('observationCounts', [ids]);
    const overCap = new Set(counts.filter((row) => row.n > CHART_ROW_CAP).map((row) => row.patientId));
    const rows = byPatient(await run<OfPatient<ObservationRow>>('chartsObservationsCoded', [ids, filter.codes, filter.since.codes, filter.since.instant]));
    if (overCap.size > 0) for (const [id, list] of byPatient(await run<OfPatient<ObservationRow>>('chartsObservations', [[...overCap]]))) rows.set(id, list);
    return { rows, overCap };
  }

  /** Each patient's encounters that `filter` lets through; over the cap, as `filteredObservations`. */
  private async filteredEncounters(run: Run, ids: string[], filter: EncounterReadFilter): Promise<Filtered<EncounterRow>> {
    const found = await run<OfPatient<EncounterRow> & { n: number }>('chartsEncountersWindowed', [ids, filter.endedSince, filter.allTimeCodes]);
    const rows = byPatient(found);
    const overCap = new Set(found.filter((row) => row.n > CHART_ROW_CAP).map((row) => row.patientId));
    if (overCap.size > 0) for (const [id, list] of byPatient(await run<OfPatient<EncounterRow>>('chartsEncounters', [[...overCap]]))) rows.set(id, list);
    return { rows, overCap };
  }

  /**
   * Another module's fixed statements over patient data (`Query`), in a read of their own;
   * `snapshot` makes it a REPEATABLE READ transaction, when several statements must see one snapshot.
   */
  override readStatements<T>(work: (query: Query) => Promise<T>, { snapshot = false }: { snapshot?: boolean } = {}): Promise<T> {
    if (snapshot) return this.sessions.transaction((open) => work(open.query), SNAPSHOT_SESSION_BEGIN);
    return super.readStatements(work);
  }

  /** Each read of its own: a new read (a connection from the pool) per call. */
  protected reading<T>(work: (open: OpenRead) => Promise<T>): Promise<T> {
    return this.sessions.transaction(work);
  }

  private transaction<T>(work: (run: Run) => Promise<T>, begin?: string): Promise<T> {
    return this.sessions.transaction((open) => work(open.run), begin);
  }
}

type OfPatient<T> = { patientId: string; rows: T[] };
type Filtered<T> = { rows: Map<string, T[]>; overCap: Set<string> };

/** `chartsRecords`' rows: each record type's rows by patient id (a type no patient has: an empty map). */
function byPart(rows: (OfPatient<unknown> & { part: BulkRecordPart })[]): { [K in BulkRecordPart]: Map<string, PatientChart[K]> } {
  const parts = Object.fromEntries(BULK_RECORD_PARTS.map((part) => [part, new Map<string, unknown[]>()])) as Record<BulkRecordPart, Map<string, unknown[]>>;
  for (const row of rows) parts[row.part].set(row.patientId, row.rows);
  return parts as { [K in BulkRecordPart]: Map<string, PatientChart[K]> };
}

/** One row per patient (`chartsOf`): the patient's records by patient id. */
function byPatient<T>(rows: OfPatient<T>[]): Map<string, T[]> {
  return new Map(rows.map((row) => [row.patientId, row.rows]));
}
