-- Every SQL statement the Vigil service runs at request time.
-- Generated from src/cli/statement-list.ts by `npm run sql:sync`; do not edit by hand.

-- ======================================================================
-- cohort reads (as vigil_reader, in a READ ONLY transaction)
-- ======================================================================

-- name: readSessionBegin
BEGIN ISOLATION LEVEL READ COMMITTED, READ ONLY; SET LOCAL ROLE vigil_reader;

-- name: identityReadSessionBegin
BEGIN ISOLATION LEVEL READ COMMITTED, READ ONLY; SET LOCAL ROLE vigil_reader; SELECT generation::text AS generation FROM identity_generation;

-- name: identityGeneration
SELECT generation::text AS generation FROM identity_generation;

-- name: snapshotSessionBegin
BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; SET LOCAL ROLE vigil_reader;

-- name: bulkSnapshotSessionBegin
BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; SET LOCAL ROLE vigil_reader; SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0;

-- name: staffUserByUsername
SELECT u.id, u.username, u.role, u.active,
  coalesce(array_agg(m.care_team_id::text ORDER BY m.care_team_id) FILTER (WHERE m.care_team_id IS NOT NULL), '{}') AS "careTeamIds",
  coalesce(array_agg(t.code ORDER BY m.care_team_id) FILTER (WHERE m.care_team_id IS NOT NULL), '{}') AS "careTeamCodes"
FROM staff_users u LEFT JOIN care_team_members m ON m.staff_user_id = u.id LEFT JOIN care_teams t ON t.id = m.care_team_id
WHERE u.username = $1
GROUP BY u.id;

-- name: staffUserBySubject
SELECT u.id, u.username, u.role, u.active,
  coalesce(array_agg(m.care_team_id::text ORDER BY m.care_team_id) FILTER (WHERE m.care_team_id IS NOT NULL), '{}') AS "careTeamIds",
  coalesce(array_agg(t.code ORDER BY m.care_team_id) FILTER (WHERE m.care_team_id IS NOT NULL), '{}') AS "careTeamCodes"
FROM staff_users u LEFT JOIN care_team_members m ON m.staff_user_id = u.id LEFT JOIN care_teams t ON t.id = m.care_team_id
WHERE u.identity_subject = $1
GROUP BY u.id;

-- name: staffUserByEmail
SELECT u.id, u.username, u.role, u.active,
  coalesce(array_agg(m.care_team_id::text ORDER BY m.care_team_id) FILTER (WHERE m.care_team_id IS NOT NULL), '{}') AS "careTeamIds",
  coalesce(array_agg(t.code ORDER BY m.care_team_id) FILTER (WHERE m.care_team_id IS NOT NULL), '{}') AS "careTeamCodes"
FROM staff_users u LEFT JOIN care_team_members m ON m.staff_user_id = u.id LEFT JOIN care_teams t ON t.id = m.care_team_id
WHERE lower(u.email) = lower($1)
GROUP BY u.id;

-- name: staffUserByNpi
SELECT u.id, u.username, u.role, u.active,
  coalesce(array_agg(m.care_team_id::text ORDER BY m.care_team_id) FILTER (WHERE m.care_team_id IS NOT NULL), '{}') AS "careTeamIds",
  coalesce(array_agg(t.code ORDER BY m.care_team_id) FILTER (WHERE m.care_team_id IS NOT NULL), '{}') AS "careTeamCodes"
FROM staff_users u LEFT JOIN care_team_members m ON m.staff_user_id = u.id LEFT JOIN care_teams t ON t.id = m.care_team_id
WHERE u.npi = $1
GROUP BY u.id;

-- name: patientAccess
SELECT EXISTS (SELECT 1 FROM patients p WHERE p.id = $1) AS "exists",
  EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = $1 AND t.care_team_id = ANY($2::uuid[])) AS "onCareTeam";

-- name: patientById
SELECT id, mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex, sex_code AS "sexCode",
  coalesce(race, '[]'::jsonb) AS race, coalesce(ethnicity, '[]'::jsonb) AS ethnicity,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", to_char(deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt" FROM patients WHERE id = $1;

-- name: gatedLaboratoryResults
SELECT a."exists", a."onCareTeam",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT to_json(p) FROM (SELECT id, mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex, sex_code AS "sexCode",
  coalesce(race, '[]'::jsonb) AS race, coalesce(ethnicity, '[]'::jsonb) AS ethnicity,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", to_char(deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt" FROM patients WHERE id = $1) p) END AS "patient",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.effective_at DESC, t.id), '[]') FROM (SELECT * FROM observations WHERE patient_id = $1 AND category = 'laboratory' AND category_system = 'http://terminology.hl7.org/CodeSystem/observation-category'
  AND ($4::timestamptz IS NULL OR effective_at >= $4) AND ($5::timestamptz IS NULL OR effective_at < $5)
  AND ($6::text[] IS NULL OR code = ANY($6)) ORDER BY effective_at DESC, id LIMIT $7) t
  CROSS JOIN LATERAL (SELECT id, encounter_id AS "encounterId", panel_id AS "panelId", panel_own_value AS "panelOwnValue", category, category_system AS "categorySystem", status,
  code_system AS "codeSystem", code, display, value_numeric::float8 AS "valueNumeric", value_text AS "valueText", unit,
  reference_low::float8 AS "referenceLow", reference_high::float8 AS "referenceHigh", reference_text AS "referenceText",
  interpretation, to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt", to_char(effective_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveEndAt", effective_period_open AS "effectivePeriodOpen",
  value_system AS "valueSystem", value_code AS "valueCode", data_absent_reason AS "dataAbsentReason", part_of_procedure_id AS "partOfProcedureId",
  to_char(issued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "issuedAt", not_done_reason_system AS "notDoneReasonSystem", not_done_reason_code AS "notDoneReasonCode") r) END AS "rows"
FROM (SELECT EXISTS (SELECT 1 FROM patients p WHERE p.id = $1) AS "exists", EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = $1 AND t.care_team_id = ANY($2::uuid[])) AS "onCareTeam" OFFSET 0) a;

-- name: gatedPatient
SELECT a."exists", a."onCareTeam",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT to_json(p) FROM (SELECT id, mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex, sex_code AS "sexCode",
  coalesce(race, '[]'::jsonb) AS race, coalesce(ethnicity, '[]'::jsonb) AS ethnicity,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", to_char(deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt" FROM patients WHERE id = $1) p) END AS "patient"
FROM (SELECT EXISTS (SELECT 1 FROM patients p WHERE p.id = $1) AS "exists", EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = $1 AND t.care_team_id = ANY($2::uuid[])) AS "onCareTeam" OFFSET 0) a;

-- name: gatedEncounters
SELECT a."exists", a."onCareTeam",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT to_json(p) FROM (SELECT id, mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex, sex_code AS "sexCode",
  coalesce(race, '[]'::jsonb) AS race, coalesce(ethnicity, '[]'::jsonb) AS ethnicity,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", to_char(deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt" FROM patients WHERE id = $1) p) END AS "patient",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.start_at DESC, t.id), '[]') FROM (SELECT * FROM encounters WHERE patient_id = $1 AND ($4::timestamptz IS NULL OR start_at >= $4) AND ($5::timestamptz IS NULL OR start_at < $5)
  AND ($6::text IS NULL OR class = $6) ORDER BY start_at DESC, id LIMIT $7) t
  CROSS JOIN LATERAL (SELECT id, class, class_code AS "classCode", status, type_system AS "typeSystem", type_code AS "typeCode", type_display AS "typeDisplay",
  coalesce(type_other_codings, '[]'::jsonb) AS "typeOtherCodings",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", reason_display AS "reasonDisplay",
  to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "startAt", to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "endAt", disposition,
  discharge_disposition_system AS "dischargeDispositionSystem", discharge_disposition_code AS "dischargeDispositionCode",
  coalesce(diagnoses, '[]'::jsonb) AS diagnoses, coalesce(reason_references, '[]'::jsonb) AS "reasonReferences",
  coalesce(locations, '[]'::jsonb) AS locations,
  (SELECT coalesce(json_agg(n_json ORDER BY n.authored_at, n.id), '[]') FROM (SELECT * FROM clinical_notes WHERE patient_id = $1 AND encounter_id = t.id ORDER BY authored_at, id) n
  CROSS JOIN LATERAL (SELECT id, encounter_id AS "encounterId", note_type AS "noteType", author_display AS "authorDisplay",
  to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", text) n_json) AS notes) r) END AS "rows"
FROM (SELECT EXISTS (SELECT 1 FROM patients p WHERE p.id = $1) AS "exists", EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = $1 AND t.care_team_id = ANY($2::uuid[])) AS "onCareTeam" OFFSET 0) a;

-- name: gatedChart
SELECT a."exists", a."onCareTeam",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT to_json(p) FROM (SELECT id, mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex, sex_code AS "sexCode",
  coalesce(race, '[]'::jsonb) AS race, coalesce(ethnicity, '[]'::jsonb) AS ethnicity,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", to_char(deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt" FROM patients WHERE id = $1) p) END AS "patient",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.start_at DESC, t.id), '[]') FROM (SELECT * FROM encounters WHERE patient_id = $1 ORDER BY start_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, class, class_code AS "classCode", status, type_system AS "typeSystem", type_code AS "typeCode", type_display AS "typeDisplay",
  coalesce(type_other_codings, '[]'::jsonb) AS "typeOtherCodings",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", reason_display AS "reasonDisplay",
  to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "startAt", to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "endAt", disposition,
  discharge_disposition_system AS "dischargeDispositionSystem", discharge_disposition_code AS "dischargeDispositionCode",
  coalesce(diagnoses, '[]'::jsonb) AS diagnoses, coalesce(reason_references, '[]'::jsonb) AS "reasonReferences",
  coalesce(locations, '[]'::jsonb) AS locations) r) END AS "encounters",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.effective_at DESC, t.id), '[]') FROM (SELECT * FROM observations WHERE patient_id = $1 ORDER BY effective_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, encounter_id AS "encounterId", panel_id AS "panelId", panel_own_value AS "panelOwnValue", category, category_system AS "categorySystem", status,
  code_system AS "codeSystem", code, display, value_numeric::float8 AS "valueNumeric", value_text AS "valueText", unit,
  reference_low::float8 AS "referenceLow", reference_high::float8 AS "referenceHigh", reference_text AS "referenceText",
  interpretation, to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt", to_char(effective_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveEndAt", effective_period_open AS "effectivePeriodOpen",
  value_system AS "valueSystem", value_code AS "valueCode", data_absent_reason AS "dataAbsentReason", part_of_procedure_id AS "partOfProcedureId",
  to_char(issued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "issuedAt", not_done_reason_system AS "notDoneReasonSystem", not_done_reason_code AS "notDoneReasonCode") r) END AS "observations",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.recorded_at DESC, t.id), '[]') FROM (SELECT * FROM conditions WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  verification_status AS "verificationStatus", category, body_site_system AS "bodySiteSystem", body_site_code AS "bodySiteCode",
  to_char(onset_date, 'YYYY-MM-DD') AS "onsetDate", to_char(abatement_date, 'YYYY-MM-DD') AS "abatementDate", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt",
  to_char(onset_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetAt", to_char(abatement_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "abatementAt", coalesce(other_codings, '[]'::jsonb) AS "otherCodings",
  severity_system AS "severitySystem", severity_code AS "severityCode") r) END AS "conditions",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.start_date DESC, t.id), '[]') FROM (SELECT * FROM medications WHERE patient_id = $1 ORDER BY start_date DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status,
  to_char(start_date, 'YYYY-MM-DD') AS "startDate", to_char(end_date, 'YYYY-MM-DD') AS "endDate", dosage_text AS "dosageText",
  intent, do_not_perform AS "doNotPerform", code_from_reference AS "codeFromReference", to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", reason_system AS "reasonSystem", reason_code AS "reasonCode", supply) r) END AS "medications",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.handed_over_at DESC NULLS LAST, t.prepared_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM medication_dispenses WHERE patient_id = $1 ORDER BY handed_over_at DESC NULLS LAST, prepared_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, code_from_reference AS "codeFromReference",
  to_char(handed_over_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "handedOverAt", to_char(prepared_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "preparedAt", days_supply AS "daysSupply", quantity, dosage) r) END AS "dispenses",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.performed_at DESC, t.id), '[]') FROM (SELECT * FROM procedures WHERE patient_id = $1 ORDER BY performed_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, encounter_id AS "encounterId", code_system AS "codeSystem", code, display, status,
  to_char(performed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "performedAt", to_char(performed_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "performedEndAt", performed_period_open AS "performedPeriodOpen",
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  body_site_system AS "bodySiteSystem", body_site_code AS "bodySiteCode", reason_system AS "reasonSystem", reason_code AS "reasonCode") r) END AS "procedures",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.recorded_at DESC, t.id), '[]') FROM (SELECT * FROM allergies WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt", to_char(onset_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetAt", to_char(onset_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetEndAt", onset_period_open AS "onsetPeriodOpen") r) END AS "allergies",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.authored_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM clinical_requests WHERE patient_id = $1 ORDER BY authored_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, kind, code_system AS "codeSystem", code, display, status, intent, do_not_perform AS "doNotPerform",
  to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", reason_system AS "reasonSystem", reason_code AS "reasonCode",
  refusal_reason_system AS "refusalReasonSystem", refusal_reason_code AS "refusalReasonCode") r) END AS "requests",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.recorded_at DESC, t.id), '[]') FROM (SELECT * FROM adverse_events WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt", to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "occurredAt") r) END AS "adverseEvents",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.occurred_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM immunizations WHERE patient_id = $1 ORDER BY occurred_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "occurredAt", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt",
  primary_source AS "primarySource", status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode") r) END AS "immunizations",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.sent_at DESC NULLS LAST, t.recorded_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM communications WHERE patient_id = $1 ORDER BY sent_at DESC NULLS LAST, recorded_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, category_system AS "categorySystem", category_code AS "categoryCode", category_display AS "categoryDisplay", status,
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "sentAt", to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "receivedAt", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt") r) END AS "communications",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.effective_at DESC NULLS LAST, t.recorded_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM medication_administrations WHERE patient_id = $1 ORDER BY effective_at DESC NULLS LAST, recorded_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, code_from_reference AS "codeFromReference", status,
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt", to_char(effective_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveEndAt", effective_is_period AS "effectiveIsPeriod", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt") r) END AS "administrations",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.execution_end_at DESC NULLS LAST, t.authored_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM tasks WHERE patient_id = $1 ORDER BY execution_end_at DESC NULLS LAST, authored_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, intent, status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", focus, coalesce(based_on, '[]'::jsonb) AS "basedOn",
  to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", to_char(execution_start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "executionStartAt", to_char(execution_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "executionEndAt") r) END AS "tasks"
FROM (SELECT EXISTS (SELECT 1 FROM patients p WHERE p.id = $1) AS "exists", EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = $1 AND t.care_team_id = ANY($2::uuid[])) AS "onCareTeam" OFFSET 0) a;

-- name: gatedChartWithAttestations
SELECT a."exists", a."onCareTeam",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT to_json(p) FROM (SELECT id, mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex, sex_code AS "sexCode",
  coalesce(race, '[]'::jsonb) AS race, coalesce(ethnicity, '[]'::jsonb) AS ethnicity,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", to_char(deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt" FROM patients WHERE id = $1) p) END AS "patient",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.start_at DESC, t.id), '[]') FROM (SELECT * FROM encounters WHERE patient_id = $1 ORDER BY start_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, class, class_code AS "classCode", status, type_system AS "typeSystem", type_code AS "typeCode", type_display AS "typeDisplay",
  coalesce(type_other_codings, '[]'::jsonb) AS "typeOtherCodings",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", reason_display AS "reasonDisplay",
  to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "startAt", to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "endAt", disposition,
  discharge_disposition_system AS "dischargeDispositionSystem", discharge_disposition_code AS "dischargeDispositionCode",
  coalesce(diagnoses, '[]'::jsonb) AS diagnoses, coalesce(reason_references, '[]'::jsonb) AS "reasonReferences",
  coalesce(locations, '[]'::jsonb) AS locations) r) END AS "encounters",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.effective_at DESC, t.id), '[]') FROM (SELECT * FROM observations WHERE patient_id = $1 ORDER BY effective_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, encounter_id AS "encounterId", panel_id AS "panelId", panel_own_value AS "panelOwnValue", category, category_system AS "categorySystem", status,
  code_system AS "codeSystem", code, display, value_numeric::float8 AS "valueNumeric", value_text AS "valueText", unit,
  reference_low::float8 AS "referenceLow", reference_high::float8 AS "referenceHigh", reference_text AS "referenceText",
  interpretation, to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt", to_char(effective_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveEndAt", effective_period_open AS "effectivePeriodOpen",
  value_system AS "valueSystem", value_code AS "valueCode", data_absent_reason AS "dataAbsentReason", part_of_procedure_id AS "partOfProcedureId",
  to_char(issued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "issuedAt", not_done_reason_system AS "notDoneReasonSystem", not_done_reason_code AS "notDoneReasonCode") r) END AS "observations",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.recorded_at DESC, t.id), '[]') FROM (SELECT * FROM conditions WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  verification_status AS "verificationStatus", category, body_site_system AS "bodySiteSystem", body_site_code AS "bodySiteCode",
  to_char(onset_date, 'YYYY-MM-DD') AS "onsetDate", to_char(abatement_date, 'YYYY-MM-DD') AS "abatementDate", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt",
  to_char(onset_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetAt", to_char(abatement_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "abatementAt", coalesce(other_codings, '[]'::jsonb) AS "otherCodings",
  severity_system AS "severitySystem", severity_code AS "severityCode") r) END AS "conditions",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.start_date DESC, t.id), '[]') FROM (SELECT * FROM medications WHERE patient_id = $1 ORDER BY start_date DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status,
  to_char(start_date, 'YYYY-MM-DD') AS "startDate", to_char(end_date, 'YYYY-MM-DD') AS "endDate", dosage_text AS "dosageText",
  intent, do_not_perform AS "doNotPerform", code_from_reference AS "codeFromReference", to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", reason_system AS "reasonSystem", reason_code AS "reasonCode", supply) r) END AS "medications",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.handed_over_at DESC NULLS LAST, t.prepared_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM medication_dispenses WHERE patient_id = $1 ORDER BY handed_over_at DESC NULLS LAST, prepared_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, code_from_reference AS "codeFromReference",
  to_char(handed_over_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "handedOverAt", to_char(prepared_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "preparedAt", days_supply AS "daysSupply", quantity, dosage) r) END AS "dispenses",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.performed_at DESC, t.id), '[]') FROM (SELECT * FROM procedures WHERE patient_id = $1 ORDER BY performed_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, encounter_id AS "encounterId", code_system AS "codeSystem", code, display, status,
  to_char(performed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "performedAt", to_char(performed_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "performedEndAt", performed_period_open AS "performedPeriodOpen",
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  body_site_system AS "bodySiteSystem", body_site_code AS "bodySiteCode", reason_system AS "reasonSystem", reason_code AS "reasonCode") r) END AS "procedures",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.recorded_at DESC, t.id), '[]') FROM (SELECT * FROM allergies WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt", to_char(onset_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetAt", to_char(onset_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetEndAt", onset_period_open AS "onsetPeriodOpen") r) END AS "allergies",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.authored_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM clinical_requests WHERE patient_id = $1 ORDER BY authored_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, kind, code_system AS "codeSystem", code, display, status, intent, do_not_perform AS "doNotPerform",
  to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", reason_system AS "reasonSystem", reason_code AS "reasonCode",
  refusal_reason_system AS "refusalReasonSystem", refusal_reason_code AS "refusalReasonCode") r) END AS "requests",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.recorded_at DESC, t.id), '[]') FROM (SELECT * FROM adverse_events WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt", to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "occurredAt") r) END AS "adverseEvents",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.occurred_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM immunizations WHERE patient_id = $1 ORDER BY occurred_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "occurredAt", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt",
  primary_source AS "primarySource", status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode") r) END AS "immunizations",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.sent_at DESC NULLS LAST, t.recorded_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM communications WHERE patient_id = $1 ORDER BY sent_at DESC NULLS LAST, recorded_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, category_system AS "categorySystem", category_code AS "categoryCode", category_display AS "categoryDisplay", status,
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "sentAt", to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "receivedAt", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt") r) END AS "communications",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.effective_at DESC NULLS LAST, t.recorded_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM medication_administrations WHERE patient_id = $1 ORDER BY effective_at DESC NULLS LAST, recorded_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, code_from_reference AS "codeFromReference", status,
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt", to_char(effective_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveEndAt", effective_is_period AS "effectiveIsPeriod", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt") r) END AS "administrations",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.execution_end_at DESC NULLS LAST, t.authored_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM tasks WHERE patient_id = $1 ORDER BY execution_end_at DESC NULLS LAST, authored_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, intent, status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", focus, coalesce(based_on, '[]'::jsonb) AS "basedOn",
  to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", to_char(execution_start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "executionStartAt", to_char(execution_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "executionEndAt") r) END AS "tasks",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(json_build_object('measureId', c.measure_id, 'attestation', json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence))) ORDER BY c.measure_id, c.created_at DESC, c.id), '[]'::json)
    FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = $1 AND c.period_end BETWEEN $5::date AND $6::date) END AS "attestations"
