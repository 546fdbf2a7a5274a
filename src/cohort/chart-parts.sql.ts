/**
 * The building blocks of the cohort's chart statements (`cohort.statements.ts`): each record type's
 * table, columns and order, and the SQL that reads one patient's or many patients' records of a type
 * as JSON arrays. Column aliases produce the camelCase row types of `chart.types.ts`; timestamps are
 * ISO-8601 UTC text, days `YYYY-MM-DD`.
 */

export const ISO = (column: string, alias: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "${alias}"`;
const DAY = (column: string, alias: string) => `to_char(${column}, 'YYYY-MM-DD') AS "${alias}"`;

export const ENCOUNTER_COLUMNS = `id, class, class_code AS "classCode", status, type_system AS "typeSystem", type_code AS "typeCode", type_display AS "typeDisplay",
  coalesce(type_other_codings, '[]'::jsonb) AS "typeOtherCodings",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", reason_display AS "reasonDisplay",
  ${ISO('start_at', 'startAt')}, ${ISO('end_at', 'endAt')}, disposition,
  discharge_disposition_system AS "dischargeDispositionSystem", discharge_disposition_code AS "dischargeDispositionCode",
  coalesce(diagnoses, '[]'::jsonb) AS diagnoses, coalesce(reason_references, '[]'::jsonb) AS "reasonReferences",
  coalesce(locations, '[]'::jsonb) AS locations`;

export const OBSERVATION_COLUMNS = `id, encounter_id AS "encounterId", panel_id AS "panelId", panel_own_value AS "panelOwnValue", category, category_system AS "categorySystem", status,
  code_system AS "codeSystem", code, display, value_numeric::float8 AS "valueNumeric", value_text AS "valueText", unit,
  reference_low::float8 AS "referenceLow", reference_high::float8 AS "referenceHigh", reference_text AS "referenceText",
  interpretation, ${ISO('effective_at', 'effectiveAt')}, ${ISO('effective_end_at', 'effectiveEndAt')}, effective_period_open AS "effectivePeriodOpen",
  value_system AS "valueSystem", value_code AS "valueCode", data_absent_reason AS "dataAbsentReason", part_of_procedure_id AS "partOfProcedureId",
  ${ISO('issued_at', 'issuedAt')}, not_done_reason_system AS "notDoneReasonSystem", not_done_reason_code AS "notDoneReasonCode"`;

export const PATIENT_COLUMNS = `id, mrn, given_name AS "givenName", family_name AS "familyName", ${DAY('birth_date', 'birthDate')}, sex, sex_code AS "sexCode",
  coalesce(race, '[]'::jsonb) AS race, coalesce(ethnicity, '[]'::jsonb) AS ethnicity,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", ${ISO('deceased_at', 'deceasedAt')}`;

/** Each record type of a chart: its columns, its table and the order a chart lists it in (newest first). */
export const CHART_PARTS = {
  encounters: { columns: ENCOUNTER_COLUMNS, table: 'encounters', order: 'start_at DESC, id' },
  observations: { columns: OBSERVATION_COLUMNS, table: 'observations', order: 'effective_at DESC, id' },
  conditions: {
    columns: `id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  verification_status AS "verificationStatus", category, body_site_system AS "bodySiteSystem", body_site_code AS "bodySiteCode",
  ${DAY('onset_date', 'onsetDate')}, ${DAY('abatement_date', 'abatementDate')}, ${ISO('recorded_at', 'recordedAt')},
  ${ISO('onset_at', 'onsetAt')}, ${ISO('abatement_at', 'abatementAt')}, coalesce(other_codings, '[]'::jsonb) AS "otherCodings",
  severity_system AS "severitySystem", severity_code AS "severityCode"`,
    table: 'conditions',
    order: 'recorded_at DESC, id',
  },
  medications: {
    columns: `id, code_system AS "codeSystem", code, display, status,
  ${DAY('start_date', 'startDate')}, ${DAY('end_date', 'endDate')}, dosage_text AS "dosageText",
  intent, do_not_perform AS "doNotPerform", code_from_reference AS "codeFromReference", ${ISO('authored_at', 'authoredAt')}, reason_system AS "reasonSystem", reason_code AS "reasonCode", supply`,
    table: 'medications',
    order: 'start_date DESC, id',
  },
  dispenses: {
    columns: `id, code_system AS "codeSystem", code, display, status, code_from_reference AS "codeFromReference",
  ${ISO('handed_over_at', 'handedOverAt')}, ${ISO('prepared_at', 'preparedAt')}, days_supply AS "daysSupply", quantity, dosage`,
    table: 'medication_dispenses',
    order: 'handed_over_at DESC NULLS LAST, prepared_at DESC NULLS LAST, id',
  },
  procedures: {
    columns: `id, encounter_id AS "encounterId", code_system AS "codeSystem", code, display, status,
  ${ISO('performed_at', 'performedAt')}, ${ISO('performed_end_at', 'performedEndAt')}, performed_period_open AS "performedPeriodOpen",
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  body_site_system AS "bodySiteSystem", body_site_code AS "bodySiteCode", reason_system AS "reasonSystem", reason_code AS "reasonCode"`,
    table: 'procedures',
    order: 'performed_at DESC, id',
  },
  allergies: {
    columns: `id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  ${ISO('recorded_at', 'recordedAt')}, ${ISO('onset_at', 'onsetAt')}, ${ISO('onset_end_at', 'onsetEndAt')}, onset_period_open AS "onsetPeriodOpen"`,
    table: 'allergies',
    order: 'recorded_at DESC, id',
  },
  requests: {
    columns: `id, kind, code_system AS "codeSystem", code, display, status, intent, do_not_perform AS "doNotPerform",
  ${ISO('authored_at', 'authoredAt')}, reason_system AS "reasonSystem", reason_code AS "reasonCode",
  refusal_reason_system AS "refusalReasonSystem", refusal_reason_code AS "refusalReasonCode"`,
    table: 'clinical_requests',
    order: 'authored_at DESC NULLS LAST, id',
  },
  adverseEvents: {
    columns: `id, code_system AS "codeSystem", code, display, ${ISO('recorded_at', 'recordedAt')}, ${ISO('occurred_at', 'occurredAt')}`,
    table: 'adverse_events',
    order: 'recorded_at DESC, id',
  },
  immunizations: {
    columns: `id, code_system AS "codeSystem", code, display, status, ${ISO('occurred_at', 'occurredAt')}, ${ISO('recorded_at', 'recordedAt')},
  primary_source AS "primarySource", status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode"`,
    table: 'immunizations',
    order: 'occurred_at DESC NULLS LAST, id',
  },
  communications: {
    columns: `id, category_system AS "categorySystem", category_code AS "categoryCode", category_display AS "categoryDisplay", status,
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  ${ISO('sent_at', 'sentAt')}, ${ISO('received_at', 'receivedAt')}, ${ISO('recorded_at', 'recordedAt')}`,
    table: 'communications',
    order: 'sent_at DESC NULLS LAST, recorded_at DESC NULLS LAST, id',
  },
  administrations: {
    columns: `id, code_system AS "codeSystem", code, display, code_from_reference AS "codeFromReference", status,
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  ${ISO('effective_at', 'effectiveAt')}, ${ISO('effective_end_at', 'effectiveEndAt')}, effective_is_period AS "effectiveIsPeriod", ${ISO('recorded_at', 'recordedAt')}`,
    table: 'medication_administrations',
    order: 'effective_at DESC NULLS LAST, recorded_at DESC NULLS LAST, id',
  },
  tasks: {
    columns: `id, code_system AS "codeSystem", code, display, status, intent, status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", focus, coalesce(based_on, '[]'::jsonb) AS "basedOn",
  ${ISO('authored_at', 'authoredAt')}, ${ISO('execution_start_at', 'executionStartAt')}, ${ISO('execution_end_at', 'executionEndAt')}`,
    table: 'tasks',
    order: 'execution_end_at DESC NULLS LAST, authored_at DESC NULLS LAST, id',
  },
} as const;

export type ChartPart = keyof typeof CHART_PARTS;

/** Every table a chart reads: a change to any of them is a change to the patient's data (`patients.data_version`). */
export const CHART_TABLES: readonly string[] = Object.values(CHART_PARTS).map((part) => part.table);

/**
 * Rows of one table as one JSON array, in `order`, each in `columns` (which read the row's own
 * columns unqualified): `condition` selects them, `limit` (a parameter) caps them. `row`: the alias of
 * the table's row (`${row}_json` its JSON), distinct when one such array is nested in another's columns.
 */
export const jsonRows = (columns: string, table: string, condition: string, order: string, limit?: string, row = 't') => {
  const json = row === 't' ? 'r' : `${row}_json`;
  const qualified = order.split(', ').map((term) => `${row}.${term}`).join(', ');
  return `(SELECT coalesce(json_agg(${json} ORDER BY ${qualified}), '[]') FROM (SELECT * FROM ${table} WHERE ${condition} ORDER BY ${order}${limit ? ` LIMIT ${limit}` : ''}) ${row}
  CROSS JOIN LATERAL (SELECT ${columns}) ${json})`;
};

/** One patient's records of one type as one JSON array: newest first (the part's order), up to a cap (`cap`, a parameter). */
const chartJsonOf = (part: ChartPart, cap = '$2') => {
  const { columns, table, order } = CHART_PARTS[part];
  return jsonRows(columns, table, 'patient_id = $1', order, cap);
};

/**
 * Many patients' records of one type ($1: ids): one row per patient, its records as a JSON array in
 * `chartJsonOf`'s columns and order. One JSON value per patient parses far faster in the driver than a
 * row per record (the recompute reads about a hundred observations per patient); the values are the
 * same (float8 prints its shortest exact form either way, jsonb stays an object, days stay text).
 */
export const chartsOf = (part: ChartPart, condition = '', counted?: { filter: string }, tagged = false) => {
  const { columns, table, order } = CHART_PARTS[part];
  const qualified = order.split(', ').map((term) => `t.${term}`).join(', ');
  const rows = counted
    ? `coalesce(json_agg(r ORDER BY ${qualified}) FILTER (WHERE ${counted.filter}), '[]') AS rows, count(*)::int AS n`
    : `json_agg(r ORDER BY ${qualified}) AS rows`;
  return `SELECT ${tagged ? `'${part}' AS part, ` : ''}t.patient_id::text AS "patientId", ${rows}
FROM ${table} t CROSS JOIN LATERAL (SELECT ${columns}) r
WHERE t.patient_id = ANY($1::uuid[])${condition} GROUP BY t.patient_id`;
};

/**
 * The record types the recompute reads whole for a chunk's patients, apart from encounters and
 * observations (read filtered, or whole, on their own): all in one statement (`chartsRecords`).
 */
export const BULK_RECORD_PARTS = [
  'conditions', 'medications', 'procedures', 'allergies', 'requests', 'adverseEvents',
  'dispenses', 'immunizations', 'communications', 'administrations', 'tasks',
] as const satisfies readonly ChartPart[];

export type BulkRecordPart = (typeof BULK_RECORD_PARTS)[number];


/** Every record type of patient $1 as a JSON array (SQL by record type), each up to the cap `cap`. */
export const chartColumnsBy = (cap: string): Record<ChartPart, string> =>
  Object.fromEntries((Object.keys(CHART_PARTS) as ChartPart[]).map((part) => [part, chartJsonOf(part, cap)])) as Record<ChartPart, string>;

/** `chartColumnsBy` as columns of a select list. */
export const chartColumns = (cap: string) => Object.entries(chartColumnsBy(cap)).map(([part, sql]) => `${sql} AS "${part}"`).join(',\n  ');
