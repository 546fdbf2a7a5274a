-- Every SQL statement the Vigil service runs at request time.
-- Generated from src/cli/statement-list.ts by `npm run sql:sync`; do not edit by hand.

-- ======================================================================
-- cohort reads (as vigil_reader, in a READ ONLY transaction)
-- ======================================================================

-- name: readSession1
SET TRANSACTION READ ONLY;

-- name: readSession2
SET LOCAL ROLE vigil_reader;

-- name: staffUserByUsername
SELECT u.id, u.username, u.role, u.active,
  coalesce(array_agg(m.care_team_id::text) FILTER (WHERE m.care_team_id IS NOT NULL), '{}') AS "careTeamIds"
FROM staff_users u LEFT JOIN care_team_members m ON m.staff_user_id = u.id
WHERE u.username = $1
GROUP BY u.id;

-- name: patientAccess
SELECT p.id,
  EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = p.id AND t.care_team_id = ANY($2::uuid[])) AS "onCareTeam"
FROM patients p WHERE p.id = $1;

-- name: patientById
SELECT id, mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex,
  phone, email, address_line AS "addressLine", city, state, postal_code AS "postalCode", to_char(deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt"
FROM patients WHERE id = $1;

-- name: encountersInWindow
SELECT id, class, status, type_system AS "typeSystem", type_code AS "typeCode", type_display AS "typeDisplay",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", reason_display AS "reasonDisplay",
  to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "startAt", to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "endAt", disposition
FROM encounters
WHERE patient_id = $1 AND ($2::timestamptz IS NULL OR start_at >= $2) AND ($3::timestamptz IS NULL OR start_at < $3)
  AND ($4::text IS NULL OR class = $4)
ORDER BY start_at DESC, id LIMIT $5;

-- name: notesOfEncounters
SELECT id, encounter_id AS "encounterId", note_type AS "noteType", author_display AS "authorDisplay",
  to_char(authored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "authoredAt", text
FROM clinical_notes WHERE patient_id = $1 AND encounter_id = ANY($2::uuid[])
ORDER BY authored_at, id;

-- name: observationsInWindow
SELECT id, encounter_id AS "encounterId", panel_id AS "panelId", category, status,
  code_system AS "codeSystem", code, display, value_numeric::float8 AS "valueNumeric", value_text AS "valueText", unit,
  reference_low::float8 AS "referenceLow", reference_high::float8 AS "referenceHigh", reference_text AS "referenceText",
  interpretation, to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt"
FROM observations
WHERE patient_id = $1 AND ($2::timestamptz IS NULL OR effective_at >= $2) AND ($3::timestamptz IS NULL OR effective_at < $3)
  AND ($4::text[] IS NULL OR code = ANY($4))
ORDER BY effective_at DESC, id LIMIT $5;

-- name: chartEncounters
SELECT id, class, status, type_system AS "typeSystem", type_code AS "typeCode", type_display AS "typeDisplay",
  reason_system AS "reasonSystem", reason_code AS "reasonCode", reason_display AS "reasonDisplay",
  to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "startAt", to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "endAt", disposition FROM encounters WHERE patient_id = $1 ORDER BY start_at DESC, id LIMIT $2;

-- name: chartObservations
SELECT id, encounter_id AS "encounterId", panel_id AS "panelId", category, status,
  code_system AS "codeSystem", code, display, value_numeric::float8 AS "valueNumeric", value_text AS "valueText", unit,
  reference_low::float8 AS "referenceLow", reference_high::float8 AS "referenceHigh", reference_text AS "referenceText",
  interpretation, to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "effectiveAt" FROM observations WHERE patient_id = $1 ORDER BY effective_at DESC, id LIMIT $2;

-- name: chartConditions
SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  to_char(onset_date, 'YYYY-MM-DD') AS "onsetDate", to_char(abatement_date, 'YYYY-MM-DD') AS "abatementDate", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt"
FROM conditions WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $2;

-- name: chartMedications
SELECT id, code_system AS "codeSystem", code, display, status,
  to_char(start_date, 'YYYY-MM-DD') AS "startDate", to_char(end_date, 'YYYY-MM-DD') AS "endDate", dosage_text AS "dosageText"
FROM medications WHERE patient_id = $1 ORDER BY start_date DESC, id LIMIT $2;

-- name: chartProcedures
SELECT id, encounter_id AS "encounterId", code_system AS "codeSystem", code, display, status,
  to_char(performed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "performedAt"
FROM procedures WHERE patient_id = $1 ORDER BY performed_at DESC, id LIMIT $2;

-- name: chartAllergies
SELECT id, code_system AS "codeSystem", code, display, clinical_status AS "clinicalStatus",
  to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt"
FROM allergies WHERE patient_id = $1 ORDER BY recorded_at DESC, id LIMIT $2;

-- ======================================================================
-- audit trail
-- ======================================================================

-- name: lockAuditChain
SELECT pg_advisory_xact_lock($1::bigint);

-- name: latestAuditHash
SELECT hash FROM audit_events ORDER BY id DESC LIMIT 1;

-- name: insertAuditEvent
INSERT INTO audit_events
  (occurred_at, actor_id, actor_role, patient_id, action, fields, row_count, outcome,
   break_glass_reason, correlation_id, prev_hash, hash)
  VALUES ($1::timestamptz, $2::uuid, $3, $4::uuid, $5, $6::text[], $7, $8, $9, $10, $11, $12)
  RETURNING id::text AS id,
  to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurredAt",
  actor_id::text AS "actorId", actor_role AS "actorRole", patient_id::text AS "patientId",
  action, fields, row_count AS "rowCount", outcome, break_glass_reason AS "breakGlassReason",
  correlation_id AS "correlationId", prev_hash AS "prevHash", hash;

-- name: auditEventsPage
SELECT id::text AS id,
  to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurredAt",
  actor_id::text AS "actorId", actor_role AS "actorRole", patient_id::text AS "patientId",
  action, fields, row_count AS "rowCount", outcome, break_glass_reason AS "breakGlassReason",
  correlation_id AS "correlationId", prev_hash AS "prevHash", hash
  FROM audit_events WHERE audit_events.id > $1::bigint ORDER BY audit_events.id LIMIT $2;

-- ======================================================================
-- health
-- ======================================================================

-- name: probe
SELECT 1;
