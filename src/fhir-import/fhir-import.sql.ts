import { TableName } from './fhir-import.types';

/** Columns of each table the import writes, in statement order, with the array type each is sent as. */
export const TABLE_COLUMNS: Record<TableName, readonly (readonly [column: string, type: string])[]> = {
  patients: [
    ['id', 'uuid'], ['mrn', 'text'], ['given_name', 'text'], ['family_name', 'text'], ['birth_date', 'date'], ['sex', 'text'],
    ['phone', 'text'], ['email', 'text'], ['address_line', 'text'], ['city', 'text'], ['state', 'text'], ['postal_code', 'text'],
    ['deceased_at', 'timestamptz'], ['sex_code', 'text'], ['race', 'jsonb'], ['ethnicity', 'jsonb'],
  ],
  patient_care_teams: [['patient_id', 'uuid'], ['care_team_id', 'uuid']],
  encounters: [
    ['id', 'uuid'], ['patient_id', 'uuid'], ['class', 'text'], ['status', 'text'], ['type_system', 'text'], ['type_code', 'text'],
    ['type_display', 'text'], ['reason_system', 'text'], ['reason_code', 'text'], ['reason_display', 'text'],
    ['start_at', 'timestamptz'], ['end_at', 'timestamptz'], ['disposition', 'text'],
    ['discharge_disposition_system', 'text'], ['discharge_disposition_code', 'text'], ['class_code', 'text'], ['type_other_codings', 'jsonb'],
    ['diagnoses', 'jsonb'], ['reason_references', 'jsonb'], ['locations', 'jsonb'],
  ],
  observations: [
    ['id', 'uuid'], ['patient_id', 'uuid'], ['encounter_id', 'uuid'], ['panel_id', 'uuid'], ['category', 'text'], ['status', 'text'],
    ['code_system', 'text'], ['code', 'text'], ['display', 'text'], ['value_numeric', 'numeric'], ['value_text', 'text'], ['unit', 'text'],
    ['reference_low', 'numeric'], ['reference_high', 'numeric'], ['reference_text', 'text'], ['interpretation', 'text'],
    ['effective_at', 'timestamptz'], ['effective_end_at', 'timestamptz'], ['value_system', 'text'], ['value_code', 'text'],
    ['data_absent_reason', 'text'], ['effective_period_open', 'boolean'], ['category_system', 'text'], ['part_of_procedure_id', 'uuid'],
    ['issued_at', 'timestamptz'], ['not_done_reason_system', 'text'], ['not_done_reason_code', 'text'], ['panel_own_value', 'boolean'],
  ],
  conditions: [
    ['id', 'uuid'], ['patient_id', 'uuid'], ['code_system', 'text'], ['code', 'text'], ['display', 'text'], ['clinical_status', 'text'],
    ['onset_date', 'date'], ['abatement_date', 'date'], ['recorded_at', 'timestamptz'], ['verification_status', 'text'],
    ['category', 'text'], ['body_site_system', 'text'], ['body_site_code', 'text'], ['onset_at', 'timestamptz'], ['abatement_at', 'timestamptz'],
    ['other_codings', 'jsonb'], ['severity_system', 'text'], ['severity_code', 'text'],
  ],
  medications: [
    ['id', 'uuid'], ['patient_id', 'uuid'], ['code_system', 'text'], ['code', 'text'], ['display', 'text'], ['status', 'text'],
    ['start_date', 'date'], ['end_date', 'date'], ['dosage_text', 'text'], ['intent', 'text'], ['do_not_perform', 'boolean'],
    ['authored_at', 'timestamptz'], ['reason_system', 'text'], ['reason_code', 'text'], ['supply', 'jsonb'], ['code_from_reference', 'boolean'],
  ],
  medication_dispenses: [
    ['id', 'uuid'], ['patient_id', 'uuid'], ['code_system', 'text'], ['code', 'text'], ['display', 'text'], ['status', 'text'],
    ['code_from_reference', 'boolean'], ['handed_over_at', 'timestamptz'], ['prepared_at', 'timestamptz'], ['days_supply', 'float8'],
    ['quantity', 'float8'], ['dosage', 'jsonb'],
  ],
  procedures: [
    ['id', 'uuid'], ['patient_id', 'uuid'], ['encounter_id', 'uuid'], ['code_system', 'text'], ['code', 'text'], ['display', 'text'],
    ['status', 'text'], ['performed_at', 'timestamptz'], ['performed_end_at', 'timestamptz'], ['status_reason_system', 'text'],
    ['status_reason_code', 'text'], ['body_site_system', 'text'], ['body_site_code', 'text'], ['performed_period_open', 'boolean'],
    ['reason_system', 'text'], ['reason_code', 'text'],
  ],
  allergies: [
    ['id', 'uuid'], ['patient_id', 'uuid'], ['code_system', 'text'], ['code', 'text'], ['display', 'text'], ['clinical_status', 'text'],
    ['recorded_at', 'timestamptz'], ['onset_at', 'timestamptz'], ['onset_end_at', 'timestamptz'], ['onset_period_open', 'boolean'],
  ],
  clinical_requests: [
    ['id', 'uuid'], ['patient_id', 'uuid'], ['kind', 'text'], ['code_system', 'text'], ['code', 'text'], ['display', 'text'],
    ['status', 'text'], ['intent', 'text'], ['do_not_perform', 'boolean'], ['authored_at', 'timestamptz'], ['reason_system', 'text'],
    ['reason_code', 'text'], ['refusal_reason_system', 'text'], ['refusal_reason_code', 'text'],
  ],
  adverse_events: [
    ['id', 'uuid'], ['patient_id', 'uuid'], ['code_system', 'text'], ['code', 'text'], ['display', 'text'],
    ['recorded_at', 'timestamptz'], ['occurred_at', 'timestamptz'],
  ],
  immunizations: [
    ['id', 'uuid'], ['patient_id', 'uuid'], ['code_system', 'text'], ['code', 'text'], ['display', 'text'], ['status', 'text'],
    ['occurred_at', 'timestamptz'], ['recorded_at', 'timestamptz'], ['primary_source', 'boolean'], ['status_reason_system', 'text'],
    ['status_reason_code', 'text'],
  ],
  communications: [
    ['id', 'uuid'], ['patient_id', 'uuid'], ['category_system', 'text'], ['category_code', 'text'], ['category_display', 'text'], ['status', 'text'],
    ['status_reason_system', 'text'], ['status_reason_code', 'text'], ['sent_at', 'timestamptz'], ['received_at', 'timestamptz'], ['recorded_at', 'timestamptz'],
  ],
  medication_administrations: [
    ['id', 'uuid'], ['patient_id', 'uuid'], ['code_system', 'text'], ['code', 'text'], ['display', 'text'], ['code_from_reference', 'boolean'],
    ['status', 'text'], ['status_reason_system', 'text'], ['status_reason_code', 'text'], ['effective_at', 'timestamptz'],
    ['effective_end_at', 'timestamptz'], ['effective_is_period', 'boolean'], ['recorded_at', 'timestamptz'],
  ],
  tasks: [
    ['id', 'uuid'], ['patient_id', 'uuid'], ['code_system', 'text'], ['code', 'text'], ['display', 'text'], ['status', 'text'], ['intent', 'text'],
    ['status_reason_system', 'text'], ['status_reason_code', 'text'], ['reason_system', 'text'], ['reason_code', 'text'], ['focus', 'text'],
    ['based_on', 'jsonb'], ['authored_at', 'timestamptz'], ['execution_start_at', 'timestamptz'], ['execution_end_at', 'timestamptz'],
  ],
};

