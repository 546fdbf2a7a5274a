/**
 * Every SQL statement Vigil runs against cohort data, by name. Each is a fixed, parameterised string
 * written by hand: nothing a caller or a model sends is ever spliced into SQL, only bound as a
 * parameter. `src/database/statements.sql` lists these with every other statement the service
 * runs (`npm run sql:sync`, see `src/cli/statement-list.ts`); a unit test fails when it is stale,
 * and an integration test fails when the service runs a statement that is not in it.
 *
 * Column aliases produce the camelCase row types of `chart.types.ts`; timestamps are returned as
 * ISO-8601 UTC text, days as `YYYY-MM-DD`, numerics as float8 and jsonb as objects (the pg driver
 * parses it), so rows need no hydration.
 */

import { attestationRowsJson } from './care-gap-attestations';
import { onCareTeams } from './care-team-rule';
import { BULK_RECORD_PARTS, CHART_PARTS, ChartPart, chartColumns, chartColumnsBy, chartsOf, ENCOUNTER_COLUMNS, ISO, jsonRows, OBSERVATION_COLUMNS, PATIENT_COLUMNS } from './chart-parts.sql';
import { OBSERVATION_CATEGORY_SYSTEM, ObservationCategory } from './enum';

export { BULK_RECORD_PARTS, CHART_TABLES } from './chart-parts.sql';
export type { BulkRecordPart, ChartPart } from './chart-parts.sql';

const NOTE_COLUMNS = `id, encounter_id AS "encounterId", note_type AS "noteType", author_display AS "authorDisplay",
  ${ISO('authored_at', 'authoredAt')}, text`;

/**
 * A tool's read with its access probe folded in: patient $1, the caller's care teams $2, and $3
 * whether break glass is allowed for this call (the caller may read off their teams). The row always
 * says whether the patient exists and is on one of the teams (`patientAccess`'s answer, which
 * `AccessService` decides on); each of `data`'s columns (SQL by alias) is read only when the patient
 * is on one of the teams or $3 is true, else NULL: a refused caller's statement reads no record.
 * The probe's two EXISTS are evaluated once each, whatever the number of columns they gate (`OFFSET
 * 0` keeps the planner from inlining them into each CASE, which would run the team probe per column);
 * the data columns, uncorrelated subqueries, run only when their CASE takes them.
 */
const accessGated = (data: Record<string, string>) => `SELECT a."exists", a."onCareTeam",
  ${Object.entries(data).map(([alias, sql]) => `CASE WHEN a."onCareTeam" OR $3::boolean THEN ${sql} END AS "${alias}"`).join(',\n  ')}
FROM (SELECT EXISTS (SELECT 1 FROM patients p WHERE p.id = $1) AS "exists", ${onCareTeams('$1', '$2')} AS "onCareTeam" OFFSET 0) a`;

/** Patient $1's row as one JSON object (`patientById`'s columns), NULL when there is none. */
const PATIENT_JSON = `(SELECT to_json(p) FROM (SELECT ${PATIENT_COLUMNS} FROM patients WHERE id = $1) p)`;

/**
 * $4/$5: window [from, to) as timestamps or NULL; $6: LOINC codes or NULL for all; $7: row cap (+1 to
 * detect a cut). Laboratory results only: observations in FHIR's `laboratory` category, by system and
 * code, as `inObservationCategory` decides it in code. Vital signs, surveys and observations the
 * source gave no category are not laboratory results.
 */
const LABORATORY_RESULTS = jsonRows(
  OBSERVATION_COLUMNS,
  'observations',
  `patient_id = $1 AND category = '${ObservationCategory.Laboratory}' AND category_system = '${OBSERVATION_CATEGORY_SYSTEM}'
  AND ($4::timestamptz IS NULL OR effective_at >= $4) AND ($5::timestamptz IS NULL OR effective_at < $5)
  AND ($6::text[] IS NULL OR code = ANY($6))`,
  CHART_PARTS.observations.order,
  '$7',
);

/**
 * $4/$5: window [from, to) as timestamps or NULL; $6: class or NULL; $7: row cap (+1 to detect a cut).
 * Each encounter with its notes (`notes`: oldest first) as a JSON array.
 */
