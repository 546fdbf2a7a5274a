import { CitationKind, ConditionRow, EncounterRow, NoteRow, ObservationRow, PatientChart, PatientRow } from './chart.types';
import { attestationsByMeasure, CareGapAttestation } from './care-gap-attestations';
import { Capped, cut } from './chart-measure-records';
import { EncounterClass } from './enum';
import { namePatterns, PatientSearch } from './patient-search-terms';
import type { AccessGate, ChartReadFilters, PatientProbe, TimeWindow } from './cohort-read.types';
import type { CohortStatementName } from './cohort.statements';
import type { OpenRead, Query, Run } from './read-session.repository';

/** Every citation kind, in the order `citedRows` takes their ids as parameters. */
const CITATION_KINDS: readonly CitationKind[] = ['pat', 'enc', 'obs', 'cond', 'med', 'proc', 'note', 'allergy', 'req', 'ae'];

/** The largest history the derived tools read per record type; more is reported as a partial result. */
export const CHART_ROW_CAP = 5000;

/**
 * The cohort's reads of one patient or a few, each one named statement (or a few) from
 * `COHORT_STATEMENTS` read-only as the SELECT-only `vigil_reader` (see `ReadSessions`): written once
 * here, and run either each in a read of its own (`CohortRepository`) or all in one open read
 * (`CohortRead`, what `CohortRepository.inOneRead` hands its work).
 */
export abstract class CohortReader {
  /** Runs `work` in this reader's read: a new one per call, or the one open read it is bound to. */
  protected abstract reading<T>(work: (open: OpenRead) => Promise<T>): Promise<T>;

  async patientAccess(patientId: string, careTeamIds: string[]): Promise<{ exists: boolean; onCareTeam: boolean }> {
    const [row] = await this.read((run) => run<{ exists: boolean; onCareTeam: boolean }>('patientAccess', [patientId, careTeamIds]));
    return { exists: row.exists, onCareTeam: row.exists && row.onCareTeam };
  }

  async patient(patientId: string): Promise<PatientRow | null> {
    const [row] = await this.read((run) => run<PatientRow>('patientById', [patientId]));
    return row ?? null;
  }