/** Tables in the order a resource's rows are written (a patient before its care-team link). */
export const WRITE_ORDER: readonly TableName[] = [
  'patients', 'patient_care_teams', 'encounters', 'observations', 'conditions', 'medications', 'medication_dispenses', 'procedures', 'allergies',
  'clinical_requests', 'adverse_events', 'immunizations', 'communications', 'medication_administrations', 'tasks',
];

/**
 * An upsert of many rows sent as one array per column. A row whose id exists is updated only when
 * a column differs (so a re-import writes nothing and `patients.updated_at` moves only on a real
 * change); `created_at` is never touched. Returns the rows it inserted or changed, and which.
 */
function upsert(table: TableName): string {
  const columns = TABLE_COLUMNS[table];
  const names = columns.map(([column]) => `"${column}"`);
  const changing = names.filter((name) => name !== '"id"');
  const touch = table === 'patients' ? ', "updated_at" = now()' : '';
  return `INSERT INTO "${table}" AS t (${names.join(', ')})
SELECT * FROM unnest(${columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ')})
ON CONFLICT ("id") DO UPDATE SET ${changing.map((name) => `${name} = EXCLUDED.${name}`).join(', ')}${touch}
WHERE (${changing.map((name) => `t.${name}`).join(', ')}) IS DISTINCT FROM (${changing.map((name) => `EXCLUDED.${name}`).join(', ')})
RETURNING t."id"::text AS "id", (t.xmax = 0) AS "inserted"`;
}