const ENCOUNTERS_WITH_NOTES = jsonRows(
  `${ENCOUNTER_COLUMNS},
  ${jsonRows(NOTE_COLUMNS, 'clinical_notes', 'patient_id = $1 AND encounter_id = t.id', 'authored_at, id', undefined, 'n')} AS notes`,
  'encounters',
  `patient_id = $1 AND ($4::timestamptz IS NULL OR start_at >= $4) AND ($5::timestamptz IS NULL OR start_at < $5)
  AND ($6::text IS NULL OR class = $6)`,
  CHART_PARTS.encounters.order,
  '$7',
);

/** The record types `gatedMissingDataChart` reads whole, and those it leaves out. */
const MISSING_DATA_WHOLE_PARTS = ['encounters', 'conditions', 'medications', 'allergies'] as const satisfies readonly ChartPart[];
const MISSING_DATA_LEFT_OUT = (Object.keys(CHART_PARTS) as ChartPart[]).filter(
  (part) => part !== 'observations' && !(MISSING_DATA_WHOLE_PARTS as readonly ChartPart[]).includes(part),
);

const pick = <K extends string>(columns: Record<string, string>, keys: readonly K[]) => Object.fromEntries(keys.map((key) => [key, columns[key]])) as Record<K, string>;

/** The staff user `condition` selects, with their care teams (see `staffUserByUsername`). */
const staffIdentity = (condition: string) => `SELECT u.id, u.username, u.role, u.active,
  coalesce(array_agg(m.care_team_id::text ORDER BY m.care_team_id) FILTER (WHERE m.care_team_id IS NOT NULL), '{}') AS "careTeamIds",
  coalesce(array_agg(t.code ORDER BY m.care_team_id) FILTER (WHERE m.care_team_id IS NOT NULL), '{}') AS "careTeamCodes"
FROM staff_users u LEFT JOIN care_team_members m ON m.staff_user_id = u.id LEFT JOIN care_teams t ON t.id = m.care_team_id
WHERE ${condition}
GROUP BY u.id`;