FROM (SELECT EXISTS (SELECT 1 FROM patients p WHERE p.id = $1) AS "exists", EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = $1 AND t.care_team_id = ANY($2::uuid[])) AS "onCareTeam" OFFSET 0) a;

-- name: gatedCareGapChart
SELECT a."exists", a."onCareTeam",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT to_json(p) FROM (SELECT id, mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex, sex_code AS "sexCode",
  coalesce(race, '[]'::jsonb) AS race, coalesce(ethnicity, '[]'::jsonb) AS ethnicity,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", to_char(deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt" FROM patients WHERE id = $1) p) END AS "patient",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.start_at DESC, t.id), '[]') FROM (SELECT * FROM encounters WHERE patient_id = $1 AND (end_at IS NULL OR end_at >= $10::timestamptz OR type_code = ANY($11::text[])) ORDER BY start_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, class, class_code AS "classCode", status, type_system AS "typeSystem", type_code AS "typeCode", type_display AS "typeDisplay",
  coalesce(type_other_codings, '[]'::jsonb) AS "typeOtherCodings",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", reason_display AS "reasonDisplay",
  to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "startAt", to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "endAt", disposition,
  discharge_disposition_system AS "dischargeDispositionSystem", discharge_disposition_code AS "dischargeDispositionCode",
  coalesce(diagnoses, '[]'::jsonb) AS diagnoses, coalesce(reason_references, '[]'::jsonb) AS "reasonReferences",
  coalesce(locations, '[]'::jsonb) AS locations) r) END AS "encounters",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.effective_at DESC, t.id), '[]') FROM (SELECT * FROM observations WHERE patient_id = $1 AND code = ANY($7::text[]) AND (code <> ALL($8::text[]) OR coalesce(effective_end_at, effective_at) >= $9::timestamptz) ORDER BY effective_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, encounter_id AS "encounterId", panel_id AS "panelId", panel_own_value AS "panelOwnValue", category, category_system AS "categorySystem", status,
  code_system AS "codeSystem", code, display, value_numeric::float8 AS "valueNumeric", value_text AS "valueText", unit,
  reference_low::float8 AS "referenceLow", reference_high::float8 AS "referenceHigh", reference_text AS "referenceText",
  interpretation, to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt", to_char(effective_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveEndAt", effective_period_open AS "effectivePeriodOpen",
  value_system AS "valueSystem", value_code AS "valueCode", data_absent_reason AS "dataAbsentReason", part_of_procedure_id AS "partOfProcedureId",
  to_char(issued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "issuedAt", not_done_reason_system AS "notDoneReasonSystem", not_done_reason_code AS "notDoneReasonCode") r) END AS "observations",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.recorded_at DESC, t.id), '[]') FROM (SELECT * FROM conditions WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  verification_status AS "verificationStatus", category, body_site_system AS "bodySiteSystem", body_site_code AS "bodySiteCode",
  to_char(onset_date, 'YYYY-MM-DD') AS "onsetDate", to_char(abatement_date, 'YYYY-MM-DD') AS "abatementDate", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt",
  to_char(onset_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetAt", to_char(abatement_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "abatementAt", coalesce(other_codings, '[]'::jsonb) AS "otherCodings",
  severity_system AS "severitySystem", severity_code AS "severityCode") r) END AS "conditions",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.start_date DESC, t.id), '[]') FROM (SELECT * FROM medications WHERE patient_id = $1 ORDER BY start_date DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status,
  to_char(start_date, 'YYYY-MM-DD') AS "startDate", to_char(end_date, 'YYYY-MM-DD') AS "endDate", dosage_text AS "dosageText",
  intent, do_not_perform AS "doNotPerform", code_from_reference AS "codeFromReference", to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", reason_system AS "reasonSystem", reason_code AS "reasonCode", supply) r) END AS "medications",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.handed_over_at DESC NULLS LAST, t.prepared_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM medication_dispenses WHERE patient_id = $1 ORDER BY handed_over_at DESC NULLS LAST, prepared_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, code_from_reference AS "codeFromReference",
  to_char(handed_over_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "handedOverAt", to_char(prepared_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "preparedAt", days_supply AS "daysSupply", quantity, dosage) r) END AS "dispenses",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.performed_at DESC, t.id), '[]') FROM (SELECT * FROM procedures WHERE patient_id = $1 ORDER BY performed_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, encounter_id AS "encounterId", code_system AS "codeSystem", code, display, status,
  to_char(performed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "performedAt", to_char(performed_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "performedEndAt", performed_period_open AS "performedPeriodOpen",
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  body_site_system AS "bodySiteSystem", body_site_code AS "bodySiteCode", reason_system AS "reasonSystem", reason_code AS "reasonCode") r) END AS "procedures",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.recorded_at DESC, t.id), '[]') FROM (SELECT * FROM allergies WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt", to_char(onset_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetAt", to_char(onset_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetEndAt", onset_period_open AS "onsetPeriodOpen") r) END AS "allergies",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.authored_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM clinical_requests WHERE patient_id = $1 ORDER BY authored_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, kind, code_system AS "codeSystem", code, display, status, intent, do_not_perform AS "doNotPerform",
  to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", reason_system AS "reasonSystem", reason_code AS "reasonCode",
  refusal_reason_system AS "refusalReasonSystem", refusal_reason_code AS "refusalReasonCode") r) END AS "requests",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.recorded_at DESC, t.id), '[]') FROM (SELECT * FROM adverse_events WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt", to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "occurredAt") r) END AS "adverseEvents",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.occurred_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM immunizations WHERE patient_id = $1 ORDER BY occurred_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "occurredAt", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt",
  primary_source AS "primarySource", status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode") r) END AS "immunizations",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.sent_at DESC NULLS LAST, t.recorded_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM communications WHERE patient_id = $1 ORDER BY sent_at DESC NULLS LAST, recorded_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, category_system AS "categorySystem", category_code AS "categoryCode", category_display AS "categoryDisplay", status,
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "sentAt", to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "receivedAt", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt") r) END AS "communications",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.effective_at DESC NULLS LAST, t.recorded_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM medication_administrations WHERE patient_id = $1 ORDER BY effective_at DESC NULLS LAST, recorded_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, code_from_reference AS "codeFromReference", status,
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt", to_char(effective_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveEndAt", effective_is_period AS "effectiveIsPeriod", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt") r) END AS "administrations",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.execution_end_at DESC NULLS LAST, t.authored_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM tasks WHERE patient_id = $1 ORDER BY execution_end_at DESC NULLS LAST, authored_at DESC NULLS LAST, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, intent, status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", focus, coalesce(based_on, '[]'::jsonb) AS "basedOn",
  to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", to_char(execution_start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "executionStartAt", to_char(execution_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "executionEndAt") r) END AS "tasks",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT count(*)::int FROM (SELECT 1 FROM observations WHERE patient_id = $1 LIMIT $4) c) END AS "observationCount",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT count(*)::int FROM (SELECT 1 FROM encounters WHERE patient_id = $1 LIMIT $4) c) END AS "encounterCount",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(json_build_object('measureId', c.measure_id, 'attestation', json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence))) ORDER BY c.measure_id, c.created_at DESC, c.id), '[]'::json)
    FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = $1 AND c.period_end BETWEEN $5::date AND $6::date) END AS "attestations"
FROM (SELECT EXISTS (SELECT 1 FROM patients p WHERE p.id = $1) AS "exists", EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = $1 AND t.care_team_id = ANY($2::uuid[])) AS "onCareTeam" OFFSET 0) a;

-- name: gatedMissingDataChart
SELECT a."exists", a."onCareTeam",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT to_json(p) FROM (SELECT id, mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex, sex_code AS "sexCode",
  coalesce(race, '[]'::jsonb) AS race, coalesce(ethnicity, '[]'::jsonb) AS ethnicity,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", to_char(deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt" FROM patients WHERE id = $1) p) END AS "patient",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.start_at DESC, t.id), '[]') FROM (SELECT * FROM encounters WHERE patient_id = $1 ORDER BY start_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, class, class_code AS "classCode", status, type_system AS "typeSystem", type_code AS "typeCode", type_display AS "typeDisplay",
  coalesce(type_other_codings, '[]'::jsonb) AS "typeOtherCodings",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", reason_display AS "reasonDisplay",
  to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "startAt", to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "endAt", disposition,
  discharge_disposition_system AS "dischargeDispositionSystem", discharge_disposition_code AS "dischargeDispositionCode",
  coalesce(diagnoses, '[]'::jsonb) AS diagnoses, coalesce(reason_references, '[]'::jsonb) AS "reasonReferences",
  coalesce(locations, '[]'::jsonb) AS locations) r) END AS "encounters",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.recorded_at DESC, t.id), '[]') FROM (SELECT * FROM conditions WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  verification_status AS "verificationStatus", category, body_site_system AS "bodySiteSystem", body_site_code AS "bodySiteCode",
  to_char(onset_date, 'YYYY-MM-DD') AS "onsetDate", to_char(abatement_date, 'YYYY-MM-DD') AS "abatementDate", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt",
  to_char(onset_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetAt", to_char(abatement_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "abatementAt", coalesce(other_codings, '[]'::jsonb) AS "otherCodings",
  severity_system AS "severitySystem", severity_code AS "severityCode") r) END AS "conditions",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.start_date DESC, t.id), '[]') FROM (SELECT * FROM medications WHERE patient_id = $1 ORDER BY start_date DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status,
  to_char(start_date, 'YYYY-MM-DD') AS "startDate", to_char(end_date, 'YYYY-MM-DD') AS "endDate", dosage_text AS "dosageText",
  intent, do_not_perform AS "doNotPerform", code_from_reference AS "codeFromReference", to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", reason_system AS "reasonSystem", reason_code AS "reasonCode", supply) r) END AS "medications",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.recorded_at DESC, t.id), '[]') FROM (SELECT * FROM allergies WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt", to_char(onset_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetAt", to_char(onset_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetEndAt", onset_period_open AS "onsetPeriodOpen") r) END AS "allergies",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN (SELECT coalesce(json_agg(r ORDER BY t.effective_at DESC, t.id), '[]') FROM (SELECT * FROM observations WHERE patient_id = $1 AND code = ANY($5::text[]) ORDER BY effective_at DESC, id LIMIT $4) t
  CROSS JOIN LATERAL (SELECT id, encounter_id AS "encounterId", panel_id AS "panelId", panel_own_value AS "panelOwnValue", category, category_system AS "categorySystem", status,
  code_system AS "codeSystem", code, display, value_numeric::float8 AS "valueNumeric", value_text AS "valueText", unit,
  reference_low::float8 AS "referenceLow", reference_high::float8 AS "referenceHigh", reference_text AS "referenceText",
  interpretation, to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt", to_char(effective_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveEndAt", effective_period_open AS "effectivePeriodOpen",
  value_system AS "valueSystem", value_code AS "valueCode", data_absent_reason AS "dataAbsentReason", part_of_procedure_id AS "partOfProcedureId",
  to_char(issued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "issuedAt", not_done_reason_system AS "notDoneReasonSystem", not_done_reason_code AS "notDoneReasonCode") r) END AS "observations",
  CASE WHEN a."onCareTeam" OR $3::boolean THEN GREATEST((SELECT count(*)::int FROM (SELECT 1 FROM observations WHERE patient_id = $1 LIMIT $4) c), (SELECT count(*)::int FROM (SELECT 1 FROM medication_dispenses WHERE patient_id = $1 LIMIT $4) c), (SELECT count(*)::int FROM (SELECT 1 FROM procedures WHERE patient_id = $1 LIMIT $4) c), (SELECT count(*)::int FROM (SELECT 1 FROM clinical_requests WHERE patient_id = $1 LIMIT $4) c), (SELECT count(*)::int FROM (SELECT 1 FROM adverse_events WHERE patient_id = $1 LIMIT $4) c), (SELECT count(*)::int FROM (SELECT 1 FROM immunizations WHERE patient_id = $1 LIMIT $4) c), (SELECT count(*)::int FROM (SELECT 1 FROM communications WHERE patient_id = $1 LIMIT $4) c), (SELECT count(*)::int FROM (SELECT 1 FROM medication_administrations WHERE patient_id = $1 LIMIT $4) c), (SELECT count(*)::int FROM (SELECT 1 FROM tasks WHERE patient_id = $1 LIMIT $4) c)) END AS "fullestCount"
FROM (SELECT EXISTS (SELECT 1 FROM patients p WHERE p.id = $1) AS "exists", EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = $1 AND t.care_team_id = ANY($2::uuid[])) AS "onCareTeam" OFFSET 0) a;

-- name: patientsByMrn
SELECT id, mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex, sex_code AS "sexCode",
  coalesce(race, '[]'::jsonb) AS race, coalesce(ethnicity, '[]'::jsonb) AS ethnicity,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", to_char(deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt" FROM patients p
WHERE upper(p.mrn) = upper($2) AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
ORDER BY p.family_name, p.given_name, p.id LIMIT $3;

-- name: patientsByName
SELECT id, mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex, sex_code AS "sexCode",
  coalesce(race, '[]'::jsonb) AS race, coalesce(ethnicity, '[]'::jsonb) AS ethnicity,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", to_char(deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt" FROM patients p
WHERE ($2::text IS NULL OR vigil_name_key(p.family_name) LIKE $2) AND ($3::text IS NULL OR vigil_name_key(p.given_name) LIKE $3)
  AND ($4::text IS NULL OR vigil_name_key(p.family_name) || vigil_name_key(p.given_name) LIKE $4 OR vigil_name_key(p.given_name) || vigil_name_key(p.family_name) LIKE $4)
  AND ($5::date IS NULL OR p.birth_date = $5::date) AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
ORDER BY p.family_name, p.given_name, p.id LIMIT $6;

-- name: patientsOfCareTeams
SELECT id, mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex, sex_code AS "sexCode",
  coalesce(race, '[]'::jsonb) AS race, coalesce(ethnicity, '[]'::jsonb) AS ethnicity,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", to_char(deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt" FROM patients p
WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
ORDER BY p.family_name, p.given_name, p.id LIMIT $2;

-- name: patientIdsOfCareTeamPage
SELECT patient_id AS id FROM patient_care_teams
WHERE care_team_id = $1 AND ($2::uuid IS NULL OR patient_id > $2::uuid)
ORDER BY patient_id LIMIT $3;

-- name: notesOfEncounters
SELECT id, encounter_id AS "encounterId", note_type AS "noteType", author_display AS "authorDisplay",
  to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", text
FROM clinical_notes WHERE patient_id = $1 AND encounter_id = ANY($2::uuid[])
ORDER BY authored_at, id;