/** Every statement the import runs: fixed text, values only ever bound as parameters. */
export const IMPORT_STATEMENTS = {
  careTeamByCode: `SELECT id::text AS id FROM care_teams WHERE code = $1`,
  careTeamCodes: `SELECT code FROM care_teams ORDER BY code`,
  linkPatientsToTeam: `INSERT INTO "patient_care_teams" ("patient_id", "care_team_id")
SELECT * FROM unnest($1::uuid[], $2::uuid[])
ON CONFLICT DO NOTHING
RETURNING "patient_id"::text AS "id", true AS "inserted"`,
  upsertPatients: upsert('patients'),
  upsertEncounters: upsert('encounters'),
  upsertObservations: upsert('observations'),
  upsertConditions: upsert('conditions'),
  upsertMedications: upsert('medications'),
  upsertMedicationDispenses: upsert('medication_dispenses'),
  upsertProcedures: upsert('procedures'),
  upsertAllergies: upsert('allergies'),
  upsertRequests: upsert('clinical_requests'),
  upsertAdverseEvents: upsert('adverse_events'),
  upsertImmunizations: upsert('immunizations'),
  upsertCommunications: upsert('communications'),
  upsertAdministrations: upsert('medication_administrations'),
  upsertTasks: upsert('tasks'),
  /**
   * Which of these patients share their MRN with another patient: a data-quality warning, never a
   * refusal (two sources, or two test decks, can give two people one MRN). The `fhir:<id>` stand-ins
   * for a missing MRN are no MRN, so they are not compared.
   */
  patientsWithSharedMrn: `SELECT p.id::text AS id FROM patients p
WHERE p.id = ANY($1::uuid[]) AND p.mrn NOT LIKE 'fhir:%'
  AND EXISTS (SELECT 1 FROM patients o WHERE o.mrn = p.mrn AND o.id <> p.id)`,
  /** Which of these patients no care team holds (read after an import without `--care-team`). */
  patientsOnNoTeam: `SELECT p.id::text AS id FROM unnest($1::uuid[]) AS p(id)
WHERE NOT EXISTS (SELECT 1 FROM patient_care_teams l WHERE l.patient_id = p.id)`,
} as const;

export const STATEMENT_OF_TABLE: Record<TableName, string> = {
  patients: IMPORT_STATEMENTS.upsertPatients,
  patient_care_teams: IMPORT_STATEMENTS.linkPatientsToTeam,
  encounters: IMPORT_STATEMENTS.upsertEncounters,
  observations: IMPORT_STATEMENTS.upsertObservations,
  conditions: IMPORT_STATEMENTS.upsertConditions,
  medications: IMPORT_STATEMENTS.upsertMedications,
  medication_dispenses: IMPORT_STATEMENTS.upsertMedicationDispenses,
  procedures: IMPORT_STATEMENTS.upsertProcedures,
  allergies: IMPORT_STATEMENTS.upsertAllergies,
  clinical_requests: IMPORT_STATEMENTS.upsertRequests,
  adverse_events: IMPORT_STATEMENTS.upsertAdverseEvents,
  immunizations: IMPORT_STATEMENTS.upsertImmunizations,
  communications: IMPORT_STATEMENTS.upsertCommunications,
  medication_administrations: IMPORT_STATEMENTS.upsertAdministrations,
  tasks: IMPORT_STATEMENTS.upsertTasks,
};
