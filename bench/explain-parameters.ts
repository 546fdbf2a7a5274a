import { CohortStatementName } from '../src/cohort/cohort.statements';
import { CHART_ROW_CAP } from '../src/cohort/cohort.repository';
import { ENCOUNTER_ROW_CAP } from '../src/tools/definitions/patient-encounters.tool';
import { LAB_ROW_CAP } from '../src/tools/definitions/patient-labs.tool';
import { storePeriod } from '../src/measure-results/store-period';
import { careGapEncounterFilter } from '../src/clinical/care-gaps/cql/encounter-retrieves';
import { careGapObservationFilter } from '../src/clinical/care-gaps/cql/observation-retrieves';
import { missingDataObservationCodes } from '../src/clinical/missing-data';
import { MAX_PAGE_PATIENTS } from '../src/deqm/care-gaps-operation.dto';
import { LAB_CODE } from './tool-reads';

/** Real values from the bench database that the statements are explained with. */
export interface ExplainContext {
  username: string;
  careTeamIds: string[];
  patientId: string;
  /** Up to 100 of the patient's newest encounters, and a few of its observations. */
  encounterIds: string[];
  observationIds: string[];
  /** Today (UTC) as the end of windows. */
  now: Date;
}

const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * Parameters for EVERY cohort statement, as the repository binds them for a typical request. Typed
 * as a record over the statement names, so a new statement does not compile until it is given
 * parameters here (and `explain-parameters.spec.ts` checks the count of each against its SQL).
 */
export const EXPLAIN_PARAMETERS: Record<CohortStatementName, (c: ExplainContext) => unknown[]> = {
  staffUserByUsername: (c) => [c.username],
  // The fixture staff have no outside identifiers: each probe finds nobody, on its unique index.
  staffUserBySubject: () => ['idp-subject-0001'],
  staffUserByEmail: () => ['Nobody@Example.org'],
  staffUserByNpi: () => ['1234567893'],
  patientAccess: (c) => [c.patientId, c.careTeamIds],
  patientById: (c) => [c.patientId],
  // A search as a clinician types it: an MRN, or the first letters of a family name.
  patientsByMrn: (c) => [c.careTeamIds, 'VGL-000103', 21],
  patientsByName: (c) => [c.careTeamIds, 'sm%', null, null, null, 21],
  // An MCP session's patient picker: the team's first patients by name (PICKER_MAX_PATIENTS + 1).
  patientsOfCareTeams: (c) => [c.careTeamIds, 101],
  // DEQM $care-gaps for a care team: its first page of patient ids (MAX_PAGE_PATIENTS + 1).
  patientIdsOfCareTeamPage: (c) => [c.careTeamIds[0], null, MAX_PAGE_PATIENTS + 1],
  // The tools' reads (the access probe folded in; no break glass): a two-year window of every class,
  // as a clinician asking "recent visits" would; the bench's lab; the whole chart.
  gatedEncounters: (c) => [c.patientId, c.careTeamIds, false, new Date(c.now.getTime() - 2 * YEAR_MS), c.now, null, ENCOUNTER_ROW_CAP + 1],
  gatedLaboratoryResults: (c) => [c.patientId, c.careTeamIds, false, null, null, [LAB_CODE], LAB_ROW_CAP + 1],
  gatedPatient: (c) => [c.patientId, c.careTeamIds, false],
  gatedChart: (c) => [c.patientId, c.careTeamIds, false, CHART_ROW_CAP + 1],
  // care_gap_lookup's chart, with the attestations for the period it evaluates by default.
  gatedChartWithAttestations: (c) => {
    const period = storePeriod(c.now);
    return [c.patientId, c.careTeamIds, false, CHART_ROW_CAP + 1, period.start, period.end];
  },
  // The same for the built-in measures: only the observations and encounters they retrieve.
  gatedCareGapChart: (c) => {
    const period = storePeriod(c.now);
    const observations = careGapObservationFilter(period);
    const encounters = careGapEncounterFilter(period);
    return [c.patientId, c.careTeamIds, false, CHART_ROW_CAP + 1, period.start, period.end, [...observations.codes], [...observations.since.codes], observations.since.instant, encounters.endedSince, [...encounters.allTimeCodes]];
  },
  // `missing_data_check`: only the observations its elements look at.
  gatedMissingDataChart: (c) => [c.patientId, c.careTeamIds, false, CHART_ROW_CAP + 1, [...missingDataObservationCodes()]],
  notesOfEncounters: (c) => [c.patientId, c.encounterIds],
  patientChart: (c) => [c.patientId, CHART_ROW_CAP + 1],
  // The measure-results recompute's bulk reads, explained here for one patient (the bench's chunks are larger).
  patientsByIds: (c) => [[c.patientId]],
  chartsEncounters: (c) => [[c.patientId]],
  chartsEncountersWindowed: (c) => {
    const filter = careGapEncounterFilter(storePeriod());
    return [[c.patientId], filter.endedSince, [...filter.allTimeCodes]];
  },
  chartsObservations: (c) => [[c.patientId]],
  chartsObservationsCoded: (c) => {
    // The recompute's read for the period it stores.
    const filter = careGapObservationFilter(storePeriod());
    return [[c.patientId], [...filter.codes], [...filter.since.codes], filter.since.instant];
  },
  observationCounts: (c) => [[c.patientId]],
  chartsRecords: (c) => [[c.patientId]],
  observationsByIds: (c) => [c.patientId, c.observationIds.slice(0, 5)],
  encountersByIds: (c) => [c.patientId, c.encounterIds.slice(0, 5)],
  // No condition ids are collected: the plan of an id list is the same as for any other table's.
  conditionsByIds: (c) => [c.patientId, [c.patientId]],
  citedRows: (c) => [c.patientId, [c.patientId], c.encounterIds.slice(0, 3), c.observationIds.slice(0, 3), [], [], [], [], [], [], []],
};

/** The highest `$n` in a statement: how many parameters it binds. */
export function parameterCount(sql: string): number {
  return Math.max(0, ...[...sql.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
}