export const COHORT_STATEMENTS = {
  /**
   * Identity: the staff user a token names, with the care teams they belong to: ids and codes, in
   * the same order (a request naming a team by code, the worklist's, needs no other read). One
   * statement per identifier a token may be matched by (AUTH_IDENTITY_CLAIM), each on its unique index.
   */
  staffUserByUsername: staffIdentity('u.username = $1'),
  staffUserBySubject: staffIdentity('u.identity_subject = $1'),
  /** `lower(email)`: the expression of the e-mail's unique index, so "Jane@X.org" and "jane@x.org" are one person. */
  staffUserByEmail: staffIdentity('lower(u.email) = lower($1)'),
  staffUserByNpi: staffIdentity('u.npi = $1'),

  /**
   * Access: one statement answers both "does the patient exist" and "is it on one of these teams".
   * Both probes always run (neither depends on the other's answer), so a foreign patient and a
   * missing one cost the same work: `npm run bench:access` measured a ~1 % gap when the team probe
   * ran only for existing patients.
   */
  patientAccess: `SELECT EXISTS (SELECT 1 FROM patients p WHERE p.id = $1) AS "exists",
  ${onCareTeams('$1', '$2')} AS "onCareTeam"`,

  patientById: `SELECT ${PATIENT_COLUMNS} FROM patients WHERE id = $1`,

  /**
   * The tools' reads, each with the access probe folded in (`accessGated`: the probe's answer, and
   * the data only for a caller on the patient's teams or breaking glass), so a tool request runs one
   * statement between its BEGIN and COMMIT: the patient's row (`patient`) and the tool's rows as JSON
   * (`rows`), as `patientById` and the tool's own statement give them (same columns, order and cap).
   */
  gatedLaboratoryResults: accessGated({ patient: PATIENT_JSON, rows: LABORATORY_RESULTS }),

  /** The patient's row alone behind the access probe: what an agent turn reads to scrub its question (`ToolsService.questionForModel`). */
  gatedPatient: accessGated({ patient: PATIENT_JSON }),

  /** `gatedLaboratoryResults` for `patient_encounters`: each encounter with its notes. */
  gatedEncounters: accessGated({ patient: PATIENT_JSON, rows: ENCOUNTERS_WITH_NOTES }),

  /** `patientChart`'s columns behind the access probe (`accessGated`), $4: the cap; `patient` NULL when there is no such patient. */
  gatedChart: accessGated({ patient: PATIENT_JSON, ...chartColumnsBy('$4') }),

  /**
   * `gatedChart` with, as one more column, the attestations that stand for the period $5..$6
   * (`attestationRowsJson`): what `care_gap_lookup` reads.
   */
  gatedChartWithAttestations: accessGated({ patient: PATIENT_JSON, ...chartColumnsBy('$4'), attestations: attestationRowsJson('$1', '$5::date', '$6::date') }),

  /**
   * `gatedChartWithAttestations` with only the observations and encounters the built-in measures can
   * retrieve, as the recompute reads them (`chartsObservationsCoded`, `chartsEncountersWindowed`):
   * observations coded $7 (any system), of those coded $8 only rows whose latest instant is at or
   * after $9; encounters still open, ended at or after $10, or typed $11. Most of a chart is neither
   * (the 100k cohort: about a hundred observations a patient, a few of them measured), and decoding
   * it was a large part of `care_gap_lookup`'s CPU. `observationCount` and `encounterCount` count
   * every row up to the cap $4: at the cap the caller reads the whole chart instead, so that the cap
   * cuts the same rows as there.
   */
  gatedCareGapChart: accessGated({
    patient: PATIENT_JSON,
    ...chartColumnsBy('$4'),
    observations: jsonRows(
      OBSERVATION_COLUMNS,
      'observations',
      'patient_id = $1 AND code = ANY($7::text[]) AND (code <> ALL($8::text[]) OR coalesce(effective_end_at, effective_at) >= $9::timestamptz)',
      CHART_PARTS.observations.order,
      '$4',
    ),
    encounters: jsonRows(
      ENCOUNTER_COLUMNS,
      'encounters',
      'patient_id = $1 AND (end_at IS NULL OR end_at >= $10::timestamptz OR type_code = ANY($11::text[]))',
      CHART_PARTS.encounters.order,
      '$4',
    ),
    observationCount: '(SELECT count(*)::int FROM (SELECT 1 FROM observations WHERE patient_id = $1 LIMIT $4) c)',
    encounterCount: '(SELECT count(*)::int FROM (SELECT 1 FROM encounters WHERE patient_id = $1 LIMIT $4) c)',
    attestations: attestationRowsJson('$1', '$5::date', '$6::date'),
  }),

  /**
   * What `missing_data_check` reads (`checkMissingData`): the patient, the observations coded $5 (any
   * system), and the encounters, conditions, medications and allergies whole, each up to the cap $4;
   * none of the other record types. Most of a chart is observations its elements do not look at
   * (vital signs and labs of other codes), and decoding them was a large part of the tool's CPU.
   * `fullestCount`: the most rows, up to the cap, of the observations or of a record type left out;
   * at the cap the caller reads the whole chart instead, so that the cap cuts, and says it cut, as there.
   */
  gatedMissingDataChart: accessGated({
    patient: PATIENT_JSON,
    ...pick(chartColumnsBy('$4'), MISSING_DATA_WHOLE_PARTS),
    observations: jsonRows(OBSERVATION_COLUMNS, 'observations', 'patient_id = $1 AND code = ANY($5::text[])', CHART_PARTS.observations.order, '$4'),
    fullestCount: `GREATEST(${(['observations', ...MISSING_DATA_LEFT_OUT] as const).map((part) => `(SELECT count(*)::int FROM (SELECT 1 FROM ${CHART_PARTS[part].table} WHERE patient_id = $1 LIMIT $4) c)`).join(', ')})`,
  }),

  /**
   * Patient search, only among the patients on the caller's care teams ($1): by MRN without regard
   * to case ($2), or by name keys (`vigil_name_key`, LIKE patterns, each NULL when not given): a
   * family-name prefix ($2) with a given-name prefix ($3), or a prefix of the whole name typed either
   * way round ($4); and an optional birth date ($5). $6 (by name) / $3 (by MRN): the row cap (+1 to
   * detect a cut). Each condition is one of the name-key indexes' expressions (migration
   * PatientSearchNameKeys); the name search is planned per call, so the NULL ones fold away.
   */
  patientsByMrn: `SELECT ${PATIENT_COLUMNS} FROM patients p
WHERE upper(p.mrn) = upper($2) AND ${onCareTeams('p.id', '$1')}
ORDER BY p.family_name, p.given_name, p.id LIMIT $3`,

  patientsByName: `SELECT ${PATIENT_COLUMNS} FROM patients p
WHERE ($2::text IS NULL OR vigil_name_key(p.family_name) LIKE $2) AND ($3::text IS NULL OR vigil_name_key(p.given_name) LIKE $3)
  AND ($4::text IS NULL OR vigil_name_key(p.family_name) || vigil_name_key(p.given_name) LIKE $4 OR vigil_name_key(p.given_name) || vigil_name_key(p.family_name) LIKE $4)
  AND ($5::date IS NULL OR p.birth_date = $5::date) AND ${onCareTeams('p.id', '$1')}
ORDER BY p.family_name, p.given_name, p.id LIMIT $6`,

  /** Every patient on the care teams $1, by name, at most $2 (+1 to detect a cut): a patient picker's list. */
  patientsOfCareTeams: `SELECT ${PATIENT_COLUMNS} FROM patients p
WHERE ${onCareTeams('p.id', '$1')}
ORDER BY p.family_name, p.given_name, p.id LIMIT $2`,

  /** A page of care team $1's patient ids in id order: after $2 (NULL: from the first), at most $3 (+1 to detect more). */
  patientIdsOfCareTeamPage: `SELECT patient_id AS id FROM patient_care_teams
WHERE care_team_id = $1 AND ($2::uuid IS NULL OR patient_id > $2::uuid)
ORDER BY patient_id LIMIT $3`,

  notesOfEncounters: `SELECT ${NOTE_COLUMNS}
FROM clinical_notes WHERE patient_id = $1 AND encounter_id = ANY($2::uuid[])
ORDER BY authored_at, id`,

  /**
   * A patient's whole record in one statement: the patient's row (as `patientById` gives it) and
   * every record type as one JSON array (`chartJsonOf`: newest first, up to the cap $2). No row when
   * there is no such patient. What `gatedChart` reads for a derived tool, without the access probe:
   * for reads of a patient already granted (the executor, cited evidence, a patient's tool list). One round trip, not one per record
   * type: each statement costs the service a socket write, a protocol exchange and a row parse per
   * record, which made the chart read the largest part of a derived tool's CPU.
   */
  patientChart: `SELECT to_json(p) AS patient,
  ${chartColumns('$2')}
FROM (SELECT ${PATIENT_COLUMNS} FROM patients WHERE id = $1) p`,

  /**
   * The same records for many patients at once ($1: patient ids), for the measure-results
   * recompute: per patient, the rows the one-patient statement gives, in its order (the caller
   * applies the same cap), so charts are identical.
   */
  patientsByIds: `SELECT ${PATIENT_COLUMNS}, data_version::text AS "dataVersion" FROM patients WHERE id = ANY($1::uuid[]) ORDER BY id`,

  chartsEncounters: chartsOf('encounters'),

  chartsObservations: chartsOf('observations'),

  /**
   * `chartsOf` for every type of `BULK_RECORD_PARTS` in one statement, one row per patient and type
   * (`part`): per type the same rows and order as a statement of its own. One statement instead of
   * eleven: each costs a round trip, a parse and a plan per chunk, most of them over tables with no
   * row for the chunk's patients.
   */
  chartsRecords: BULK_RECORD_PARTS.map((part) => chartsOf(part, '', undefined, true)).join('\nUNION ALL\n'),

  /**
   * `chartsEncounters` with only the encounters still open, ended at or after $2, or of a type
   * coded $3 (any system); `n`: all of the patient's encounters, so the caller knows when the chart
   * cap would cut the whole list (see `careGapEncounterFilter`). FILTER, not WHERE: the count needs
   * every row, and the rows left out cost no JSON.
   */
  chartsEncountersWindowed: chartsOf('encounters', '', {
    filter: 't.end_at IS NULL OR t.end_at >= $2::timestamptz OR t.type_code = ANY($3::text[])',
  }),

  /**
   * `chartsObservations` restricted to codes $2 (any system), and of those with codes $3 to rows
   * whose latest instant (end, else start) is at or after $4: the recompute reads only the
   * observations a measure can retrieve (see `careGapObservationFilter`). WHERE, not FILTER with a
   * count as `chartsEncountersWindowed`: that form (one statement instead of this and
   * `observationCounts`) cost Postgres more CPU per patient in alternated recomputes on the 100k
   * cohort (0.40 to 0.45 ms against 0.32 to 0.36), more than the round trip it saves.
   */
  chartsObservationsCoded: chartsOf(
    'observations',
    ' AND t.code = ANY($2::text[]) AND (t.code <> ALL($3::text[]) OR coalesce(t.effective_end_at, t.effective_at) >= $4::timestamptz)',
  ),

  /**
   * How many observations each of patients $1 has, all codes: which of them the chart cap cuts
   * (their coded read is then replaced by the whole, capped one). An index-only count.
   */
  observationCounts: `SELECT patient_id::text AS "patientId", count(*)::int AS n FROM observations WHERE patient_id = ANY($1::uuid[]) GROUP BY patient_id`,

  /** Cited rows, for a proposal's evidence: only rows of patient $1. */
  observationsByIds: `SELECT ${OBSERVATION_COLUMNS} FROM observations WHERE patient_id = $1 AND id = ANY($2::uuid[]) ORDER BY effective_at DESC, id`,

  encountersByIds: `SELECT ${ENCOUNTER_COLUMNS} FROM encounters WHERE patient_id = $1 AND id = ANY($2::uuid[]) ORDER BY start_at DESC, id`,

  conditionsByIds: `SELECT ${CHART_PARTS.conditions.columns} FROM conditions WHERE patient_id = $1 AND id = ANY($2::uuid[]) ORDER BY recorded_at DESC, id`,

  /** Which of the cited rows ($2..$11: uuids per kind, in `CITATION_KINDS` order) exist and belong to the patient $1. */
  citedRows: `SELECT 'pat:' || id AS citation FROM patients WHERE id = $1 AND id = ANY($2::uuid[])
UNION ALL SELECT 'enc:' || id FROM encounters WHERE patient_id = $1 AND id = ANY($3::uuid[])
UNION ALL SELECT 'obs:' || id FROM observations WHERE patient_id = $1 AND id = ANY($4::uuid[])
UNION ALL SELECT 'cond:' || id FROM conditions WHERE patient_id = $1 AND id = ANY($5::uuid[])
UNION ALL SELECT 'med:' || id FROM medications WHERE patient_id = $1 AND id = ANY($6::uuid[])
UNION ALL SELECT 'proc:' || id FROM procedures WHERE patient_id = $1 AND id = ANY($7::uuid[])
UNION ALL SELECT 'note:' || id FROM clinical_notes WHERE patient_id = $1 AND id = ANY($8::uuid[])
UNION ALL SELECT 'allergy:' || id FROM allergies WHERE patient_id = $1 AND id = ANY($9::uuid[])
UNION ALL SELECT 'req:' || id FROM clinical_requests WHERE patient_id = $1 AND id = ANY($10::uuid[])
UNION ALL SELECT 'ae:' || id FROM adverse_events WHERE patient_id = $1 AND id = ANY($11::uuid[])`,
} as const;

export type CohortStatementName = keyof typeof COHORT_STATEMENTS;

/** The statements `CohortRepository.charts` runs: a chunk's patients (and the measures' codes) as arrays. */
export const BULK_CHART_STATEMENTS: readonly CohortStatementName[] = (Object.keys(COHORT_STATEMENTS) as CohortStatementName[]).filter(
  (name) => name.startsWith('charts') || name === 'patientsByIds' || name === 'observationCounts',
);