-- name: patientChart
SELECT to_json(p) AS patient,
  (SELECT coalesce(json_agg(r ORDER BY t.start_at DESC, t.id), '[]') FROM (SELECT * FROM encounters WHERE patient_id = $1 ORDER BY start_at DESC, id LIMIT $2) t
  CROSS JOIN LATERAL (SELECT id, class, class_code AS "classCode", status, type_system AS "typeSystem", type_code AS "typeCode", type_display AS "typeDisplay",
  coalesce(type_other_codings, '[]'::jsonb) AS "typeOtherCodings",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", reason_display AS "reasonDisplay",
  to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "startAt", to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "endAt", disposition,
  discharge_disposition_system AS "dischargeDispositionSystem", discharge_disposition_code AS "dischargeDispositionCode",
  coalesce(diagnoses, '[]'::jsonb) AS diagnoses, coalesce(reason_references, '[]'::jsonb) AS "reasonReferences",
  coalesce(locations, '[]'::jsonb) AS locations) r) AS "encounters",
  (SELECT coalesce(json_agg(r ORDER BY t.effective_at DESC, t.id), '[]') FROM (SELECT * FROM observations WHERE patient_id = $1 ORDER BY effective_at DESC, id LIMIT $2) t
  CROSS JOIN LATERAL (SELECT id, encounter_id AS "encounterId", panel_id AS "panelId", panel_own_value AS "panelOwnValue", category, category_system AS "categorySystem", status,
  code_system AS "codeSystem", code, display, value_numeric::float8 AS "valueNumeric", value_text AS "valueText", unit,
  reference_low::float8 AS "referenceLow", reference_high::float8 AS "referenceHigh", reference_text AS "referenceText",
  interpretation, to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt", to_char(effective_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveEndAt", effective_period_open AS "effectivePeriodOpen",
  value_system AS "valueSystem", value_code AS "valueCode", data_absent_reason AS "dataAbsentReason", part_of_procedure_id AS "partOfProcedureId",
  to_char(issued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "issuedAt", not_done_reason_system AS "notDoneReasonSystem", not_done_reason_code AS "notDoneReasonCode") r) AS "observations",
  (SELECT coalesce(json_agg(r ORDER BY t.recorded_at DESC, t.id), '[]') FROM (SELECT * FROM conditions WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $2) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  verification_status AS "verificationStatus", category, body_site_system AS "bodySiteSystem", body_site_code AS "bodySiteCode",
  to_char(onset_date, 'YYYY-MM-DD') AS "onsetDate", to_char(abatement_date, 'YYYY-MM-DD') AS "abatementDate", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt",
  to_char(onset_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetAt", to_char(abatement_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "abatementAt", coalesce(other_codings, '[]'::jsonb) AS "otherCodings",
  severity_system AS "severitySystem", severity_code AS "severityCode") r) AS "conditions",
  (SELECT coalesce(json_agg(r ORDER BY t.start_date DESC, t.id), '[]') FROM (SELECT * FROM medications WHERE patient_id = $1 ORDER BY start_date DESC, id LIMIT $2) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status,
  to_char(start_date, 'YYYY-MM-DD') AS "startDate", to_char(end_date, 'YYYY-MM-DD') AS "endDate", dosage_text AS "dosageText",
  intent, do_not_perform AS "doNotPerform", code_from_reference AS "codeFromReference", to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", reason_system AS "reasonSystem", reason_code AS "reasonCode", supply) r) AS "medications",
  (SELECT coalesce(json_agg(r ORDER BY t.handed_over_at DESC NULLS LAST, t.prepared_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM medication_dispenses WHERE patient_id = $1 ORDER BY handed_over_at DESC NULLS LAST, prepared_at DESC NULLS LAST, id LIMIT $2) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, code_from_reference AS "codeFromReference",
  to_char(handed_over_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "handedOverAt", to_char(prepared_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "preparedAt", days_supply AS "daysSupply", quantity, dosage) r) AS "dispenses",
  (SELECT coalesce(json_agg(r ORDER BY t.performed_at DESC, t.id), '[]') FROM (SELECT * FROM procedures WHERE patient_id = $1 ORDER BY performed_at DESC, id LIMIT $2) t
  CROSS JOIN LATERAL (SELECT id, encounter_id AS "encounterId", code_system AS "codeSystem", code, display, status,
  to_char(performed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "performedAt", to_char(performed_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "performedEndAt", performed_period_open AS "performedPeriodOpen",
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  body_site_system AS "bodySiteSystem", body_site_code AS "bodySiteCode", reason_system AS "reasonSystem", reason_code AS "reasonCode") r) AS "procedures",
  (SELECT coalesce(json_agg(r ORDER BY t.recorded_at DESC, t.id), '[]') FROM (SELECT * FROM allergies WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $2) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt", to_char(onset_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetAt", to_char(onset_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetEndAt", onset_period_open AS "onsetPeriodOpen") r) AS "allergies",
  (SELECT coalesce(json_agg(r ORDER BY t.authored_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM clinical_requests WHERE patient_id = $1 ORDER BY authored_at DESC NULLS LAST, id LIMIT $2) t
  CROSS JOIN LATERAL (SELECT id, kind, code_system AS "codeSystem", code, display, status, intent, do_not_perform AS "doNotPerform",
  to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", reason_system AS "reasonSystem", reason_code AS "reasonCode",
  refusal_reason_system AS "refusalReasonSystem", refusal_reason_code AS "refusalReasonCode") r) AS "requests",
  (SELECT coalesce(json_agg(r ORDER BY t.recorded_at DESC, t.id), '[]') FROM (SELECT * FROM adverse_events WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $2) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt", to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "occurredAt") r) AS "adverseEvents",
  (SELECT coalesce(json_agg(r ORDER BY t.occurred_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM immunizations WHERE patient_id = $1 ORDER BY occurred_at DESC NULLS LAST, id LIMIT $2) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "occurredAt", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt",
  primary_source AS "primarySource", status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode") r) AS "immunizations",
  (SELECT coalesce(json_agg(r ORDER BY t.sent_at DESC NULLS LAST, t.recorded_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM communications WHERE patient_id = $1 ORDER BY sent_at DESC NULLS LAST, recorded_at DESC NULLS LAST, id LIMIT $2) t
  CROSS JOIN LATERAL (SELECT id, category_system AS "categorySystem", category_code AS "categoryCode", category_display AS "categoryDisplay", status,
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "sentAt", to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "receivedAt", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt") r) AS "communications",
  (SELECT coalesce(json_agg(r ORDER BY t.effective_at DESC NULLS LAST, t.recorded_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM medication_administrations WHERE patient_id = $1 ORDER BY effective_at DESC NULLS LAST, recorded_at DESC NULLS LAST, id LIMIT $2) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, code_from_reference AS "codeFromReference", status,
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt", to_char(effective_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveEndAt", effective_is_period AS "effectiveIsPeriod", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt") r) AS "administrations",
  (SELECT coalesce(json_agg(r ORDER BY t.execution_end_at DESC NULLS LAST, t.authored_at DESC NULLS LAST, t.id), '[]') FROM (SELECT * FROM tasks WHERE patient_id = $1 ORDER BY execution_end_at DESC NULLS LAST, authored_at DESC NULLS LAST, id LIMIT $2) t
  CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, intent, status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", focus, coalesce(based_on, '[]'::jsonb) AS "basedOn",
  to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", to_char(execution_start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "executionStartAt", to_char(execution_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "executionEndAt") r) AS "tasks"
FROM (SELECT id, mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex, sex_code AS "sexCode",
  coalesce(race, '[]'::jsonb) AS race, coalesce(ethnicity, '[]'::jsonb) AS ethnicity,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", to_char(deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt" FROM patients WHERE id = $1) p;

-- name: patientsByIds
SELECT id, mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex, sex_code AS "sexCode",
  coalesce(race, '[]'::jsonb) AS race, coalesce(ethnicity, '[]'::jsonb) AS ethnicity,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", to_char(deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", data_version::text AS "dataVersion" FROM patients WHERE id = ANY($1::uuid[]) ORDER BY id;

-- name: chartsEncounters
SELECT t.patient_id::text AS "patientId", json_agg(r ORDER BY t.start_at DESC, t.id) AS rows
FROM encounters t CROSS JOIN LATERAL (SELECT id, class, class_code AS "classCode", status, type_system AS "typeSystem", type_code AS "typeCode", type_display AS "typeDisplay",
  coalesce(type_other_codings, '[]'::jsonb) AS "typeOtherCodings",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", reason_display AS "reasonDisplay",
  to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "startAt", to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "endAt", disposition,
  discharge_disposition_system AS "dischargeDispositionSystem", discharge_disposition_code AS "dischargeDispositionCode",
  coalesce(diagnoses, '[]'::jsonb) AS diagnoses, coalesce(reason_references, '[]'::jsonb) AS "reasonReferences",
  coalesce(locations, '[]'::jsonb) AS locations) r
WHERE t.patient_id = ANY($1::uuid[]) GROUP BY t.patient_id;

-- name: chartsObservations
SELECT t.patient_id::text AS "patientId", json_agg(r ORDER BY t.effective_at DESC, t.id) AS rows
FROM observations t CROSS JOIN LATERAL (SELECT id, encounter_id AS "encounterId", panel_id AS "panelId", panel_own_value AS "panelOwnValue", category, category_system AS "categorySystem", status,
  code_system AS "codeSystem", code, display, value_numeric::float8 AS "valueNumeric", value_text AS "valueText", unit,
  reference_low::float8 AS "referenceLow", reference_high::float8 AS "referenceHigh", reference_text AS "referenceText",
  interpretation, to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt", to_char(effective_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveEndAt", effective_period_open AS "effectivePeriodOpen",
  value_system AS "valueSystem", value_code AS "valueCode", data_absent_reason AS "dataAbsentReason", part_of_procedure_id AS "partOfProcedureId",
  to_char(issued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "issuedAt", not_done_reason_system AS "notDoneReasonSystem", not_done_reason_code AS "notDoneReasonCode") r
WHERE t.patient_id = ANY($1::uuid[]) GROUP BY t.patient_id;

-- name: chartsRecords
SELECT 'conditions' AS part, t.patient_id::text AS "patientId", json_agg(r ORDER BY t.recorded_at DESC, t.id) AS rows
FROM conditions t CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  verification_status AS "verificationStatus", category, body_site_system AS "bodySiteSystem", body_site_code AS "bodySiteCode",
  to_char(onset_date, 'YYYY-MM-DD') AS "onsetDate", to_char(abatement_date, 'YYYY-MM-DD') AS "abatementDate", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt",
  to_char(onset_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetAt", to_char(abatement_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "abatementAt", coalesce(other_codings, '[]'::jsonb) AS "otherCodings",
  severity_system AS "severitySystem", severity_code AS "severityCode") r
WHERE t.patient_id = ANY($1::uuid[]) GROUP BY t.patient_id
UNION ALL
SELECT 'medications' AS part, t.patient_id::text AS "patientId", json_agg(r ORDER BY t.start_date DESC, t.id) AS rows
FROM medications t CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status,
  to_char(start_date, 'YYYY-MM-DD') AS "startDate", to_char(end_date, 'YYYY-MM-DD') AS "endDate", dosage_text AS "dosageText",
  intent, do_not_perform AS "doNotPerform", code_from_reference AS "codeFromReference", to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", reason_system AS "reasonSystem", reason_code AS "reasonCode", supply) r
WHERE t.patient_id = ANY($1::uuid[]) GROUP BY t.patient_id
UNION ALL
SELECT 'procedures' AS part, t.patient_id::text AS "patientId", json_agg(r ORDER BY t.performed_at DESC, t.id) AS rows
FROM procedures t CROSS JOIN LATERAL (SELECT id, encounter_id AS "encounterId", code_system AS "codeSystem", code, display, status,
  to_char(performed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "performedAt", to_char(performed_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "performedEndAt", performed_period_open AS "performedPeriodOpen",
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  body_site_system AS "bodySiteSystem", body_site_code AS "bodySiteCode", reason_system AS "reasonSystem", reason_code AS "reasonCode") r
WHERE t.patient_id = ANY($1::uuid[]) GROUP BY t.patient_id
UNION ALL
SELECT 'allergies' AS part, t.patient_id::text AS "patientId", json_agg(r ORDER BY t.recorded_at DESC, t.id) AS rows
FROM allergies t CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt", to_char(onset_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetAt", to_char(onset_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetEndAt", onset_period_open AS "onsetPeriodOpen") r
WHERE t.patient_id = ANY($1::uuid[]) GROUP BY t.patient_id
UNION ALL
SELECT 'requests' AS part, t.patient_id::text AS "patientId", json_agg(r ORDER BY t.authored_at DESC NULLS LAST, t.id) AS rows
FROM clinical_requests t CROSS JOIN LATERAL (SELECT id, kind, code_system AS "codeSystem", code, display, status, intent, do_not_perform AS "doNotPerform",
  to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", reason_system AS "reasonSystem", reason_code AS "reasonCode",
  refusal_reason_system AS "refusalReasonSystem", refusal_reason_code AS "refusalReasonCode") r
WHERE t.patient_id = ANY($1::uuid[]) GROUP BY t.patient_id
UNION ALL
SELECT 'adverseEvents' AS part, t.patient_id::text AS "patientId", json_agg(r ORDER BY t.recorded_at DESC, t.id) AS rows
FROM adverse_events t CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt", to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "occurredAt") r
WHERE t.patient_id = ANY($1::uuid[]) GROUP BY t.patient_id
UNION ALL
SELECT 'dispenses' AS part, t.patient_id::text AS "patientId", json_agg(r ORDER BY t.handed_over_at DESC NULLS LAST, t.prepared_at DESC NULLS LAST, t.id) AS rows
FROM medication_dispenses t CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, code_from_reference AS "codeFromReference",
  to_char(handed_over_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "handedOverAt", to_char(prepared_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "preparedAt", days_supply AS "daysSupply", quantity, dosage) r
WHERE t.patient_id = ANY($1::uuid[]) GROUP BY t.patient_id
UNION ALL
SELECT 'immunizations' AS part, t.patient_id::text AS "patientId", json_agg(r ORDER BY t.occurred_at DESC NULLS LAST, t.id) AS rows
FROM immunizations t CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "occurredAt", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt",
  primary_source AS "primarySource", status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode") r
WHERE t.patient_id = ANY($1::uuid[]) GROUP BY t.patient_id
UNION ALL
SELECT 'communications' AS part, t.patient_id::text AS "patientId", json_agg(r ORDER BY t.sent_at DESC NULLS LAST, t.recorded_at DESC NULLS LAST, t.id) AS rows
FROM communications t CROSS JOIN LATERAL (SELECT id, category_system AS "categorySystem", category_code AS "categoryCode", category_display AS "categoryDisplay", status,
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "sentAt", to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "receivedAt", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt") r
WHERE t.patient_id = ANY($1::uuid[]) GROUP BY t.patient_id
UNION ALL
SELECT 'administrations' AS part, t.patient_id::text AS "patientId", json_agg(r ORDER BY t.effective_at DESC NULLS LAST, t.recorded_at DESC NULLS LAST, t.id) AS rows
FROM medication_administrations t CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, code_from_reference AS "codeFromReference", status,
  status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt", to_char(effective_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveEndAt", effective_is_period AS "effectiveIsPeriod", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt") r
WHERE t.patient_id = ANY($1::uuid[]) GROUP BY t.patient_id
UNION ALL
SELECT 'tasks' AS part, t.patient_id::text AS "patientId", json_agg(r ORDER BY t.execution_end_at DESC NULLS LAST, t.authored_at DESC NULLS LAST, t.id) AS rows
FROM tasks t CROSS JOIN LATERAL (SELECT id, code_system AS "codeSystem", code, display, status, intent, status_reason_system AS "statusReasonSystem", status_reason_code AS "statusReasonCode",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", focus, coalesce(based_on, '[]'::jsonb) AS "basedOn",
  to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", to_char(execution_start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "executionStartAt", to_char(execution_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "executionEndAt") r
WHERE t.patient_id = ANY($1::uuid[]) GROUP BY t.patient_id;

-- name: chartsEncountersWindowed
SELECT t.patient_id::text AS "patientId", coalesce(json_agg(r ORDER BY t.start_at DESC, t.id) FILTER (WHERE t.end_at IS NULL OR t.end_at >= $2::timestamptz OR t.type_code = ANY($3::text[])), '[]') AS rows, count(*)::int AS n
FROM encounters t CROSS JOIN LATERAL (SELECT id, class, class_code AS "classCode", status, type_system AS "typeSystem", type_code AS "typeCode", type_display AS "typeDisplay",
  coalesce(type_other_codings, '[]'::jsonb) AS "typeOtherCodings",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", reason_display AS "reasonDisplay",
  to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "startAt", to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "endAt", disposition,
  discharge_disposition_system AS "dischargeDispositionSystem", discharge_disposition_code AS "dischargeDispositionCode",
  coalesce(diagnoses, '[]'::jsonb) AS diagnoses, coalesce(reason_references, '[]'::jsonb) AS "reasonReferences",
  coalesce(locations, '[]'::jsonb) AS locations) r
WHERE t.patient_id = ANY($1::uuid[]) GROUP BY t.patient_id;

-- name: chartsObservationsCoded
SELECT t.patient_id::text AS "patientId", json_agg(r ORDER BY t.effective_at DESC, t.id) AS rows
FROM observations t CROSS JOIN LATERAL (SELECT id, encounter_id AS "encounterId", panel_id AS "panelId", panel_own_value AS "panelOwnValue", category, category_system AS "categorySystem", status,
  code_system AS "codeSystem", code, display, value_numeric::float8 AS "valueNumeric", value_text AS "valueText", unit,
  reference_low::float8 AS "referenceLow", reference_high::float8 AS "referenceHigh", reference_text AS "referenceText",
  interpretation, to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt", to_char(effective_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveEndAt", effective_period_open AS "effectivePeriodOpen",
  value_system AS "valueSystem", value_code AS "valueCode", data_absent_reason AS "dataAbsentReason", part_of_procedure_id AS "partOfProcedureId",
  to_char(issued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "issuedAt", not_done_reason_system AS "notDoneReasonSystem", not_done_reason_code AS "notDoneReasonCode") r
WHERE t.patient_id = ANY($1::uuid[]) AND t.code = ANY($2::text[]) AND (t.code <> ALL($3::text[]) OR coalesce(t.effective_end_at, t.effective_at) >= $4::timestamptz) GROUP BY t.patient_id;

-- name: observationCounts
SELECT patient_id::text AS "patientId", count(*)::int AS n FROM observations WHERE patient_id = ANY($1::uuid[]) GROUP BY patient_id;

-- name: observationsByIds
SELECT id, encounter_id AS "encounterId", panel_id AS "panelId", panel_own_value AS "panelOwnValue", category, category_system AS "categorySystem", status,
  code_system AS "codeSystem", code, display, value_numeric::float8 AS "valueNumeric", value_text AS "valueText", unit,
  reference_low::float8 AS "referenceLow", reference_high::float8 AS "referenceHigh", reference_text AS "referenceText",
  interpretation, to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt", to_char(effective_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveEndAt", effective_period_open AS "effectivePeriodOpen",
  value_system AS "valueSystem", value_code AS "valueCode", data_absent_reason AS "dataAbsentReason", part_of_procedure_id AS "partOfProcedureId",
  to_char(issued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "issuedAt", not_done_reason_system AS "notDoneReasonSystem", not_done_reason_code AS "notDoneReasonCode" FROM observations WHERE patient_id = $1 AND id = ANY($2::uuid[]) ORDER BY effective_at DESC, id;

-- name: encountersByIds
SELECT id, class, class_code AS "classCode", status, type_system AS "typeSystem", type_code AS "typeCode", type_display AS "typeDisplay",
  coalesce(type_other_codings, '[]'::jsonb) AS "typeOtherCodings",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", reason_display AS "reasonDisplay",
  to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "startAt", to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "endAt", disposition,
  discharge_disposition_system AS "dischargeDispositionSystem", discharge_disposition_code AS "dischargeDispositionCode",
  coalesce(diagnoses, '[]'::jsonb) AS diagnoses, coalesce(reason_references, '[]'::jsonb) AS "reasonReferences",
  coalesce(locations, '[]'::jsonb) AS locations FROM encounters WHERE patient_id = $1 AND id = ANY($2::uuid[]) ORDER BY start_at DESC, id;

-- name: conditionsByIds
SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  verification_status AS "verificationStatus", category, body_site_system AS "bodySiteSystem", body_site_code AS "bodySiteCode",
  to_char(onset_date, 'YYYY-MM-DD') AS "onsetDate", to_char(abatement_date, 'YYYY-MM-DD') AS "abatementDate", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt",
  to_char(onset_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "onsetAt", to_char(abatement_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "abatementAt", coalesce(other_codings, '[]'::jsonb) AS "otherCodings",
  severity_system AS "severitySystem", severity_code AS "severityCode" FROM conditions WHERE patient_id = $1 AND id = ANY($2::uuid[]) ORDER BY recorded_at DESC, id;

-- name: citedRows
SELECT 'pat:' || id AS citation FROM patients WHERE id = $1 AND id = ANY($2::uuid[])
UNION ALL SELECT 'enc:' || id FROM encounters WHERE patient_id = $1 AND id = ANY($3::uuid[])
UNION ALL SELECT 'obs:' || id FROM observations WHERE patient_id = $1 AND id = ANY($4::uuid[])
UNION ALL SELECT 'cond:' || id FROM conditions WHERE patient_id = $1 AND id = ANY($5::uuid[])
UNION ALL SELECT 'med:' || id FROM medications WHERE patient_id = $1 AND id = ANY($6::uuid[])
UNION ALL SELECT 'proc:' || id FROM procedures WHERE patient_id = $1 AND id = ANY($7::uuid[])
UNION ALL SELECT 'note:' || id FROM clinical_notes WHERE patient_id = $1 AND id = ANY($8::uuid[])
UNION ALL SELECT 'allergy:' || id FROM allergies WHERE patient_id = $1 AND id = ANY($9::uuid[])
UNION ALL SELECT 'req:' || id FROM clinical_requests WHERE patient_id = $1 AND id = ANY($10::uuid[])
UNION ALL SELECT 'ae:' || id FROM adverse_events WHERE patient_id = $1 AND id = ANY($11::uuid[]);

-- ======================================================================
-- access checks
-- ======================================================================

-- name: proposalsOnTeams
SELECT p.id, p.patient_id AS "patientId", p.proposer_id AS "proposerId", p.status FROM proposals p
WHERE p.id = ANY($1::uuid[]) AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.patient_id AND t.care_team_id = ANY($2::uuid[])) AND (p.submitted_at IS NOT NULL OR p.proposer_id = $3::uuid);

-- name: patientsOfActiveUser
SELECT p.patient_id AS "patientId" FROM unnest($3::uuid[]) AS p(patient_id)
WHERE EXISTS (SELECT 1 FROM patient_care_teams t
    JOIN care_team_members m ON m.care_team_id = t.care_team_id JOIN staff_users u ON u.id = m.staff_user_id
    WHERE t.patient_id = p.patient_id AND u.id = $1 AND u.active AND u.role = ANY($2::text[]));

-- ======================================================================
-- audit trail
-- ======================================================================

-- name: boundedAuditBegin
BEGIN; SET LOCAL lock_timeout = 2500; SET LOCAL statement_timeout = 2500;

-- name: insertAuditEvents
INSERT INTO audit_events
  (occurred_at, actor_id, actor_role, patient_id, action, fields, row_count, outcome,
   break_glass_reason, correlation_id, hash_version, channel, break_glass, actor_name, target_staff_id, target_care_team_id)
  SELECT e.occurred_at, e.actor_id, e.actor_role, e.patient_id, e.action,
    ARRAY(SELECT jsonb_array_elements_text(e.fields)), e.row_count, e.outcome,
    e.break_glass_reason, e.correlation_id, e.hash_version, e.channel, e.break_glass, e.actor_name, e.target_staff_id, e.target_care_team_id
  FROM unnest($1::timestamptz[], $2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::jsonb[], $7::int[], $8::text[],
    $9::text[], $10::text[], $11::smallint[], $12::text[], $13::boolean[], $14::text[], $15::uuid[], $16::uuid[])
    WITH ORDINALITY AS e(occurred_at, actor_id, actor_role, patient_id, action, fields, row_count, outcome,
      break_glass_reason, correlation_id, hash_version, channel, break_glass, actor_name, target_staff_id, target_care_team_id, position)
  ORDER BY e.position;

-- name: breakGlassPage
SELECT a.id::text AS id,
  to_char(a.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurredAt",
  a.actor_id::text AS "actorId", u.username AS "actorUsername", a.actor_role AS "actorRole", a.patient_id::text AS "patientId",
  a.action, a.break_glass_reason AS "reason", a.correlation_id AS "correlationId", a.channel
  FROM audit_events a LEFT JOIN staff_users u ON u.id = a.actor_id
  WHERE a.break_glass AND ($1::bigint IS NULL OR a.id < $1::bigint)
  ORDER BY a.id DESC LIMIT $2;

-- ======================================================================
-- audit sealer (its own connection; the embedded database: the pool) and audit-verify
-- ======================================================================

-- name: tryLeadAuditSealer
SELECT pg_try_advisory_lock($1::bigint) AS leads;

-- name: sealHead
SELECT s.seq::text AS seq, s.event_id::text AS "eventId", s.hash,
  e.xact_id::text AS "xactId", (e.id IS NULL) AS "eventMissing"
  FROM audit_seals s LEFT JOIN audit_events e ON e.id = s.event_id
  ORDER BY s.seq DESC LIMIT 1;

-- name: sealHorizon
WITH next AS (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS id),
  running AS (
    SELECT backend_xid::text::bigint AS xid FROM pg_stat_activity WHERE datname = current_database() AND backend_xid IS NOT NULL
    UNION ALL SELECT transaction::text::bigint FROM pg_prepared_xacts WHERE database = current_database())
  SELECT ((SELECT id FROM next) - coalesce(max((((SELECT id FROM next) - running.xid) % 4294967296 + 4294967296) % 4294967296), 0))::text AS horizon
  FROM running;

-- name: sealableEvents
SELECT e.id::text AS id,
  to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurredAt",
  e.actor_id::text AS "actorId", e.actor_role AS "actorRole", e.patient_id::text AS "patientId",
  e.action, e.fields, e.row_count AS "rowCount", e.outcome, e.break_glass_reason AS "breakGlassReason",
  e.correlation_id AS "correlationId", e.hash_version AS "hashVersion", e.channel,
  e.break_glass AS "breakGlass", e.actor_name AS "actorName",
  e.target_staff_id::text AS "targetStaffId", e.target_care_team_id::text AS "targetCareTeamId",
  e.prev_hash AS "inlinePrevHash", e.hash AS "inlineHash", e.xact_id::text AS "xactId"
  FROM audit_events e
  WHERE (e.xact_id, e.id) > ($1::bigint, $2::bigint) AND e.xact_id < $3::bigint
  ORDER BY e.xact_id, e.id LIMIT $4;

-- name: insertAuditSeals
INSERT INTO audit_seals (seq, event_id, prev_hash, hash)
  SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[]);

-- name: oldestUnsealed
SELECT (extract(epoch FROM min(u.occurred_at)) * 1000)::float8 AS "oldestMs"
  FROM (SELECT e.occurred_at FROM audit_events e WHERE (e.xact_id, e.id) > ($1::bigint, $2::bigint)
    ORDER BY e.xact_id, e.id LIMIT 100) u;

-- name: chainPage
SELECT s.seq::text AS seq, s.event_id::text AS "eventId", s.prev_hash AS "prevHash",
  s.hash AS "sealHash", (e.id IS NULL) AS "eventMissing", e.id::text AS id,
  to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurredAt",
  e.actor_id::text AS "actorId", e.actor_role AS "actorRole", e.patient_id::text AS "patientId",
  e.action, e.fields, e.row_count AS "rowCount", e.outcome, e.break_glass_reason AS "breakGlassReason",
  e.correlation_id AS "correlationId", e.hash_version AS "hashVersion", e.channel,
  e.break_glass AS "breakGlass", e.actor_name AS "actorName",
  e.target_staff_id::text AS "targetStaffId", e.target_care_team_id::text AS "targetCareTeamId",
  e.prev_hash AS "inlinePrevHash", e.hash AS "inlineHash", e.xact_id::text AS "xactId"
  FROM audit_seals s LEFT JOIN audit_events e ON e.id = s.event_id
  WHERE s.seq > $1::bigint ORDER BY s.seq LIMIT $2;

-- name: unsealedOlderThan
SELECT count(*)::int AS count, min(e.id)::text AS "firstId"
  FROM audit_events e
  WHERE e.occurred_at < now() - make_interval(secs => $1::int)
    AND NOT EXISTS (SELECT 1 FROM audit_seals s WHERE s.event_id = e.id);

-- name: trailDatabase
SELECT i.id::text AS "installationId", d.oid::text AS "databaseOid"
  FROM vigil_installation i JOIN pg_database d ON d.datname = current_database();

-- name: systemIdentifier
SELECT system_identifier::text AS "systemIdentifier" FROM pg_control_system();

-- ======================================================================
-- approval workflow (effects inserted as vigil_writer)
-- ======================================================================

-- name: insertProposal
INSERT INTO proposals (patient_id, kind, status, proposer_id, proposer_role, agent_turn_id, current_version, required_approvals, expires_at,
  identity_key, submitted_at)
VALUES ($1, $2, $8, $3, $4, $5, 1, $6, $7, $9, CASE WHEN $8 = 'draft' THEN NULL ELSE now() END) RETURNING id;

-- name: submitDraft
UPDATE proposals SET status = 'pending', submitted_at = now(), expires_at = $2, required_approvals = $3, updated_at = now()
WHERE id = $1 AND status = 'draft';

-- name: liveDuplicate
SELECT p.id FROM proposals p WHERE p.patient_id = $1 AND p.kind = $2 AND p.identity_key = $3
  AND p.status IN ('draft', 'pending', 'approved', 'executing') AND ($4::uuid IS NULL OR p.id <> $4::uuid) LIMIT 1;

-- name: insertVersion
INSERT INTO proposal_versions (proposal_id, version, content, rationale, citations, content_hash, created_by)
VALUES ($1, $2, $3::jsonb, $4, $5::text[], $6, $7);

-- name: insertDecision
INSERT INTO proposal_decisions (proposal_id, version, decision, actor_id, actor_role, reason, content_hash)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: insertOutbox
INSERT INTO proposal_outbox (proposal_id, job, run_at) VALUES ($1, $2, $3) ON CONFLICT (proposal_id, job) DO NOTHING;

-- name: lockProposal
SELECT p.id, p.patient_id AS "patientId", p.kind, p.status, p.proposer_id AS "proposerId",
  p.proposer_role AS "proposerRole", (SELECT s.display_name FROM staff_users s WHERE s.id = p.proposer_id) AS "proposerName", p.agent_turn_id AS "agentTurnId", p.current_version AS "currentVersion",
  p.required_approvals AS "requiredApprovals", to_char(p.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "expiresAt", p.outcome, p.failure_kind AS "failureKind",
  p.execution_attempts AS "executionAttempts", to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdAt", to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "updatedAt",
  to_char(p.submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "submittedAt", (SELECT coalesce(jsonb_agg(jsonb_build_object('destination', d.destination, 'status', d.status, 'attempts', d.attempts,
    'nextAttemptAt', CASE WHEN d.status IN ('pending', 'retrying') THEN to_char(greatest(d.next_attempt_at, coalesce(d.lease_until, d.next_attempt_at)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END,
    'reason', d.last_error, 'httpStatus', d.last_http_status,
    'resource', CASE WHEN d.resource_id IS NOT NULL THEN jsonb_build_object('type', d.resource_type, 'id', d.resource_id, 'version', d.resource_version) END,
    'messageId', CASE WHEN d.destination = 'webhook' THEN 'msg_' || d.id END,
    'deliveredAt', to_char(d.delivered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) ORDER BY d.destination), '[]'::jsonb)
  FROM proposal_deliveries d WHERE d.proposal_id = p.id) AS "deliveries" FROM proposals p WHERE p.id = $1 FOR UPDATE;

-- name: proposalById
SELECT p.id, p.patient_id AS "patientId", p.kind, p.status, p.proposer_id AS "proposerId",
  p.proposer_role AS "proposerRole", (SELECT s.display_name FROM staff_users s WHERE s.id = p.proposer_id) AS "proposerName", p.agent_turn_id AS "agentTurnId", p.current_version AS "currentVersion",
  p.required_approvals AS "requiredApprovals", to_char(p.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "expiresAt", p.outcome, p.failure_kind AS "failureKind",
  p.execution_attempts AS "executionAttempts", to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdAt", to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "updatedAt",
  to_char(p.submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "submittedAt", (SELECT coalesce(jsonb_agg(jsonb_build_object('destination', d.destination, 'status', d.status, 'attempts', d.attempts,
    'nextAttemptAt', CASE WHEN d.status IN ('pending', 'retrying') THEN to_char(greatest(d.next_attempt_at, coalesce(d.lease_until, d.next_attempt_at)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END,
    'reason', d.last_error, 'httpStatus', d.last_http_status,
    'resource', CASE WHEN d.resource_id IS NOT NULL THEN jsonb_build_object('type', d.resource_type, 'id', d.resource_id, 'version', d.resource_version) END,
    'messageId', CASE WHEN d.destination = 'webhook' THEN 'msg_' || d.id END,
    'deliveredAt', to_char(d.delivered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) ORDER BY d.destination), '[]'::jsonb)
  FROM proposal_deliveries d WHERE d.proposal_id = p.id) AS "deliveries" FROM proposals p WHERE p.id = $1;

-- name: updateStatus
UPDATE proposals SET status = $2, outcome = $3, failure_kind = $4, updated_at = now() WHERE id = $1;

-- name: bumpVersion
UPDATE proposals SET current_version = $2, identity_key = $3, updated_at = now() WHERE id = $1;

-- name: countApprovals
SELECT count(DISTINCT d.actor_id)::int AS n FROM proposal_decisions d
JOIN proposal_versions v ON v.proposal_id = d.proposal_id AND v.version = d.version
WHERE d.proposal_id = $1 AND d.version = $2 AND d.decision = 'approve' AND d.content_hash = $3 AND d.actor_id <> v.created_by
    AND NOT EXISTS (SELECT 1 FROM proposal_decisions w WHERE w.proposal_id = d.proposal_id AND w.version = d.version
      AND w.actor_id = d.actor_id AND w.decision IN ('withdraw', 'discount'));

-- name: decisionsBy
SELECT bool_or(decision = 'approve') AS "approved", bool_or(decision IN ('withdraw', 'discount')) AS "withdrawn"
FROM proposal_decisions WHERE proposal_id = $1 AND version = $2 AND actor_id = $3;

-- name: lockDecider
SELECT 1 AS "eligible" FROM staff_users u
JOIN care_team_members m ON m.staff_user_id = u.id JOIN patient_care_teams t ON t.care_team_id = m.care_team_id
WHERE u.id = $1 AND u.active AND u.role = ANY($3::text[]) AND t.patient_id = $2
FOR SHARE OF u, m, t;

-- name: eligibleApprovers
SELECT count(*)::int AS n FROM staff_users s
WHERE s.id <> ALL($3::uuid[]) AND EXISTS (SELECT 1 FROM patient_care_teams t
    JOIN care_team_members m ON m.care_team_id = t.care_team_id JOIN staff_users u ON u.id = m.staff_user_id
    WHERE t.patient_id = $1::uuid AND u.id = s.id AND u.active AND u.role = ANY($2::text[]));

-- name: versionsOf
SELECT v.version, v.content, v.rationale, v.citations, v.content_hash AS "contentHash", v.created_by AS "createdBy",
  (SELECT s.display_name FROM staff_users s WHERE s.id = v.created_by) AS "createdByName",
  coalesce((SELECT d.actor_role FROM proposal_decisions d WHERE d.proposal_id = v.proposal_id AND d.version = v.version AND d.decision = 'edit'
    ORDER BY d.created_at LIMIT 1), p.proposer_role) AS "createdByRole", to_char(v.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdAt"
FROM proposal_versions v JOIN proposals p ON p.id = v.proposal_id WHERE v.proposal_id = $1 ORDER BY v.version;

-- name: decisionsOf
SELECT d.id, d.version, d.decision, d.actor_id AS "actorId", d.actor_role AS "actorRole", (SELECT s.display_name FROM staff_users s WHERE s.id = d.actor_id) AS "actorName",
  d.reason, d.content_hash AS "contentHash", to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdAt"
FROM proposal_decisions d WHERE d.proposal_id = $1
ORDER BY d.created_at, array_position(ARRAY['edit', 'approve', 'withdraw', 'reject', 'cancel'], d.decision), d.id;

-- name: listForTeams
SELECT p.id, p.patient_id AS "patientId", p.kind, p.status, p.proposer_id AS "proposerId",
  p.proposer_role AS "proposerRole", (SELECT s.display_name FROM staff_users s WHERE s.id = p.proposer_id) AS "proposerName", p.agent_turn_id AS "agentTurnId", p.current_version AS "currentVersion",
  p.required_approvals AS "requiredApprovals", to_char(p.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "expiresAt", p.outcome, p.failure_kind AS "failureKind",
  p.execution_attempts AS "executionAttempts", to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdAt", to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "updatedAt",
  to_char(p.submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "submittedAt", (SELECT coalesce(jsonb_agg(jsonb_build_object('destination', d.destination, 'status', d.status, 'attempts', d.attempts,
    'nextAttemptAt', CASE WHEN d.status IN ('pending', 'retrying') THEN to_char(greatest(d.next_attempt_at, coalesce(d.lease_until, d.next_attempt_at)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END,
    'reason', d.last_error, 'httpStatus', d.last_http_status,
    'resource', CASE WHEN d.resource_id IS NOT NULL THEN jsonb_build_object('type', d.resource_type, 'id', d.resource_id, 'version', d.resource_version) END,
    'messageId', CASE WHEN d.destination = 'webhook' THEN 'msg_' || d.id END,
    'deliveredAt', to_char(d.delivered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) ORDER BY d.destination), '[]'::jsonb)
  FROM proposal_deliveries d WHERE d.proposal_id = p.id) AS "deliveries", (SELECT count(DISTINCT d.actor_id)::int FROM proposal_decisions d
    JOIN proposal_versions v ON v.proposal_id = d.proposal_id AND v.version = d.version
    WHERE d.proposal_id = p.id AND d.version = p.current_version AND d.decision = 'approve' AND d.content_hash = v.content_hash AND d.actor_id <> v.created_by
    AND NOT EXISTS (SELECT 1 FROM proposal_decisions w WHERE w.proposal_id = d.proposal_id AND w.version = d.version
      AND w.actor_id = d.actor_id AND w.decision IN ('withdraw', 'discount'))) AS "approvalsGiven", ARRAY(SELECT c.code FROM patient_care_teams t JOIN care_teams c ON c.id = t.care_team_id
    WHERE t.patient_id = p.patient_id AND t.care_team_id = ANY($1::uuid[]) ORDER BY c.code) AS "careTeams" FROM proposals p
WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.patient_id AND t.care_team_id = ANY($1::uuid[]))
  AND (p.submitted_at IS NOT NULL OR p.proposer_id = $9::uuid) AND ($2::text IS NOT NULL OR p.submitted_at IS NOT NULL)
  AND ($2::text IS NULL OR p.status = $2) AND ($3::text IS NULL OR p.kind = $3)
  AND ($4::uuid IS NULL OR p.patient_id = $4) AND ($5::uuid IS NULL OR p.proposer_id = $5)
  AND ($10::int IS NULL OR coalesce(p.submitted_at, p.created_at) <= now() - $10::int * interval '1 hour')
  AND ($6::timestamptz IS NULL OR (p.created_at, p.id) < ($6, $7::uuid))
ORDER BY p.created_at DESC, p.id DESC LIMIT $8;

-- name: listForTeamsOldest
SELECT p.id, p.patient_id AS "patientId", p.kind, p.status, p.proposer_id AS "proposerId",
  p.proposer_role AS "proposerRole", (SELECT s.display_name FROM staff_users s WHERE s.id = p.proposer_id) AS "proposerName", p.agent_turn_id AS "agentTurnId", p.current_version AS "currentVersion",
  p.required_approvals AS "requiredApprovals", to_char(p.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "expiresAt", p.outcome, p.failure_kind AS "failureKind",
  p.execution_attempts AS "executionAttempts", to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdAt", to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "updatedAt",
  to_char(p.submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "submittedAt", (SELECT coalesce(jsonb_agg(jsonb_build_object('destination', d.destination, 'status', d.status, 'attempts', d.attempts,
    'nextAttemptAt', CASE WHEN d.status IN ('pending', 'retrying') THEN to_char(greatest(d.next_attempt_at, coalesce(d.lease_until, d.next_attempt_at)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END,
    'reason', d.last_error, 'httpStatus', d.last_http_status,
    'resource', CASE WHEN d.resource_id IS NOT NULL THEN jsonb_build_object('type', d.resource_type, 'id', d.resource_id, 'version', d.resource_version) END,
    'messageId', CASE WHEN d.destination = 'webhook' THEN 'msg_' || d.id END,
    'deliveredAt', to_char(d.delivered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) ORDER BY d.destination), '[]'::jsonb)
  FROM proposal_deliveries d WHERE d.proposal_id = p.id) AS "deliveries", (SELECT count(DISTINCT d.actor_id)::int FROM proposal_decisions d
    JOIN proposal_versions v ON v.proposal_id = d.proposal_id AND v.version = d.version
    WHERE d.proposal_id = p.id AND d.version = p.current_version AND d.decision = 'approve' AND d.content_hash = v.content_hash AND d.actor_id <> v.created_by
    AND NOT EXISTS (SELECT 1 FROM proposal_decisions w WHERE w.proposal_id = d.proposal_id AND w.version = d.version
      AND w.actor_id = d.actor_id AND w.decision IN ('withdraw', 'discount'))) AS "approvalsGiven", ARRAY(SELECT c.code FROM patient_care_teams t JOIN care_teams c ON c.id = t.care_team_id
    WHERE t.patient_id = p.patient_id AND t.care_team_id = ANY($1::uuid[]) ORDER BY c.code) AS "careTeams" FROM proposals p
WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.patient_id AND t.care_team_id = ANY($1::uuid[]))
  AND (p.submitted_at IS NOT NULL OR p.proposer_id = $9::uuid) AND ($2::text IS NOT NULL OR p.submitted_at IS NOT NULL)
  AND ($2::text IS NULL OR p.status = $2) AND ($3::text IS NULL OR p.kind = $3)
  AND ($4::uuid IS NULL OR p.patient_id = $4) AND ($5::uuid IS NULL OR p.proposer_id = $5)
  AND ($10::int IS NULL OR coalesce(p.submitted_at, p.created_at) <= now() - $10::int * interval '1 hour')
  AND ($6::timestamptz IS NULL OR (p.created_at, p.id) > ($6, $7::uuid))
ORDER BY p.created_at ASC, p.id ASC LIMIT $8;

-- name: overdueProposals
SELECT id FROM proposals WHERE status IN ('draft', 'pending') AND expires_at <= $1 ORDER BY expires_at LIMIT $2;

-- name: approvedUnexecuted
SELECT id FROM proposals WHERE status IN ('approved', 'executing') AND updated_at <= now() - ($1::int * interval '1 millisecond') ORDER BY updated_at LIMIT $2;

-- name: recordAttempt
UPDATE proposals SET status = 'executing', execution_attempts = execution_attempts + 1, updated_at = now() WHERE id = $1;

-- name: recentLabOrder
SELECT 1 FROM lab_orders WHERE patient_id = $1 AND loinc_code = $2 AND created_at > now() - ($3::int * interval '1 day') LIMIT 1;

-- name: gapAlreadyClosed
SELECT 1 FROM care_gap_closures c WHERE c.patient_id = $1 AND c.measure_id = $2 AND c.period_end BETWEEN $3::date AND $4::date LIMIT 1;

-- name: insertCareGapClosure
INSERT INTO care_gap_closures (proposal_id, patient_id, content_hash, measure_id, evidence, remark_code, period_start, period_end, measure_canonical)
VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9);

-- name: insertLabOrder
INSERT INTO lab_orders (proposal_id, patient_id, content_hash, loinc_code, priority, reason) VALUES ($1, $2, $3, $4, $5, $6);

-- name: insertCareNote
INSERT INTO care_notes (proposal_id, patient_id, content_hash, note_type, text) VALUES ($1, $2, $3, $4, $5);

-- name: insertDelivery
INSERT INTO proposal_deliveries (proposal_id, destination, version, content_hash) VALUES ($1, $2, $3, $4) ON CONFLICT (proposal_id, destination) DO NOTHING;

-- name: insertOutreachTask
INSERT INTO outreach_tasks (proposal_id, patient_id, content_hash, channel, due_date, reason) VALUES ($1, $2, $3, $4, $5, $6);

-- name: expireDraftsWithoutAccess
UPDATE proposals p SET status = 'expired', updated_at = now()
WHERE p.status = 'draft' AND p.proposer_id = ANY($1::uuid[]) AND ($2::uuid[] IS NULL OR p.patient_id = ANY($2::uuid[]))
  AND NOT EXISTS (SELECT 1 FROM patient_care_teams t
    JOIN care_team_members m ON m.care_team_id = t.care_team_id JOIN staff_users u ON u.id = m.staff_user_id
    WHERE t.patient_id = p.patient_id AND u.id = p.proposer_id AND u.active AND u.role = ANY($3::text[]))
RETURNING p.id, p.patient_id AS "patientId", p.proposer_id AS "proposerId";

-- name: approvalsWithoutAccess
SELECT p.id, p.patient_id AS "patientId", p.status, p.current_version AS "version", p.required_approvals AS "requiredApprovals",
  d.actor_id AS "approverId", d.actor_role AS "approverRole", d.content_hash AS "contentHash"
FROM proposals p
JOIN proposal_decisions d ON d.proposal_id = p.id AND d.version = p.current_version
JOIN proposal_versions v ON v.proposal_id = d.proposal_id AND v.version = d.version
WHERE p.status IN ('pending', 'approved', 'executing') AND d.actor_id = ANY($1::uuid[])
  AND ($2::uuid[] IS NULL OR p.patient_id = ANY($2::uuid[])) AND d.decision = 'approve' AND d.content_hash = v.content_hash AND d.actor_id <> v.created_by
    AND NOT EXISTS (SELECT 1 FROM proposal_decisions w WHERE w.proposal_id = d.proposal_id AND w.version = d.version
      AND w.actor_id = d.actor_id AND w.decision IN ('withdraw', 'discount'))
  AND NOT EXISTS (SELECT 1 FROM patient_care_teams t
    JOIN care_team_members m ON m.care_team_id = t.care_team_id JOIN staff_users u ON u.id = m.staff_user_id
    WHERE t.patient_id = p.patient_id AND u.id = d.actor_id AND u.active AND u.role = ANY($3::text[]))
ORDER BY p.id, d.actor_id
FOR UPDATE OF p;

-- name: reopenApproved
UPDATE proposals SET status = CASE WHEN expires_at <= now() THEN 'expired' ELSE 'pending' END, updated_at = now()
WHERE id = $1 AND status IN ('approved', 'executing') RETURNING status;

-- name: touchProposal
UPDATE proposals SET updated_at = now() WHERE id = $1;

-- name: streamSubscriberActive
SELECT EXISTS (SELECT 1 FROM staff_users u WHERE u.id = $1 AND u.active AND u.role = ANY($2::text[])) AS "active";

-- name: changedSince
SELECT p.id, p.status, p.kind, p.patient_id AS "patientId", p.current_version AS "currentVersion",
  to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdAt", to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "updatedAt", to_char(p.submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "submittedAt", (SELECT coalesce(jsonb_agg(jsonb_build_object('destination', d.destination, 'status', d.status, 'attempts', d.attempts,
    'nextAttemptAt', CASE WHEN d.status IN ('pending', 'retrying') THEN to_char(greatest(d.next_attempt_at, coalesce(d.lease_until, d.next_attempt_at)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END,
    'reason', d.last_error, 'httpStatus', d.last_http_status,
    'resource', CASE WHEN d.resource_id IS NOT NULL THEN jsonb_build_object('type', d.resource_type, 'id', d.resource_id, 'version', d.resource_version) END,
    'messageId', CASE WHEN d.destination = 'webhook' THEN 'msg_' || d.id END,
    'deliveredAt', to_char(d.delivered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) ORDER BY d.destination), '[]'::jsonb)
  FROM proposal_deliveries d WHERE d.proposal_id = p.id) AS "deliveries" FROM proposals p
WHERE p.updated_at >= $3::timestamptz AND p.submitted_at IS NOT NULL AND EXISTS (SELECT 1 FROM patient_care_teams t
    JOIN care_team_members m ON m.care_team_id = t.care_team_id JOIN staff_users u ON u.id = m.staff_user_id
    WHERE t.patient_id = p.patient_id AND u.id = $1 AND u.active AND u.role = ANY($2::text[]))
ORDER BY p.updated_at, p.id LIMIT $4;

-- name: becomeWriter
SET LOCAL ROLE vigil_writer;

-- name: leaveWriter
RESET ROLE;

-- ======================================================================
-- approval queue (outbox relay)
-- ======================================================================

-- name: claimUnrelayedOutbox
SELECT id::text AS id, proposal_id AS "proposalId", job,
  greatest(0, ceil(extract(epoch FROM run_at - clock_timestamp()) * 1000))::float8 AS "delayMs"
FROM proposal_outbox WHERE relayed_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED;

-- name: markOutboxRelayed
UPDATE proposal_outbox SET relayed_at = now() WHERE id = ANY($1::bigint[]);

-- name: pendingOutboxSummary
SELECT count(*)::int AS pending,
  extract(epoch FROM clock_timestamp() - min(created_at))::float8 AS "oldestSeconds"
FROM proposal_outbox WHERE relayed_at IS NULL;

-- ======================================================================
-- effect delivery (its outbox relay, attempts, sweep and the operator's retry)
-- ======================================================================

-- name: claimUnenqueuedDeliveries
SELECT d.id, d.attempts + 1 AS attempt,
  greatest(0, ceil(extract(epoch FROM d.next_attempt_at - clock_timestamp()) * 1000))::float8 AS "delayMs"
FROM proposal_deliveries d WHERE d.status IN ('pending', 'retrying') AND d.enqueued_attempt <= d.attempts
  AND (d.lease_until IS NULL OR d.lease_until < clock_timestamp())
ORDER BY d.next_attempt_at, d.id LIMIT $1 FOR UPDATE OF d SKIP LOCKED;

-- name: markDeliveriesEnqueued
UPDATE proposal_deliveries SET enqueued_attempt = attempts + 1 WHERE id = ANY($1::uuid[]);

-- name: claimDeliveryAttempt
UPDATE proposal_deliveries d SET attempts = d.attempts + 1, lease_until = clock_timestamp() + $4::int * interval '1 millisecond', updated_at = now()
WHERE d.id = $1 AND d.attempts = $2::int - 1 AND d.status IN ('pending', 'retrying') AND (d.attempts - d.retried_from) < $3
  AND (d.lease_until IS NULL OR d.lease_until < clock_timestamp())
RETURNING d.id, d.proposal_id AS "proposalId", d.destination, d.version, d.content_hash AS "contentHash", d.attempts, (d.attempts - d.retried_from) AS "countedAttempts";

-- name: markDelivered
UPDATE proposal_deliveries SET status = 'delivered', lease_until = NULL, last_error = NULL, last_http_status = $2,
  resource_type = $3, resource_id = $4, resource_version = $5, provenance_id = $6, delivered_at = now(), updated_at = now()
WHERE id = $1 AND status IN ('pending', 'retrying') RETURNING proposal_id AS "proposalId";

-- name: markDeliveryFailed
UPDATE proposal_deliveries d SET status = CASE WHEN $5::boolean OR (d.attempts - d.retried_from) >= $6 THEN 'failed' ELSE 'retrying' END,
  next_attempt_at = clock_timestamp() + $4::int * interval '1 millisecond', lease_until = NULL, last_error = $2, last_http_status = $3, updated_at = now()
WHERE d.id = $1 AND d.attempts = $7 AND d.status IN ('pending', 'retrying') RETURNING d.proposal_id AS "proposalId", d.status;

-- name: touchDeliveredProposal
UPDATE proposals SET updated_at = now() WHERE id = $1;

-- name: overdueDeliveries
SELECT d.id, d.attempts + 1 AS attempt FROM proposal_deliveries d
WHERE d.status IN ('pending', 'retrying') AND (d.attempts - d.retried_from) < $2 AND greatest(d.next_attempt_at, coalesce(d.lease_until, d.next_attempt_at)) < clock_timestamp() - $1::int * interval '1 millisecond'
ORDER BY d.next_attempt_at LIMIT $3;

-- name: failInterruptedDeliveries
WITH failed AS (UPDATE proposal_deliveries d SET status = 'failed', last_error = 'interrupted', lease_until = NULL, updated_at = now()
  WHERE d.status IN ('pending', 'retrying') AND (d.attempts - d.retried_from) >= $1 AND (d.lease_until IS NULL OR d.lease_until < clock_timestamp())
  RETURNING d.proposal_id)
UPDATE proposals p SET updated_at = now() FROM failed WHERE p.id = failed.proposal_id RETURNING p.id AS "proposalId";

-- name: retryFailedDeliveries
WITH retried AS (UPDATE proposal_deliveries d SET status = 'pending', retried_from = d.attempts, next_attempt_at = now(), lease_until = NULL, updated_at = now()
  WHERE d.status = 'failed' AND ($1::uuid IS NULL OR d.proposal_id = $1) AND ($2::text IS NULL OR d.destination = $2)
  RETURNING d.id, d.proposal_id, d.destination, d.last_error)
UPDATE proposals p SET updated_at = now() FROM retried WHERE p.id = retried.proposal_id
RETURNING retried.id, retried.proposal_id AS "proposalId", retried.destination, retried.last_error AS "reason";

-- name: backfillCandidates
SELECT c.destination, count(*)::int AS count FROM (SELECT p.id AS proposal_id, dest.destination, v.version, v.content_hash
FROM (SELECT proposal_id, content_hash, created_at, NULL::date AS period_start, NULL::date AS period_end, NULL::text AS measure_canonical FROM lab_orders
  UNION ALL SELECT proposal_id, content_hash, created_at, NULL::date, NULL::date, NULL::text FROM outreach_tasks
  UNION ALL SELECT proposal_id, content_hash, created_at, NULL::date, NULL::date, NULL::text FROM care_notes
  UNION ALL SELECT proposal_id, content_hash, created_at, period_start, period_end, measure_canonical FROM care_gap_closures) e JOIN proposals p ON p.id = e.proposal_id
JOIN proposal_versions v ON v.proposal_id = p.id AND v.version = p.current_version AND v.content_hash = e.content_hash
CROSS JOIN unnest($1::text[]) AS dest(destination)
WHERE ($2::timestamptz IS NULL OR e.created_at >= $2::timestamptz)
  AND NOT EXISTS (SELECT 1 FROM proposal_deliveries d WHERE d.proposal_id = p.id AND d.destination = dest.destination)) c GROUP BY c.destination ORDER BY c.destination;

-- name: backfillDeliveries
WITH added AS (INSERT INTO proposal_deliveries (proposal_id, destination, version, content_hash)
  SELECT c.proposal_id, c.destination, c.version, c.content_hash FROM (SELECT p.id AS proposal_id, dest.destination, v.version, v.content_hash
FROM (SELECT proposal_id, content_hash, created_at, NULL::date AS period_start, NULL::date AS period_end, NULL::text AS measure_canonical FROM lab_orders
  UNION ALL SELECT proposal_id, content_hash, created_at, NULL::date, NULL::date, NULL::text FROM outreach_tasks
  UNION ALL SELECT proposal_id, content_hash, created_at, NULL::date, NULL::date, NULL::text FROM care_notes
  UNION ALL SELECT proposal_id, content_hash, created_at, period_start, period_end, measure_canonical FROM care_gap_closures) e JOIN proposals p ON p.id = e.proposal_id
JOIN proposal_versions v ON v.proposal_id = p.id AND v.version = p.current_version AND v.content_hash = e.content_hash
CROSS JOIN unnest($1::text[]) AS dest(destination)
WHERE ($2::timestamptz IS NULL OR e.created_at >= $2::timestamptz)
  AND NOT EXISTS (SELECT 1 FROM proposal_deliveries d WHERE d.proposal_id = p.id AND d.destination = dest.destination)) c
  ON CONFLICT (proposal_id, destination) DO NOTHING RETURNING proposal_id, destination),
touched AS (UPDATE proposals p SET updated_at = now() WHERE p.id IN (SELECT proposal_id FROM added))
SELECT a.destination, count(*)::int AS count FROM added a GROUP BY a.destination ORDER BY a.destination;

-- name: failedDeliveries
SELECT d.id, d.proposal_id AS "proposalId", d.destination, d.attempts, d.last_error AS "reason", d.last_http_status AS "httpStatus",
  to_char(d.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "failedAt"
FROM proposal_deliveries d WHERE d.status = 'failed' ORDER BY d.updated_at, d.id LIMIT $1;

-- name: deliveryBacklog
SELECT d.destination, d.status, count(*)::int AS count, extract(epoch FROM clock_timestamp() - min(d.created_at))::float8 AS "oldestSeconds"
FROM proposal_deliveries d WHERE d.status IN ('pending', 'retrying') GROUP BY d.destination, d.status
UNION ALL
SELECT d.destination, d.status, count(*)::int, extract(epoch FROM clock_timestamp() - min(d.created_at))::float8
FROM proposal_deliveries d WHERE d.status = 'failed' GROUP BY d.destination, d.status;

-- name: deliveryEffect
SELECT p.patient_id AS "patientId", p.kind, p.proposer_id AS "proposerId", v.content, v.rationale, v.citations, v.content_hash AS "contentHash",
  to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "executedAt", e.period_start::text AS "periodStart", e.period_end::text AS "periodEnd", e.measure_canonical AS "measureCanonical"
FROM proposals p JOIN proposal_versions v ON v.proposal_id = p.id AND v.version = $2
JOIN (SELECT proposal_id, content_hash, created_at, NULL::date AS period_start, NULL::date AS period_end, NULL::text AS measure_canonical FROM lab_orders
  UNION ALL SELECT proposal_id, content_hash, created_at, NULL::date, NULL::date, NULL::text FROM outreach_tasks
  UNION ALL SELECT proposal_id, content_hash, created_at, NULL::date, NULL::date, NULL::text FROM care_notes
  UNION ALL SELECT proposal_id, content_hash, created_at, period_start, period_end, measure_canonical FROM care_gap_closures) e ON e.proposal_id = p.id
WHERE p.id = $1;

-- name: deliveryApprovals
SELECT d.actor_id AS "staffId", d.actor_role AS "role", to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "approvedAt"
FROM proposal_decisions d JOIN proposal_versions v ON v.proposal_id = d.proposal_id AND v.version = d.version
WHERE d.proposal_id = $1 AND d.version = $2 AND d.decision = 'approve' AND d.content_hash = $3 AND d.actor_id <> v.created_by
    AND NOT EXISTS (SELECT 1 FROM proposal_decisions w WHERE w.proposal_id = d.proposal_id AND w.version = d.version
      AND w.actor_id = d.actor_id AND w.decision IN ('withdraw', 'discount'))
ORDER BY d.created_at, d.actor_id;

-- name: deliveryStaff
SELECT s.id AS "staffId", s.display_name AS "name", s.role, s.npi, s.fhir_practitioner_id AS "fhirPractitionerId"
FROM staff_users s WHERE s.id = ANY($1::uuid[]);

-- ======================================================================
-- agent turn record
-- ======================================================================

-- name: startTurn
SELECT vigil_start_agent_turn($1, $2, $3, $4, $5) AS "retryAfterSeconds" FROM (SELECT set_config('synchronous_commit', 'off', true)) AS not_flushed;

-- name: insertToolCalls
INSERT INTO agent_tool_calls (turn_id, seq, tool, arguments, status, row_count, envelope)
SELECT $1, c.seq, c.tool, c.arguments, c.status, c.row_count, c.envelope
FROM jsonb_to_recordset($2::jsonb) AS c(seq int, tool text, arguments jsonb, status text, row_count int, envelope jsonb) CROSS JOIN (SELECT set_config('synchronous_commit', 'off', true)) AS not_flushed;

-- name: finishTurn
UPDATE agent_turns SET status = $2, statements = $3::jsonb, proposal_ids = $4::uuid[], usage = $5::jsonb, reason_code = $6, finished_at = now()
WHERE id = $1 AND status = 'running';

-- name: finishTurnAudited
WITH ended AS (UPDATE agent_turns SET status = $18, statements = $19::jsonb, proposal_ids = $20::uuid[], usage = $21::jsonb, reason_code = $22, finished_at = now()
WHERE id = $17 AND status = 'running')
INSERT INTO audit_events
  (occurred_at, actor_id, actor_role, patient_id, action, fields, row_count, outcome,
   break_glass_reason, correlation_id, hash_version, channel, break_glass, actor_name, target_staff_id, target_care_team_id)
  SELECT e.occurred_at, e.actor_id, e.actor_role, e.patient_id, e.action,
    ARRAY(SELECT jsonb_array_elements_text(e.fields)), e.row_count, e.outcome,
    e.break_glass_reason, e.correlation_id, e.hash_version, e.channel, e.break_glass, e.actor_name, e.target_staff_id, e.target_care_team_id
  FROM unnest($1::timestamptz[], $2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::jsonb[], $7::int[], $8::text[],
    $9::text[], $10::text[], $11::smallint[], $12::text[], $13::boolean[], $14::text[], $15::uuid[], $16::uuid[])
    WITH ORDINALITY AS e(occurred_at, actor_id, actor_role, patient_id, action, fields, row_count, outcome,
      break_glass_reason, correlation_id, hash_version, channel, break_glass, actor_name, target_staff_id, target_care_team_id, position)
  ORDER BY e.position;

-- name: turnById
SELECT t.id AS "turnId", t.patient_id AS "patientId", t.clinician_id AS "clinicianId", t.status,
  t.question_hash AS "questionHash", t.statements, t.reason_code AS "reasonCode", t.proposal_ids AS "proposals", t.usage,
  to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdAt", to_char(t.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "finishedAt"
FROM agent_turns t WHERE t.id = $1 AND t.patient_id = $2;

-- name: toolCallsOf
SELECT c.seq, c.tool AS "name", c.arguments, c.status, c.row_count AS "rowCount", c.envelope, to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdAt"
FROM agent_tool_calls c WHERE c.turn_id = $1 ORDER BY c.seq;

-- ======================================================================
-- MCP sessions (shared by every API process)
-- ======================================================================

-- name: insertSession
INSERT INTO mcp_sessions (id, user_id, patient_id, picker, break_glass_reason, protocol_version, tools, expires_at)
VALUES ($1, $2, $3, $4, $5, $6, $7::text[], now() + make_interval(secs => CASE WHEN $5::text IS NULL THEN $8::float8 ELSE LEAST($8::float8, $9::float8) END));

-- name: trimSessions
DELETE FROM mcp_sessions s WHERE s.expires_at <= now()
  OR s.id IN (SELECT o.id FROM mcp_sessions o WHERE o.user_id = $1 AND o.expires_at > now() ORDER BY o.created_at DESC, o.id DESC OFFSET $2);

-- name: touchSession
UPDATE mcp_sessions s SET last_used_at = now(),
  expires_at = LEAST(s.created_at + make_interval(secs => CASE WHEN s.break_glass_reason IS NULL THEN $5::float8 ELSE LEAST($5::float8, $6::float8) END), now() + make_interval(secs => $4))
WHERE s.id = $1 AND s.user_id = $2 AND CASE WHEN s.picker THEN $3::uuid IS NULL ELSE s.patient_id = $3::uuid END AND s.expires_at > now() AND s.created_at + make_interval(secs => CASE WHEN s.break_glass_reason IS NULL THEN $5::float8 ELSE LEAST($5::float8, $6::float8) END) > now()
RETURNING s.id, s.user_id AS "userId", s.patient_id AS "patientId", s.picker, s.break_glass_reason AS "breakGlassReason",
  s.protocol_version AS "protocolVersion", s.tools, to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "expiresAt";

-- name: claimCall
UPDATE mcp_sessions s SET calls = s.calls + 1, last_used_at = now()
WHERE s.id = $1 AND s.expires_at > now()
RETURNING s.calls, s.calls_per_tool AS "callsPerTool", s.failed_calls AS "failedCalls", s.citable;

-- name: recordCall
UPDATE mcp_sessions s SET
  calls_per_tool = CASE WHEN $2::text IS NULL THEN s.calls_per_tool
    ELSE jsonb_set(s.calls_per_tool, ARRAY[$2::text], to_jsonb(COALESCE((s.calls_per_tool ->> $2::text)::int, 0) + 1)) END,
  failed_calls = ARRAY(SELECT DISTINCT f FROM unnest(s.failed_calls || $3::text[]) AS f),
  citable = ARRAY(SELECT DISTINCT c FROM unnest(s.citable || $4::text[]) AS c)
WHERE s.id = $1;

-- name: deleteSession
DELETE FROM mcp_sessions s WHERE s.id = $1 AND s.user_id = $2 AND CASE WHEN s.picker THEN $3::uuid IS NULL ELSE s.patient_id = $3::uuid END AND s.expires_at > now() RETURNING s.id;

-- name: offerPatients
UPDATE mcp_sessions s SET patient_offers = s.patient_offers || jsonb_build_object($2::text, jsonb_build_object('patientIds', $3::jsonb))
WHERE s.id = $1 AND s.patient_id IS NULL AND s.expires_at > now() RETURNING s.id;

-- name: patientOffer
SELECT s.patient_id AS "patientId", s.tools, s.patient_offers -> $2::text AS offer
FROM mcp_sessions s WHERE s.id = $1 AND s.expires_at > now();

-- name: answerOffer
UPDATE mcp_sessions s SET patient_offers = jsonb_set(s.patient_offers, ARRAY[$2::text, 'answer'], to_jsonb($3::text))
WHERE s.id = $1 AND s.patient_id IS NULL AND s.patient_offers -> $2::text IS NOT NULL;

-- name: bindPatient
UPDATE mcp_sessions s SET patient_id = $3, tools = $4::text[], patient_offers = '{}'
WHERE s.id = $1 AND s.picker AND s.patient_id IS NULL AND s.patient_offers -> $2::text IS NOT NULL AND s.expires_at > now()
RETURNING s.id;

-- ======================================================================
-- measure results (read as vigil_reader, results upserted as vigil_writer; runs and chunks)
-- ======================================================================

-- name: insertRun
INSERT INTO measure_runs (reason, period_start, period_end, force, patient_ids, chunk_size)
VALUES ($1, $2, $3, $4, $5::uuid[], $6) RETURNING id::text AS id;

-- name: insertPeriodRun
INSERT INTO measure_runs (reason, period_start, period_end, force, patient_ids, chunk_size)
VALUES ('period', $1, $2, false, NULL, $3)
ON CONFLICT (period_start, period_end) WHERE reason = 'period' DO NOTHING RETURNING id::text AS id;

-- name: claimUnplannedRuns
SELECT id::text AS id, cardinality(patient_ids) AS listed, chunk_size AS "chunkSize",
  to_char(period_start, 'YYYY-MM-DD') AS "periodStart", to_char(period_end, 'YYYY-MM-DD') AS "periodEnd"
FROM measure_runs WHERE planned_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED;

-- name: cohortBoundaries
SELECT id::text AS id FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM patients) s WHERE n % $1 = 0 ORDER BY id;

-- name: insertChunks
INSERT INTO measure_run_chunks (run_id, chunk_no, after_id, through_id)
SELECT $1, x.n - 1, x.after_id, x.through_id FROM unnest($2::uuid[], $3::uuid[]) WITH ORDINALITY AS x(after_id, through_id, n);

-- name: markRunPlanned
UPDATE measure_runs SET planned_at = now(), chunks = $2, finished_at = CASE WHEN $2 = 0 THEN now() END WHERE id = $1;

-- name: chunkOfRun
SELECT c.after_id::text AS "afterId", c.through_id::text AS "throughId", c.finished_at IS NOT NULL AS finished,
  r.patient_ids IS NOT NULL AS listed, r.force, to_char(r.period_start, 'YYYY-MM-DD') AS "periodStart", to_char(r.period_end, 'YYYY-MM-DD') AS "periodEnd"
FROM measure_run_chunks c JOIN measure_runs r ON r.id = c.run_id WHERE c.run_id = $1 AND c.chunk_no = $2;

-- name: rangeChunkPatients
SELECT p.id::text AS id, ((SELECT count(*)::int FROM measure_results s WHERE s.patient_id = p.id AND s.period_start = $3 AND s.period_end = $4
    AND s.data_version = p.data_version AND (NOT $5 OR s.run_id = $6::bigint)
    AND (s.measure_package_id = ANY($7::uuid[]) OR (s.measure_package_id IS NULL AND s.measure_id = ANY(ARRAY['CMS122', 'CMS165', 'CMS125', 'CMS130', 'CMS347', 'CMS951']::text[]))))
  + (SELECT count(*)::int FROM measure_result_failures f WHERE f.patient_id = p.id AND f.period_start = $3 AND f.period_end = $4
    AND f.data_version = p.data_version AND (NOT $5 OR f.run_id = $6::bigint) AND f.measure_package_id = ANY($7::uuid[]))) AS current
FROM patients p WHERE p.id > coalesce($1::uuid, '00000000-0000-0000-0000-000000000000') AND p.id <= coalesce($2::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff') ORDER BY p.id;

-- name: listedChunkPatients
SELECT p.id::text AS id, ((SELECT count(*)::int FROM measure_results s WHERE s.patient_id = p.id AND s.period_start = $3 AND s.period_end = $4
    AND s.data_version = p.data_version AND (NOT $5 OR s.run_id = $2::bigint)
    AND (s.measure_package_id = ANY($6::uuid[]) OR (s.measure_package_id IS NULL AND s.measure_id = ANY(ARRAY['CMS122', 'CMS165', 'CMS125', 'CMS130', 'CMS347', 'CMS951']::text[]))))
  + (SELECT count(*)::int FROM measure_result_failures f WHERE f.patient_id = p.id AND f.period_start = $3 AND f.period_end = $4
    AND f.data_version = p.data_version AND (NOT $5 OR f.run_id = $2::bigint) AND f.measure_package_id = ANY($6::uuid[]))) AS current
FROM measure_runs r JOIN patients p ON p.id = ANY(r.patient_ids[($1::int * r.chunk_size + 1):(($1::int + 1) * r.chunk_size)])
WHERE r.id = $2 ORDER BY p.id;

-- name: lockRun
SELECT id FROM measure_runs WHERE id = $1 FOR UPDATE;

-- name: lockChunk
SELECT finished_at IS NOT NULL AS finished FROM measure_run_chunks WHERE run_id = $1 AND chunk_no = $2 FOR UPDATE;

-- name: stampUnchangedResults
WITH x AS MATERIALIZED (
  SELECT * FROM unnest($1::uuid[], $2::text[], $5::text[], $6::bigint[], $8::uuid[]) WITH ORDINALITY
    AS x(patient_id, measure_id, content_hash, data_version, measure_package_id, n)
), stamped AS (
  UPDATE measure_results m SET run_id = $7, computed_at = now(), data_version = x.data_version, measure_package_id = x.measure_package_id FROM x
  WHERE m.patient_id = x.patient_id AND m.measure_id = x.measure_id AND m.period_start = $3::date AND m.period_end = $4::date
    AND m.content_hash = decode(x.content_hash, 'hex')
  RETURNING x.n
)
SELECT (x.n - 1)::int AS "index" FROM x WHERE x.n NOT IN (SELECT n FROM stamped) ORDER BY x.n;

-- name: upsertResults
INSERT INTO measure_results (patient_id, measure_id, period_start, period_end, status, reason_code, reason, populations,
  evidence, to_close, data_quality, partial, data_version, last_evidence_on, content_hash, measure_package_id, run_id, computed_at)
SELECT x.patient_id, x.measure_id, x.period_start, x.period_end, x.status, x.reason_code, x.reason, x.populations,
  x.evidence, x.to_close, x.data_quality, x.partial, x.data_version, x.last_evidence_on, decode(x.content_hash, 'hex'), x.measure_package_id, $2, now()
FROM jsonb_to_recordset($1::jsonb) AS x(patient_id uuid, measure_id text, period_start date, period_end date, status text, reason_code text,
  reason text, populations jsonb, evidence jsonb, to_close text, data_quality jsonb, partial boolean, data_version bigint, last_evidence_on date,
  content_hash text, measure_package_id uuid)
ON CONFLICT (patient_id, measure_id, period_start, period_end) DO UPDATE SET status = EXCLUDED.status, reason_code = EXCLUDED.reason_code,
  reason = EXCLUDED.reason, populations = EXCLUDED.populations, evidence = EXCLUDED.evidence, to_close = EXCLUDED.to_close,
  data_quality = EXCLUDED.data_quality, partial = EXCLUDED.partial, data_version = EXCLUDED.data_version,
  last_evidence_on = EXCLUDED.last_evidence_on, content_hash = EXCLUDED.content_hash, measure_package_id = EXCLUDED.measure_package_id,
  run_id = EXCLUDED.run_id, computed_at = EXCLUDED.computed_at;

-- name: upsertFailures
INSERT INTO measure_result_failures (patient_id, period_start, period_end, measure_id, measure_package_id, data_version, detail, run_id, failed_at)
SELECT x.patient_id, x.period_start, x.period_end, x.measure_id, x.measure_package_id, x.data_version, x.detail, $2, now()
FROM jsonb_to_recordset($1::jsonb) AS x(patient_id uuid, period_start date, period_end date, measure_id text, measure_package_id uuid, data_version bigint, detail text)
ON CONFLICT (patient_id, period_start, period_end, measure_id) DO UPDATE SET measure_package_id = EXCLUDED.measure_package_id,
  data_version = EXCLUDED.data_version, detail = EXCLUDED.detail, run_id = EXCLUDED.run_id, failed_at = EXCLUDED.failed_at;

-- name: clearFailures
DELETE FROM measure_result_failures f USING unnest($1::uuid[], $2::text[], $3::date[], $4::date[]) AS x(patient_id, measure_id, period_start, period_end)
WHERE f.patient_id = x.patient_id AND f.measure_id = x.measure_id AND f.period_start = x.period_start AND f.period_end = x.period_end;

-- name: finishChunk
UPDATE measure_run_chunks SET finished_at = now(), computed = $3, skipped = $4 WHERE run_id = $1 AND chunk_no = $2;

-- name: finishRunIfDone
UPDATE measure_runs r SET finished_at = now()
WHERE r.id = $1 AND r.finished_at IS NULL AND r.planned_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM measure_run_chunks c WHERE c.run_id = r.id AND c.finished_at IS NULL);

-- name: wholeRunFinished
SELECT finished_at IS NOT NULL AND patient_ids IS NULL AS "wholeRunFinished" FROM measure_runs WHERE id = $1;

-- name: analyzeResults
SELECT vigil_analyze_measure_results();

-- name: overdueChunks
SELECT c.run_id::text AS "runId", c.chunk_no AS "chunkNo", to_char(r.period_start, 'YYYY-MM-DD') AS "periodStart", to_char(r.period_end, 'YYYY-MM-DD') AS "periodEnd"
FROM measure_run_chunks c JOIN measure_runs r ON r.id = c.run_id
WHERE c.finished_at IS NULL AND r.planned_at < now() - ($1::int * interval '1 millisecond') ORDER BY c.run_id, c.chunk_no LIMIT $2;

-- name: runProgress
SELECT r.chunks, r.planned_at IS NOT NULL AS planned, r.finished_at IS NOT NULL AS finished,
  count(c.finished_at)::int AS "chunksFinished", coalesce(sum(c.computed), 0)::int AS computed, coalesce(sum(c.skipped), 0)::int AS skipped
FROM measure_runs r LEFT JOIN measure_run_chunks c ON c.run_id = r.id WHERE r.id = $1 GROUP BY r.id;

-- name: periodState
SELECT EXISTS (SELECT 1 FROM measure_runs WHERE reason = 'period' AND period_start = $1 AND period_end = $2 AND finished_at IS NOT NULL) AS "rolledOver",
  EXISTS (SELECT 1 FROM measure_runs WHERE period_start = $1 AND period_end = $2 AND finished_at IS NULL) AS busy;

-- name: stalePatients
SELECT p.id::text AS id FROM patients p WHERE ((SELECT count(*)::int FROM measure_results s WHERE s.patient_id = p.id AND s.period_start = $1 AND s.period_end = $2
    AND s.data_version = p.data_version AND (NOT false OR s.run_id = NULL::bigint)
    AND (s.measure_package_id = ANY($5::uuid[]) OR (s.measure_package_id IS NULL AND s.measure_id = ANY(ARRAY['CMS122', 'CMS165', 'CMS125', 'CMS130', 'CMS347', 'CMS951']::text[]))))
  + (SELECT count(*)::int FROM measure_result_failures f WHERE f.patient_id = p.id AND f.period_start = $1 AND f.period_end = $2
    AND f.data_version = p.data_version AND (NOT false OR f.run_id = NULL::bigint) AND f.measure_package_id = ANY($5::uuid[]))) < $3 ORDER BY p.id LIMIT $4;

-- name: pruneResults
WITH gone AS (DELETE FROM measure_results WHERE ctid = ANY(ARRAY(SELECT ctid FROM measure_results WHERE period_end < $1 LIMIT $2)) RETURNING 1)
SELECT count(*)::int AS n FROM gone;

-- name: pruneFailures
DELETE FROM measure_result_failures WHERE period_end < $1;

-- name: pruneRuns
DELETE FROM measure_runs WHERE finished_at < now() - ($1::int * interval '1 day');

-- name: patientResults
SELECT r.patient_id::text AS "patientId", r.measure_id AS "measureId", to_char(r.period_start, 'YYYY-MM-DD') AS "periodStart", to_char(r.period_end, 'YYYY-MM-DD') AS "periodEnd",
  r.status, r.reason_code AS "reasonCode", r.reason, r.populations AS groups, r.evidence, r.to_close AS "toClose", r.data_quality AS "dataQuality", r.partial,
  CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END AS attestations,
  r.data_version::text AS "dataVersion", r.run_id::text AS "runId", to_char(r.last_evidence_on, 'YYYY-MM-DD') AS "lastEvidenceOn", to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "computedAt",
  (r.data_version <> p.data_version) AS stale
FROM measure_results r JOIN patients p ON p.id = r.patient_id
WHERE r.patient_id = $1 AND r.period_start = $2 AND r.period_end = $3;

-- name: careTeamResults
SELECT r.patient_id::text AS "patientId", r.measure_id AS "measureId", to_char(r.period_start, 'YYYY-MM-DD') AS "periodStart", to_char(r.period_end, 'YYYY-MM-DD') AS "periodEnd",
  r.status, r.reason_code AS "reasonCode", r.reason, r.populations AS groups, r.evidence, r.to_close AS "toClose", r.data_quality AS "dataQuality", r.partial,
  CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END AS attestations,
  r.data_version::text AS "dataVersion", r.run_id::text AS "runId", to_char(r.last_evidence_on, 'YYYY-MM-DD') AS "lastEvidenceOn", to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "computedAt",
  (r.data_version <> p.data_version) AS stale
FROM patient_care_teams t
JOIN measure_results r ON r.patient_id = t.patient_id
JOIN patients p ON p.id = t.patient_id
WHERE t.care_team_id = $1 AND r.period_start = $2 AND r.period_end = $3
  AND ($4::text IS NULL OR r.measure_id = $4) AND ($5::text IS NULL OR r.status = $5) AND ($6::text IS NULL OR r.reason_code = $6)
  AND ($7::uuid IS NULL OR (r.patient_id, r.measure_id) > ($7::uuid, $8::text))
ORDER BY r.patient_id, r.measure_id LIMIT $9;

-- name: latestCompletePeriod
SELECT to_char(period_start, 'YYYY-MM-DD') AS "periodStart", to_char(period_end, 'YYYY-MM-DD') AS "periodEnd", to_char(finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "finishedAt"
FROM measure_runs WHERE patient_ids IS NULL AND finished_at IS NOT NULL ORDER BY period_end DESC, period_start DESC LIMIT 1;

-- name: populationResultsVersion
SELECT count(*)::int AS "rowCount", coalesce(max(run_id), 0)::text AS "maxRunId",
  to_char(max(computed_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "newestComputedAt"
FROM measure_results WHERE period_start = $1 AND period_end = $2;

-- name: populationMicrocells
WITH teams AS (
  SELECT m.patient_id, array_agg(c.code ORDER BY c.code) AS codes
  FROM patient_care_teams m JOIN care_teams c ON c.id = m.care_team_id GROUP BY m.patient_id
)
SELECT coalesce(t.codes, '{}') AS "careTeams", least(date_part('year', age($2::date, p.birth_date))::int / 10, 9) * 10 AS "ageDecade",
  p.sex, r.measure_id AS "measureId", r.status, split_part(r.reason_code, ':', 1) AS "reasonClass", count(*)::int AS count,
  (sum(p.population_record_key) % 281474976710656)::text AS "keySum"
FROM measure_results r JOIN patients p ON p.id = r.patient_id LEFT JOIN teams t ON t.patient_id = r.patient_id
WHERE r.period_start = $1 AND r.period_end = $2
GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 4, 1, 2, 3, 5, 6;

-- name: careTeamCodes
SELECT code FROM care_teams ORDER BY code;

-- ======================================================================
-- care-team worklists (read as vigil_reader)
-- ======================================================================

-- name: worklistByNameAsc
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND ($4::text IS NULL OR r.measure_id = $4)
    AND ($5::text IS NULL OR r.status = $5) AND ($6::text IS NULL OR r.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR r.status = 'open-gap') AND (r.patient_id, r.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) AS "results"
FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND ($4::text IS NULL OR m.measure_id = $4)
    AND ($5::text IS NULL OR m.status = $5) AND ($6::text IS NULL OR m.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR m.status = 'open-gap') AND (m.patient_id, m.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3))))
    AND ($9::uuid IS NULL OR (k.family_name, k.given_name, k.id) > ($7::text, $8::text, $9::uuid))
  ORDER BY k.family_name ASC, k.given_name ASC, k.id ASC
  LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name ASC, p.given_name ASC, p.id ASC;

-- name: worklistByNameDesc
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND ($4::text IS NULL OR r.measure_id = $4)
    AND ($5::text IS NULL OR r.status = $5) AND ($6::text IS NULL OR r.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR r.status = 'open-gap') AND (r.patient_id, r.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) AS "results"
FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND ($4::text IS NULL OR m.measure_id = $4)
    AND ($5::text IS NULL OR m.status = $5) AND ($6::text IS NULL OR m.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR m.status = 'open-gap') AND (m.patient_id, m.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3))))
    AND ($9::uuid IS NULL OR (k.family_name, k.given_name, k.id) < ($7::text, $8::text, $9::uuid))
  ORDER BY k.family_name DESC, k.given_name DESC, k.id DESC
  LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name DESC, p.given_name DESC, p.id DESC;

-- name: worklistByAgeAsc
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND ($4::text IS NULL OR r.measure_id = $4)
    AND ($5::text IS NULL OR r.status = $5) AND ($6::text IS NULL OR r.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR r.status = 'open-gap') AND (r.patient_id, r.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) AS "results"
FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND ($4::text IS NULL OR m.measure_id = $4)
    AND ($5::text IS NULL OR m.status = $5) AND ($6::text IS NULL OR m.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR m.status = 'open-gap') AND (m.patient_id, m.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3))))
    AND ($9::uuid IS NULL OR (k.birth_date, k.id) < ($7::date, $9::uuid))
  AND ($8::text IS NULL OR TRUE)
  ORDER BY k.birth_date DESC, k.id DESC
  LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date DESC, p.id DESC;

-- name: worklistByAgeDesc
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND ($4::text IS NULL OR r.measure_id = $4)
    AND ($5::text IS NULL OR r.status = $5) AND ($6::text IS NULL OR r.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR r.status = 'open-gap') AND (r.patient_id, r.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) AS "results"
FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND ($4::text IS NULL OR m.measure_id = $4)
    AND ($5::text IS NULL OR m.status = $5) AND ($6::text IS NULL OR m.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR m.status = 'open-gap') AND (m.patient_id, m.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3))))
    AND ($9::uuid IS NULL OR (k.birth_date, k.id) > ($7::date, $9::uuid))
  AND ($8::text IS NULL OR TRUE)
  ORDER BY k.birth_date ASC, k.id ASC
  LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date ASC, p.id ASC;

-- name: worklistByLastResultAsc
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND ($4::text IS NULL OR r.measure_id = $4)
    AND ($5::text IS NULL OR r.status = $5) AND ($6::text IS NULL OR r.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR r.status = 'open-gap') AND (r.patient_id, r.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND ($4::text IS NULL OR m.measure_id = $4)
    AND ($5::text IS NULL OR m.status = $5) AND ($6::text IS NULL OR m.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR m.status = 'open-gap') AND (m.patient_id, m.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3))) AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND NOT EXISTS (SELECT 1 FROM measure_results o WHERE o.patient_id = m.patient_id AND o.period_start = $2 AND o.period_end = $3 AND ($4::text IS NULL OR o.measure_id = $4)
    AND ($5::text IS NULL OR o.status = $5) AND ($6::text IS NULL OR o.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR o.status = 'open-gap') AND (o.patient_id, o.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))
    AND (coalesce(o.last_evidence_on, DATE '0001-01-01'), o.measure_id) > (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.measure_id))
  AND ($9::uuid IS NULL OR (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.patient_id) > ($7::date, $9::uuid))
  AND ($8::text IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') ASC, m.patient_id ASC
LIMIT $10;

-- name: worklistByLastResultDesc
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND ($4::text IS NULL OR r.measure_id = $4)
    AND ($5::text IS NULL OR r.status = $5) AND ($6::text IS NULL OR r.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR r.status = 'open-gap') AND (r.patient_id, r.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND ($4::text IS NULL OR m.measure_id = $4)
    AND ($5::text IS NULL OR m.status = $5) AND ($6::text IS NULL OR m.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR m.status = 'open-gap') AND (m.patient_id, m.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3))) AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND NOT EXISTS (SELECT 1 FROM measure_results o WHERE o.patient_id = m.patient_id AND o.period_start = $2 AND o.period_end = $3 AND ($4::text IS NULL OR o.measure_id = $4)
    AND ($5::text IS NULL OR o.status = $5) AND ($6::text IS NULL OR o.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR o.status = 'open-gap') AND (o.patient_id, o.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))
    AND (coalesce(o.last_evidence_on, DATE '0001-01-01'), o.measure_id) > (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.measure_id))
  AND ($9::uuid IS NULL OR (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.patient_id) < ($7::date, $9::uuid))
  AND ($8::text IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') DESC, m.patient_id DESC
LIMIT $10;

-- name: worklistByLastResultOfMeasureAsc
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND ($4::text IS NULL OR r.measure_id = $4)
    AND ($5::text IS NULL OR r.status = $5) AND ($6::text IS NULL OR r.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR r.status = 'open-gap') AND (r.patient_id, r.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4 AND m.period_end >= m.period_start
  AND ($5::text IS NULL OR m.status = $5) AND ($6::text IS NULL OR m.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR m.status = 'open-gap') AND (m.patient_id, m.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND ($9::uuid IS NULL OR (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.patient_id) > ($7::date, $9::uuid))
  AND ($8::text IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') ASC, m.patient_id ASC
LIMIT $10;

-- name: worklistByLastResultOfMeasureDesc
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND ($4::text IS NULL OR r.measure_id = $4)
    AND ($5::text IS NULL OR r.status = $5) AND ($6::text IS NULL OR r.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR r.status = 'open-gap') AND (r.patient_id, r.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4 AND m.period_end >= m.period_start
  AND ($5::text IS NULL OR m.status = $5) AND ($6::text IS NULL OR m.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR m.status = 'open-gap') AND (m.patient_id, m.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND ($9::uuid IS NULL OR (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.patient_id) < ($7::date, $9::uuid))
  AND ($8::text IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') DESC, m.patient_id DESC
LIMIT $10;

-- name: worklistByNameAscHashed
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND ($4::text IS NULL OR r.measure_id = $4)
    AND ($5::text IS NULL OR r.status = $5) AND ($6::text IS NULL OR r.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR r.status = 'open-gap') AND (r.patient_id, r.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) AS "results"
FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND ($4::text IS NULL OR m.measure_id = $4)
    AND ($5::text IS NULL OR m.status = $5) AND ($6::text IS NULL OR m.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR m.status = 'open-gap') AND (m.patient_id, m.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND ($9::uuid IS NULL OR (k.family_name, k.given_name, k.id) > ($7::text, $8::text, $9::uuid))
  ORDER BY k.family_name ASC, k.given_name ASC, k.id ASC
  LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name ASC, p.given_name ASC, p.id ASC;

-- name: worklistByNameDescHashed
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND ($4::text IS NULL OR r.measure_id = $4)
    AND ($5::text IS NULL OR r.status = $5) AND ($6::text IS NULL OR r.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR r.status = 'open-gap') AND (r.patient_id, r.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) AS "results"
FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND ($4::text IS NULL OR m.measure_id = $4)
    AND ($5::text IS NULL OR m.status = $5) AND ($6::text IS NULL OR m.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR m.status = 'open-gap') AND (m.patient_id, m.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND ($9::uuid IS NULL OR (k.family_name, k.given_name, k.id) < ($7::text, $8::text, $9::uuid))
  ORDER BY k.family_name DESC, k.given_name DESC, k.id DESC
  LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name DESC, p.given_name DESC, p.id DESC;

-- name: worklistByAgeAscHashed
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND ($4::text IS NULL OR r.measure_id = $4)
    AND ($5::text IS NULL OR r.status = $5) AND ($6::text IS NULL OR r.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR r.status = 'open-gap') AND (r.patient_id, r.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) AS "results"
FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND ($4::text IS NULL OR m.measure_id = $4)
    AND ($5::text IS NULL OR m.status = $5) AND ($6::text IS NULL OR m.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR m.status = 'open-gap') AND (m.patient_id, m.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND ($9::uuid IS NULL OR (k.birth_date, k.id) < ($7::date, $9::uuid))
  AND ($8::text IS NULL OR TRUE)
  ORDER BY k.birth_date DESC, k.id DESC
  LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date DESC, p.id DESC;

-- name: worklistByAgeDescHashed
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND ($4::text IS NULL OR r.measure_id = $4)
    AND ($5::text IS NULL OR r.status = $5) AND ($6::text IS NULL OR r.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR r.status = 'open-gap') AND (r.patient_id, r.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) AS "results"
FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND ($4::text IS NULL OR m.measure_id = $4)
    AND ($5::text IS NULL OR m.status = $5) AND ($6::text IS NULL OR m.reason_code LIKE $6) AND ($11::text IS NULL OR (($11 = 'attested' OR m.status = 'open-gap') AND (m.patient_id, m.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3)))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND ($9::uuid IS NULL OR (k.birth_date, k.id) > ($7::date, $9::uuid))
  AND ($8::text IS NULL OR TRUE)
  ORDER BY k.birth_date ASC, k.id ASC
  LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date ASC, p.id ASC;

-- name: worklistByNameAscFixed
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::text IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name ASC, k.given_name ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name ASC, p.given_name ASC, p.id ASC;

-- name: worklistByAgeAscFixed
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date DESC, p.id DESC;

-- name: worklistByLastResultAscFixed
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND NOT EXISTS (SELECT 1 FROM measure_results o WHERE o.patient_id = m.patient_id AND o.period_start = $2 AND o.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL
    AND (coalesce(o.last_evidence_on, DATE '0001-01-01'), o.measure_id) > (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.measure_id))
  AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') ASC, m.patient_id ASC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameAscFixedAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.family_name, k.given_name, k.id) > ($7::text, $8::text, $9::uuid) AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name ASC, k.given_name ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name ASC, p.given_name ASC, p.id ASC;

-- name: worklistByAgeAscFixedAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.birth_date, k.id) < ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date DESC, p.id DESC;

-- name: worklistByLastResultAscFixedAfter
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND NOT EXISTS (SELECT 1 FROM measure_results o WHERE o.patient_id = m.patient_id AND o.period_start = $2 AND o.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL
    AND (coalesce(o.last_evidence_on, DATE '0001-01-01'), o.measure_id) > (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.measure_id))
  AND (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.patient_id) > ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') ASC, m.patient_id ASC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameAscFixedStatus
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::text IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name ASC, k.given_name ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name ASC, p.given_name ASC, p.id ASC;

-- name: worklistByAgeAscFixedStatus
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date DESC, p.id DESC;

-- name: worklistByLastResultAscFixedStatus
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND NOT EXISTS (SELECT 1 FROM measure_results o WHERE o.patient_id = m.patient_id AND o.period_start = $2 AND o.period_end = $3 AND $4::text IS NULL
    AND o.status = $5::text AND $6::text IS NULL AND $11::text IS NULL
    AND (coalesce(o.last_evidence_on, DATE '0001-01-01'), o.measure_id) > (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.measure_id))
  AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') ASC, m.patient_id ASC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameAscFixedStatusAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.family_name, k.given_name, k.id) > ($7::text, $8::text, $9::uuid) AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name ASC, k.given_name ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name ASC, p.given_name ASC, p.id ASC;

-- name: worklistByAgeAscFixedStatusAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.birth_date, k.id) < ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date DESC, p.id DESC;

-- name: worklistByLastResultAscFixedStatusAfter
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND NOT EXISTS (SELECT 1 FROM measure_results o WHERE o.patient_id = m.patient_id AND o.period_start = $2 AND o.period_end = $3 AND $4::text IS NULL
    AND o.status = $5::text AND $6::text IS NULL AND $11::text IS NULL
    AND (coalesce(o.last_evidence_on, DATE '0001-01-01'), o.measure_id) > (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.measure_id))
  AND (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.patient_id) > ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') ASC, m.patient_id ASC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameAscFixedMeasure
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::text IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name ASC, k.given_name ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name ASC, p.given_name ASC, p.id ASC;

-- name: worklistByNameAscHashedFixedMeasure
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND $7::text IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name ASC, k.given_name ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name ASC, p.given_name ASC, p.id ASC;

-- name: worklistByAgeAscFixedMeasure
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date DESC, p.id DESC;

-- name: worklistByAgeAscHashedFixedMeasure
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date DESC, p.id DESC;

-- name: worklistByLastResultOfMeasureAscFixed
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') ASC, m.patient_id ASC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameAscFixedMeasureAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.family_name, k.given_name, k.id) > ($7::text, $8::text, $9::uuid) AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name ASC, k.given_name ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name ASC, p.given_name ASC, p.id ASC;

-- name: worklistByNameAscHashedFixedMeasureAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND (k.family_name, k.given_name, k.id) > ($7::text, $8::text, $9::uuid) AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name ASC, k.given_name ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name ASC, p.given_name ASC, p.id ASC;

-- name: worklistByAgeAscFixedMeasureAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.birth_date, k.id) < ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date DESC, p.id DESC;

-- name: worklistByAgeAscHashedFixedMeasureAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND (k.birth_date, k.id) < ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date DESC, p.id DESC;

-- name: worklistByLastResultOfMeasureAscFixedAfter
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.patient_id) > ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') ASC, m.patient_id ASC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameAscFixedMeasureStatus
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::text IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name ASC, k.given_name ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name ASC, p.given_name ASC, p.id ASC;

-- name: worklistByNameAscHashedFixedMeasureStatus
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND m.status = (SELECT $5::text) AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND $7::text IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name ASC, k.given_name ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name ASC, p.given_name ASC, p.id ASC;

-- name: worklistByAgeAscFixedMeasureStatus
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date DESC, p.id DESC;

-- name: worklistByAgeAscHashedFixedMeasureStatus
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND m.status = (SELECT $5::text) AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date DESC, p.id DESC;

-- name: worklistByLastResultOfMeasureAscFixedStatus
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') ASC, m.patient_id ASC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameAscFixedMeasureStatusAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.family_name, k.given_name, k.id) > ($7::text, $8::text, $9::uuid) AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name ASC, k.given_name ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name ASC, p.given_name ASC, p.id ASC;

-- name: worklistByNameAscHashedFixedMeasureStatusAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND m.status = (SELECT $5::text) AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND (k.family_name, k.given_name, k.id) > ($7::text, $8::text, $9::uuid) AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name ASC, k.given_name ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name ASC, p.given_name ASC, p.id ASC;

-- name: worklistByAgeAscFixedMeasureStatusAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.birth_date, k.id) < ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date DESC, p.id DESC;

-- name: worklistByAgeAscHashedFixedMeasureStatusAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND m.status = (SELECT $5::text) AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND (k.birth_date, k.id) < ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date DESC, p.id DESC;

-- name: worklistByLastResultOfMeasureAscFixedStatusAfter
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.patient_id) > ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') ASC, m.patient_id ASC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameDescFixed
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::text IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name DESC, k.given_name DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name DESC, p.given_name DESC, p.id DESC;

-- name: worklistByAgeDescFixed
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date ASC, p.id ASC;

-- name: worklistByLastResultDescFixed
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND NOT EXISTS (SELECT 1 FROM measure_results o WHERE o.patient_id = m.patient_id AND o.period_start = $2 AND o.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL
    AND (coalesce(o.last_evidence_on, DATE '0001-01-01'), o.measure_id) > (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.measure_id))
  AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') DESC, m.patient_id DESC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameDescFixedAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.family_name, k.given_name, k.id) < ($7::text, $8::text, $9::uuid) AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name DESC, k.given_name DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name DESC, p.given_name DESC, p.id DESC;

-- name: worklistByAgeDescFixedAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.birth_date, k.id) > ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date ASC, p.id ASC;

-- name: worklistByLastResultDescFixedAfter
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND NOT EXISTS (SELECT 1 FROM measure_results o WHERE o.patient_id = m.patient_id AND o.period_start = $2 AND o.period_end = $3 AND $4::text IS NULL
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL
    AND (coalesce(o.last_evidence_on, DATE '0001-01-01'), o.measure_id) > (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.measure_id))
  AND (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.patient_id) < ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') DESC, m.patient_id DESC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameDescFixedStatus
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::text IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name DESC, k.given_name DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name DESC, p.given_name DESC, p.id DESC;

-- name: worklistByAgeDescFixedStatus
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date ASC, p.id ASC;

-- name: worklistByLastResultDescFixedStatus
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND NOT EXISTS (SELECT 1 FROM measure_results o WHERE o.patient_id = m.patient_id AND o.period_start = $2 AND o.period_end = $3 AND $4::text IS NULL
    AND o.status = $5::text AND $6::text IS NULL AND $11::text IS NULL
    AND (coalesce(o.last_evidence_on, DATE '0001-01-01'), o.measure_id) > (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.measure_id))
  AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') DESC, m.patient_id DESC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameDescFixedStatusAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.family_name, k.given_name, k.id) < ($7::text, $8::text, $9::uuid) AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name DESC, k.given_name DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name DESC, p.given_name DESC, p.id DESC;

-- name: worklistByAgeDescFixedStatusAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.birth_date, k.id) > ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date ASC, p.id ASC;

-- name: worklistByLastResultDescFixedStatusAfter
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND $4::text IS NULL
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND $4::text IS NULL
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND NOT EXISTS (SELECT 1 FROM measure_results o WHERE o.patient_id = m.patient_id AND o.period_start = $2 AND o.period_end = $3 AND $4::text IS NULL
    AND o.status = $5::text AND $6::text IS NULL AND $11::text IS NULL
    AND (coalesce(o.last_evidence_on, DATE '0001-01-01'), o.measure_id) > (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.measure_id))
  AND (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.patient_id) < ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') DESC, m.patient_id DESC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameDescFixedMeasure
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::text IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name DESC, k.given_name DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name DESC, p.given_name DESC, p.id DESC;

-- name: worklistByNameDescHashedFixedMeasure
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND $7::text IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name DESC, k.given_name DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name DESC, p.given_name DESC, p.id DESC;

-- name: worklistByAgeDescFixedMeasure
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date ASC, p.id ASC;

-- name: worklistByAgeDescHashedFixedMeasure
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date ASC, p.id ASC;

-- name: worklistByLastResultOfMeasureDescFixed
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') DESC, m.patient_id DESC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameDescFixedMeasureAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.family_name, k.given_name, k.id) < ($7::text, $8::text, $9::uuid) AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name DESC, k.given_name DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name DESC, p.given_name DESC, p.id DESC;

-- name: worklistByNameDescHashedFixedMeasureAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND (k.family_name, k.given_name, k.id) < ($7::text, $8::text, $9::uuid) AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name DESC, k.given_name DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name DESC, p.given_name DESC, p.id DESC;

-- name: worklistByAgeDescFixedMeasureAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.birth_date, k.id) > ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date ASC, p.id ASC;

-- name: worklistByAgeDescHashedFixedMeasureAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND (k.birth_date, k.id) > ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date ASC, p.id ASC;

-- name: worklistByLastResultOfMeasureDescFixedAfter
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND $5::text IS NULL AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.patient_id) < ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') DESC, m.patient_id DESC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameDescFixedMeasureStatus
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::text IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name DESC, k.given_name DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name DESC, p.given_name DESC, p.id DESC;

-- name: worklistByNameDescHashedFixedMeasureStatus
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND m.status = (SELECT $5::text) AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND $7::text IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name DESC, k.given_name DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name DESC, p.given_name DESC, p.id DESC;

-- name: worklistByAgeDescFixedMeasureStatus
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date ASC, p.id ASC;

-- name: worklistByAgeDescHashedFixedMeasureStatus
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND m.status = (SELECT $5::text) AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date ASC, p.id ASC;

-- name: worklistByLastResultOfMeasureDescFixedStatus
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND $7::date IS NULL AND $8::text IS NULL AND $9::uuid IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') DESC, m.patient_id DESC
LIMIT 101) walk
LIMIT $10;

-- name: worklistByNameDescFixedMeasureStatusAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.family_name, k.given_name, k.id) < ($7::text, $8::text, $9::uuid) AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name DESC, k.given_name DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name DESC, p.given_name DESC, p.id DESC;

-- name: worklistByNameDescHashedFixedMeasureStatusAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.family_name::text AS "key1", p.given_name::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND m.status = (SELECT $5::text) AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND (k.family_name, k.given_name, k.id) < ($7::text, $8::text, $9::uuid) AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.family_name DESC, k.given_name DESC, k.id DESC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.family_name DESC, p.given_name DESC, p.id DESC;

-- name: worklistByAgeDescFixedMeasureStatusAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL)
    AND (k.birth_date, k.id) > ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date ASC, p.id ASC;

-- name: worklistByAgeDescHashedFixedMeasureStatusAfter
SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", p.birth_date::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM (SELECT walk.id FROM (SELECT k.id FROM patients k
  WHERE (k.id IN (SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = (SELECT $4::text)
    AND m.status = (SELECT $5::text) AND $6::text IS NULL AND $11::text IS NULL))) OR FALSE)
    AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = k.id AND t.care_team_id = ANY($1::uuid[]))
    AND (k.birth_date, k.id) > ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
  ORDER BY k.birth_date ASC, k.id ASC
  LIMIT 101) walk
LIMIT $10) page
JOIN patients p ON p.id = page.id
ORDER BY p.birth_date ASC, p.id ASC;

-- name: worklistByLastResultOfMeasureDescFixedStatusAfter
SELECT walk.* FROM (SELECT p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt", coalesce(m.last_evidence_on, DATE '0001-01-01')::text AS "key1", NULL::text AS "key2",
  (SELECT coalesce(json_agg(json_build_array(r.measure_id, r.status, r.reason_code, r.reason, r.to_close, to_char(r.last_evidence_on, 'YYYY-MM-DD'), to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.data_version <> p.data_version, CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    THEN (SELECT coalesce(json_agg(json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence)) ORDER BY c.created_at DESC, c.id), '[]'::json) FROM care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id WHERE c.patient_id = r.patient_id AND c.measure_id = r.measure_id AND c.period_end BETWEEN r.period_start AND r.period_end)
    ELSE '[]'::json END) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND r.period_start = $2 AND r.period_end = $3 AND r.measure_id = $4::text
    AND r.status = $5::text AND $6::text IS NULL AND $11::text IS NULL) AS "results"
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4::text
    AND m.status = $5::text AND $6::text IS NULL AND $11::text IS NULL AND m.period_end >= m.period_start
  AND EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($1::uuid[]))
  AND (coalesce(m.last_evidence_on, DATE '0001-01-01'), m.patient_id) < ($7::date, $9::uuid)
  AND $8::text IS NULL AND (current_schema() IS NULL OR TRUE)
ORDER BY coalesce(m.last_evidence_on, DATE '0001-01-01') DESC, m.patient_id DESC
LIMIT 101) walk
LIMIT $10;

-- name: worklistMatchingResults
SELECT count(*)::int AS "matching" FROM (SELECT 1 FROM measure_results m WHERE m.period_start = $2 AND m.period_end = $3 AND ($4::text IS NULL OR m.measure_id = $4)
    AND ($5::text IS NULL OR m.status = $5) AND ($6::text IS NULL OR m.reason_code LIKE $6) AND ($7::text IS NULL OR (($7 = 'attested' OR m.status = 'open-gap') AND (m.patient_id, m.measure_id) IN (SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE c.period_end BETWEEN $2 AND $3))) LIMIT $1) c;

-- ======================================================================
-- population publications (shared by every API process)
-- ======================================================================

-- name: publicationOfVersion
SELECT p.id, p.results_version AS "resultsVersion", to_char(p.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "computedAt", p.salt, p.counts FROM population_publications p
WHERE p.period_start = $1 AND p.period_end = $2 AND p.results_version = $3;

-- name: latestPublication
SELECT p.id, p.results_version AS "resultsVersion", to_char(p.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "computedAt", p.salt, p.counts, p.check_record AS "checkRecord" FROM population_publications p ORDER BY p.id DESC LIMIT 1;

-- name: lockPublications
SELECT pg_advisory_xact_lock(hashtext('vigil.population_publications'));

-- name: latestPublicationId
SELECT p.id FROM population_publications p ORDER BY p.id DESC LIMIT 1;

-- name: insertPublication
INSERT INTO population_publications (period_start, period_end, results_version, computed_at, salt, counts, check_record)
VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb) ON CONFLICT (period_start, period_end, results_version) DO NOTHING RETURNING id;

-- name: prunePublications
DELETE FROM population_publications p WHERE p.id NOT IN (SELECT k.id FROM population_publications k ORDER BY k.id DESC LIMIT $1);

-- ======================================================================
-- loaded measure packages (the catalogue and edition choice; written only by measures-load)
-- ======================================================================

-- name: catalogue
SELECT p.id, p.key, p.url, p.version, p.edition, p.period_start::text AS "periodStart", p.period_end::text AS "periodEnd", to_char(p.loaded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "loadedAt", p.title, p.scoring, p.basis, p.groups, p.loaded_by AS "loadedBy", COALESCE(p.measure->'identifier', '[]'::jsonb) AS identifiers,
  (SELECT count(*)::int FROM measure_package_libraries l WHERE l.measure_package_id = p.id) AS "libraryCount",
  (SELECT count(*)::int FROM measure_package_value_sets v WHERE v.measure_package_id = p.id) AS "valueSetCount",
  (SELECT count(*)::int FROM measure_package_value_sets v WHERE v.measure_package_id = p.id AND v.from_supplement) AS "supplementedValueSetCount"
FROM measure_packages p
ORDER BY p.key, p.period_start NULLS LAST, p.version;

-- name: editionsOfKey
SELECT p.id, p.key, p.url, p.version, p.edition, p.period_start::text AS "periodStart", p.period_end::text AS "periodEnd", to_char(p.loaded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "loadedAt" FROM measure_packages p WHERE p.key = $1;

-- name: editionsOfKeys
SELECT p.id, p.key, p.url, p.version, p.edition, p.period_start::text AS "periodStart", p.period_end::text AS "periodEnd", to_char(p.loaded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "loadedAt", p.title, p.groups FROM measure_packages p WHERE p.key = ANY($1::text[]);

-- name: evaluableEditions
SELECT p.id, p.key, p.url, p.version, p.edition, p.period_start::text AS "periodStart", p.period_end::text AS "periodEnd", to_char(p.loaded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "loadedAt", p.title, p.groups FROM measure_packages p ORDER BY p.key;

-- name: packageLibraries
SELECT p.measure, l.elm FROM measure_packages p
JOIN measure_package_libraries pl ON pl.measure_package_id = p.id
JOIN measure_libraries l ON l.id = pl.library_id
WHERE p.id = $1;

-- name: packageValueSets
SELECT e.url, e.version, (SELECT coalesce(json_agg(json_build_array(c.system, c.code)), '[]'::json) FROM value_set_codes c WHERE c.value_set_id = e.id) AS codes
FROM measure_package_value_sets v
JOIN value_set_expansions e ON e.id = v.value_set_id
WHERE v.measure_package_id = $1;

-- ======================================================================
-- health
-- ======================================================================

-- name: probe
SELECT 1;

-- ======================================================================
-- database notifications (a connection of their own, while a live queue stream is open or identities are cached)
-- ======================================================================

-- name: listenAccessEnded
LISTEN vigil_access_ended;

-- name: unlistenAccessEnded
UNLISTEN vigil_access_ended;

-- name: listenIdentityChanged
LISTEN vigil_identity_changed;

-- name: unlistenIdentityChanged
UNLISTEN vigil_identity_changed;
