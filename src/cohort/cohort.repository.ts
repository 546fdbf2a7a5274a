import { Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  CitationKind,
  ConditionRow,
  EncounterRow,
  NoteRow,
  ObservationRow,
  PatientChart,
  PatientRow,
} from './chart.types';
import { attestationsByMeasure, CareGapAttestation } from './care-gap-attestations';
import { Capped, cut } from './chart-measure-records';
import { BULK_RECORD_PARTS, BULK_SNAPSHOT_SESSION_BEGIN, BulkRecordPart, CohortStatementName, IDENTITY_GENERATION, IDENTITY_READ_SESSION_BEGIN, SNAPSHOT_SESSION_BEGIN } from './cohort.statements';
import { DatabaseNotifications } from '../database/database-notifications';
import { IdentityCache } from './identity-cache';
import { EncounterClass } from './enum';
import { namePatterns, PatientSearch } from './patient-search-terms';
import type { StaffIdentity, StaffLookup, StaffLookupOptions, TimeWindow, VersionedChart, ObservationReadFilter, EncounterReadFilter, ChartReadFilters } from './cohort-read.types';
import { OpenRead, Query, ReadSessions, RequestReadScope, Run } from './read-session.repository';

export type { Query, RequestReadScope } from './read-session.repository';
export type { Capped } from './chart-measure-records';
export type { StaffIdentity, StaffLookup, StaffLookupOptions, TimeWindow, VersionedChart, ObservationReadFilter, EncounterReadFilter, ChartReadFilters } from './cohort-read.types';

const STAFF_LOOKUPS = {
  username: 'staffUserByUsername',
  subject: 'staffUserBySubject',
  email: 'staffUserByEmail',
  npi: 'staffUserByNpi',
} as const satisfies Record<StaffLookup['by'], CohortStatementName>;

/** Every citation kind, in the order `citedRows` takes their ids as parameters. */
const CITATION_KINDS: readonly CitationKind[] = ['pat', 'enc', 'obs', 'cond', 'med', 'proc', 'note', 'allergy', 'req', 'ae'];

/** The largest history the derived tools read per record type; more is reported as a partial result. */
export const CHART_ROW_CAP = 5000;

/**
 * The only code that runs SQL over patient data. Every call runs one named statement from
 * `COHORT_STATEMENTS` inside a READ ONLY transaction, as the SELECT-only `vigil_reader` role; other
 * modules' fixed statements over patient data (the worklist's, the access checks') run through
 * `readStatements`, in the same kind of transaction and, inside `inOneRead`, the same one.
 */
@Injectable()
export class CohortRepository implements OnModuleDestroy {
  private readonly sessions: ReadSessions;
  /** Absent where nothing can be heard of changes (a repository built outside the app): identities are always read. */
  private readonly identities: IdentityCache<StaffIdentity> | null;

  constructor(@InjectDataSource() dataSource: DataSource, @Optional() notifications?: DatabaseNotifications) {
    this.sessions = new ReadSessions(dataSource);
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
   * counts at once). With `keepOpen`, inside a request scope (`requestReadScope`), the read
   * transaction stays open for the request's `inOneRead` to continue: identity, access probe and
   * the request's statements then share one BEGIN and one COMMIT. The caller must `endRequestRead`
   * before anything that waits on another connection (such as recording a refusal).
   */
  async staffUserBy(match: StaffLookup, { keepOpen = false, cached = false }: StaffLookupOptions = {}): Promise<StaffIdentity | null> {
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
    return keepOpen ? this.sessions.openForRequest(lookup, begin) : this.sessions.read(lookup, begin);
  }

  /** `staffUserBy` a username (what development tokens name). */
  staffUserByUsername(username: string, options: StaffLookupOptions = {}): Promise<StaffIdentity | null> {
    return this.staffUserBy({ by: 'username', value: username }, options);
  }

  /** A slot for one HTTP request's read left open by its identity lookup (see `RequestReadScope`). */
  requestReadScope(): RequestReadScope {
    return this.sessions.requestReadScope();
  }

  /** Commits and hands back the read this request's identity lookup left open, if any. */
  endRequestRead(): Promise<void> {
    return this.sessions.endRequestRead();
  }

  async patientAccess(patientId: string, careTeamIds: string[]): Promise<{ exists: boolean; onCareTeam: boolean }> {
    const [row] = await this.read((run) => run<{ exists: boolean; onCareTeam: boolean }>('patientAccess', [patientId, careTeamIds]));
    return { exists: row.exists, onCareTeam: row.exists && row.onCareTeam };
  }