  /** The patient's row behind the access probe, in one statement (`gated`): the probe, then the row. */
  async gatedPatient(gate: AccessGate): Promise<PatientRow | null> {
    const row = await this.gated<{ patient: PatientRow | null }>(gate, 'gatedPatient', []);
    return row.patient;
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
   * Encounters in the window, newest first, each with its notes, and the patient's own row (the
   * envelope's header needs it): one statement with the access probe (`gated`).
   */
  async encounters(
    gate: AccessGate,
    window: TimeWindow,
    encounterClass: EncounterClass | null,
    cap: number,
  ): Promise<Capped<EncounterRow & { notes: NoteRow[] }> & { patient: PatientRow | null }> {
    const row = await this.gated<ToolRows<EncounterRow & { notes: NoteRow[] }>>(gate, 'gatedEncounters', [window.from, window.to, encounterClass, cap + 1]);
    return { patient: row.patient, ...cut(row.rows, cap) };
  }

  /** Laboratory results in the window (no vital signs, no surveys), newest first, with the patient's own row (as `encounters`). */
  async laboratoryResults(gate: AccessGate, window: TimeWindow, codes: string[] | null, cap: number): Promise<Capped<ObservationRow> & { patient: PatientRow | null }> {
    const row = await this.gated<ToolRows<ObservationRow>>(gate, 'gatedLaboratoryResults', [window.from, window.to, codes, cap + 1]);
    return { patient: row.patient, ...cut(row.rows, cap) };
  }

  /** The whole record the derived tools evaluate, in one statement (`patientChart`); `truncated` when any record type hit the cap. */
  async chart(patientId: string): Promise<{ chart: PatientChart | null; truncated: boolean }> {
    const [row] = await this.read((run) => run<ChartRow>('patientChart', [patientId, CHART_ROW_CAP + 1]));
    return row ? chartOf(row) : { chart: null, truncated: false };
  }

  /** `chart` for a derived tool: in one statement with the access probe (`gated`). */
  async gatedChart(gate: AccessGate): Promise<{ chart: PatientChart | null; truncated: boolean }> {
    const row = await this.gated<ChartRow | NoPatient>(gate, 'gatedChart', [CHART_ROW_CAP + 1]);
    return row.patient ? chartOf(row) : { chart: null, truncated: false };
  }

  /**
   * `gatedChart`, and in the same statement the patient's attestations (approved care-gap closures)
   * that stand for the period, by measure (`care-gap-attestations.ts`): what `care_gap_lookup` reads.
   */
  async gatedChartWithAttestations(
    gate: AccessGate,
    period: { start: string; end: string },
  ): Promise<{ chart: PatientChart | null; truncated: boolean; attestations: Map<string, CareGapAttestation[]> }> {
    const row = await this.gated<(ChartRow & { attestations: AttestationRow[] }) | NoPatient>(gate, 'gatedChartWithAttestations', [CHART_ROW_CAP + 1, period.start, period.end]);
    return row.patient ? { ...chartOf(row), attestations: attestationsByMeasure(row.attestations) } : { chart: null, truncated: false, attestations: new Map() };
  }

  /**
   * `gatedChartWithAttestations` for the built-in care-gap measures: only the observations and
   * encounters `filters` let through (`gatedCareGapChart`), which is all those measures read (the
   * recompute reads the same). A patient with as many observations or encounters as the cap gets
   * the whole chart read instead, so the cap cuts exactly as there (`truncated` included).
   */
  async gatedCareGapChart(
    gate: AccessGate,
    period: { start: string; end: string },
    filters: Required<ChartReadFilters>,
  ): Promise<{ chart: PatientChart | null; truncated: boolean; attestations: Map<string, CareGapAttestation[]> }> {
    const { observations, encounters } = filters;
    const row = await this.gated<(ChartRow & { attestations: AttestationRow[]; observationCount: number; encounterCount: number }) | NoPatient>(gate, 'gatedCareGapChart', [
      CHART_ROW_CAP + 1,
      period.start,
      period.end,
      observations.codes,
      observations.since.codes,
      observations.since.instant,
      encounters.endedSince,
      encounters.allTimeCodes,
    ]);
    if (!row.patient) return { chart: null, truncated: false, attestations: new Map() };
    if (row.observationCount > CHART_ROW_CAP || row.encounterCount > CHART_ROW_CAP) return this.gatedChartWithAttestations(gate, period);
    return { ...chartOf(row), attestations: attestationsByMeasure(row.attestations) };
  }

  /**
   * `gatedChart` for `missing_data_check`: of the observations only those coded `observationCodes`
   * (any system), of the other record types only encounters, conditions, medications and allergies
   * (`gatedMissingDataChart`), the rest empty. A patient with as many observations, or rows of a type
   * left out, as the cap gets the whole chart read instead, so the cap cuts exactly as there
   * (`truncated` included).
   */
  async gatedMissingDataChart(gate: AccessGate, observationCodes: readonly string[]): Promise<{ chart: PatientChart | null; truncated: boolean }> {
    const row = await this.gated<(MissingDataChartRow & { fullestCount: number }) | NoPatient>(gate, 'gatedMissingDataChart', [CHART_ROW_CAP + 1, observationCodes]);
    if (!row.patient) return { chart: null, truncated: false };
    if (row.fullestCount > CHART_ROW_CAP) return this.gatedChart(gate);
    return chartOf({ ...row, dispenses: [], procedures: [], requests: [], adverseEvents: [], immunizations: [], communications: [], administrations: [], tasks: [] });
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

  /** Another module's fixed statements over patient data (`Query`), in this reader's transaction. */
  readStatements<T>(work: (query: Query) => Promise<T>): Promise<T> {
    return this.reading((open) => work(open.query));
  }

  private read<T>(work: (run: Run) => Promise<T>): Promise<T> {
    return this.reading((open) => work(open.run));
  }

  /**
   * Runs a gated statement (patient, care teams, break glass, then `params`) and hands its probe's
   * answer to the gate before anything of the row is used: a refusal throws here, and its row held
   * no record (the statement read none).
   */
  private async gated<T>(gate: AccessGate, name: CohortStatementName, params: unknown[]): Promise<T> {
    const [row] = await this.read((run) => run<PatientProbe & T>(name, [gate.patientId, gate.careTeamIds, gate.breakGlass, ...params]));
    gate.admit({ exists: row.exists, onCareTeam: row.exists && row.onCareTeam });
    return row;
  }
}

/**
 * The cohort's reads bound to one open read: what `CohortRepository.inOneRead` hands its work, so
 * everything the work reads through it shares that read (a request's identity, access probe,
 * statements and patient header: one connection checkout, and where reads are transactions one
 * BEGIN and one COMMIT). Only `inOneRead` makes one, and it refuses every read once its read has
 * ended. A `CohortRepository` is not one (its reads each open their own), so code written for one
 * open read cannot be handed the repository by mistake.
 */
export class CohortRead extends CohortReader {
  private ended = false;

  private constructor(private readonly open: OpenRead) {
    super();
  }

  /** Runs `work` with a `CohortRead` of `open`, which refuses to read once `work` has settled. */
  static async over<T>(open: OpenRead, work: (read: CohortRead) => Promise<T>): Promise<T> {
    const read = new CohortRead(open);
    try {
      return await work(read);
    } finally {
      read.ended = true;
    }
  }

  protected reading<T>(work: (open: OpenRead) => Promise<T>): Promise<T> {
    if (this.ended) return Promise.reject(new Error('a cohort read used after its transaction ended'));
    return work(this.open);
  }
}

type AttestationRow = { measureId: string; attestation: CareGapAttestation };
/** A gated tool statement's data: the patient's row, and the tool's rows up to the cap + 1. */
type ToolRows<T> = { patient: PatientRow | null; rows: T[] };
/** A gated chart's row when the patient does not exist (the gate has refused it by then; kept for the types). */
type NoPatient = { patient: null };
/** `patientChart`'s row: the patient, and each record type as an array up to the cap + 1. */
type ChartRow = { patient: PatientRow } & Omit<PatientChart, 'patient'>;

/** `gatedMissingDataChart`'s row: the patient, and the record types it reads. */
type MissingDataChartRow = Pick<ChartRow, 'patient' | 'observations' | 'encounters' | 'conditions' | 'medications' | 'allergies'>;

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