  async patient(patientId: string): Promise<PatientRow | null> {
    const [row] = await this.read((run) => run<PatientRow>('patientById', [patientId]));
    return row ?? null;
  }

  /** The rows of these patients (those that exist), in one read; the caller has checked access to each. */
  async patientsByIds(patientIds: string[]): Promise<PatientRow[]> {
    if (patientIds.length === 0) return [];
    const rows = await this.read((run) => run<PatientRow & { dataVersion?: string }>('patientsByIds', [patientIds]));
    return rows.map(({ dataVersion: _version, ...patient }) => patient);
  }

  /**
   * Patients on the care teams `careTeamIds` matching one search (see `PatientSearch`), ordered by
   * name, at most `limit`. A patient on no such team is never read, so the search cannot tell them
   * from one that does not exist.
   */
  async searchPatients(careTeamIds: string[], search: PatientSearch, limit: number): Promise<Capped<PatientRow>> {
    const rows = await this.read((run) =>
      'mrn' in search
        ? run<PatientRow>('patientsByMrn', [careTeamIds, search.mrn, limit + 1])
        : run<PatientRow>('patientsByName', [careTeamIds, ...namePatterns(search), search.birthDate ?? null, limit + 1]),
    );
    return { rows: rows.slice(0, limit), truncated: rows.length > limit };
  }

  /** Every patient on the care teams `careTeamIds`, ordered by name, at most `limit` (a patient picker's list). */
  async teamPatients(careTeamIds: string[], limit: number): Promise<Capped<PatientRow>> {
    const rows = await this.read((run) => run<PatientRow>('patientsOfCareTeams', [careTeamIds, limit + 1]));
    return { rows: rows.slice(0, limit), truncated: rows.length > limit };
  }

  /** A keyset page of one care team's patient ids, in id order: those after `after` (null: the first), at most `limit`. */
  async teamPatientIdPage(careTeamId: string, after: string | null, limit: number): Promise<Capped<{ id: string }>> {
    const rows = await this.read((run) => run<{ id: string }>('patientIdsOfCareTeamPage', [careTeamId, after, limit + 1]));
    return { rows: rows.slice(0, limit), truncated: rows.length > limit };
  }

  /**
   * Encounters in the window, newest first, each with its notes; with the patient's own row, read
   * in the same transaction (the envelope's header needs it, and one read costs fewer round trips).
   */
  async encounters(
    patientId: string,
    window: TimeWindow,
    encounterClass: EncounterClass | null,
    cap: number,
  ): Promise<Capped<EncounterRow & { notes: NoteRow[] }> & { patient: PatientRow | null }> {
    return this.read(async (run) => {
      const [patient] = await run<PatientRow>('patientById', [patientId]);
      const found = await run<EncounterRow>('encountersInWindow', [patientId, window.from, window.to, encounterClass, cap + 1]);
      const { rows, truncated } = cut(found, cap);
      const notes = rows.length ? await run<NoteRow>('notesOfEncounters', [patientId, rows.map((row) => row.id)]) : [];
      return { patient: patient ?? null, rows: rows.map((row) => ({ ...row, notes: notes.filter((note) => note.encounterId === row.id) })), truncated };
    });
  }

  /** Laboratory results in the window (no vital signs, no surveys), newest first, with the patient's own row (as `encounters`). */
  async laboratoryResults(patientId: string, window: TimeWindow, codes: string[] | null, cap: number): Promise<Capped<ObservationRow> & { patient: PatientRow | null }> {
    return this.read(async (run) => {
      const [patient] = await run<PatientRow>('patientById', [patientId]);
      const found = await run<ObservationRow>('laboratoryResultsInWindow', [patientId, window.from, window.to, codes, cap + 1]);
      return { patient: patient ?? null, ...cut(found, cap) };
    });
  }

  /** The whole record the derived tools evaluate, in one statement (`patientChart`); `truncated` when any record type hit the cap. */
  async chart(patientId: string): Promise<{ chart: PatientChart | null; truncated: boolean }> {
    const [row] = await this.read((run) => run<ChartRow>('patientChart', [patientId, CHART_ROW_CAP + 1]));
    return row ? chartOf(row) : { chart: null, truncated: false };
  }

  /**
   * `chart`, and in the same statement the patient's attestations (approved care-gap closures) that
   * stand for the period, by measure (`care-gap-attestations.ts`): what `care_gap_lookup` reads.
   */
  async chartWithAttestations(
    patientId: string,
    period: { start: string; end: string },
  ): Promise<{ chart: PatientChart | null; truncated: boolean; attestations: Map<string, CareGapAttestation[]> }> {
    const [row] = await this.read((run) => run<ChartRow & { attestations: AttestationRow[] }>('patientChartWithAttestations', [patientId, CHART_ROW_CAP + 1, period.start, period.end]));
    return row ? { ...chartOf(row), attestations: attestationsByMeasure(row.attestations) } : { chart: null, truncated: false, attestations: new Map() };
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

  /** Observations, encounters (with their notes) and conditions of this patient, by id: a proposal's evidence. */
  async citedRows(patientId: string, ids: { observations: string[]; encounters: string[]; conditions: string[] }) {
    return this.read(async (run) => {
      const observations = ids.observations.length ? await run<ObservationRow>('observationsByIds', [patientId, ids.observations]) : [];
      const encounters = ids.encounters.length ? await run<EncounterRow>('encountersByIds', [patientId, ids.encounters]) : [];
      const conditions = ids.conditions.length ? await run<ConditionRow>('conditionsByIds', [patientId, ids.conditions]) : [];
      const notes = encounters.length ? await run<NoteRow>('notesOfEncounters', [patientId, encounters.map((row) => row.id)]) : [];
      return {
        observations,
        conditions,
        encounters: encounters.map((row) => ({ ...row, notes: notes.filter((note) => note.encounterId === row.id) })),
      };
    });
  }

  /** The subset of `citations` (`obs:<uuid>`, …) that name real rows of this patient. */
  async existingCitations(patientId: string, citations: string[]): Promise<Set<string>> {
    const kinds = CITATION_KINDS;
    const idsOf = (kind: string) => citations.filter((citation) => citation.startsWith(`${kind}:`)).map((citation) => citation.slice(kind.length + 1));
    const rows = await this.read((run) => run<{ citation: string }>('citedRows', [patientId, ...kinds.map(idsOf)]));
    return new Set(rows.map((row) => row.citation));
  }

  /**
   * Runs `work` with every cohort read inside it sharing one read transaction (a request's identity,
   * access probe, statements and patient header: one BEGIN and one COMMIT instead of one pair each).
   * Reads outside any such scope each get their own transaction.
   */
  inOneRead<T>(work: () => Promise<T>): Promise<T> {
    return this.sessions.inOneRead(work);
  }

  /**
   * Another module's fixed statements over patient data (`Query`), in the enclosing `inOneRead`'s
   * transaction or one of their own; `snapshot` gives them one of their own at REPEATABLE READ,
   * when several statements must see one snapshot.
   */
  readStatements<T>(work: (query: Query) => Promise<T>, { snapshot = false }: { snapshot?: boolean } = {}): Promise<T> {
    if (snapshot) return this.sessions.transaction((open) => work(open.query), SNAPSHOT_SESSION_BEGIN);
    return this.sessions.read((open) => work(open.query));
  }

  private read<T>(work: (run: Run) => Promise<T>): Promise<T> {
    return this.sessions.read((open) => work(open.run));
  }

  private transaction<T>(work: (run: Run) => Promise<T>, begin?: string): Promise<T> {
    return this.sessions.transaction((open) => work(open.run), begin);
  }
}

type OfPatient<T> = { patientId: string; rows: T[] };
type AttestationRow = { measureId: string; attestation: CareGapAttestation };
/** `patientChart`'s row: the patient, and each record type as an array up to the cap + 1. */
type ChartRow = { patient: PatientRow } & Omit<PatientChart, 'patient'>;

/** A chart from `patientChart`'s row: each record type cut at the cap (as `charts` cuts them); `truncated` when any was. */
function chartOf(row: ChartRow): { chart: PatientChart; truncated: boolean } {
  let truncated = false;
  const take = <T>(rows: T[]): T[] => {
    const capped = cut(rows, CHART_ROW_CAP);
    truncated ||= capped.truncated;
    return capped.rows;
  };
  const chart: PatientChart = {
    patient: row.patient,
    encounters: take(row.encounters),
    observations: take(row.observations),
    conditions: take(row.conditions),
    medications: take(row.medications),
    dispenses: take(row.dispenses),
    procedures: take(row.procedures),
    allergies: take(row.allergies),
    requests: take(row.requests),
    adverseEvents: take(row.adverseEvents),
    immunizations: take(row.immunizations),
    communications: take(row.communications),
    administrations: take(row.administrations),
    tasks: take(row.tasks),
  };
  return { chart, truncated };
}

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
