import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The storage side of the eCQM data contract (issue 10), so that real exports and the stewards' test
 * cases import without silent loss:
 * - every `*_system` column accepts any code-system URI (a CHECK on the URI's shape, `CODE_SYSTEM_PATTERN`)
 *   instead of a closed list that refused ICD-10-PCS, HCPCS, CVX and local systems;
 * - the status and category CHECKs take the full FHIR vocabularies the measures read;
 * - an observation may have no value when it says why (`data_absent_reason`) or carries a coded one;
 * - the new row fields of `chart.types.ts`, and two tables: `clinical_requests` (ServiceRequest and
 *   DeviceRequest) and `adverse_events`, readable by `vigil_reader` like the other cohort tables;
 * - `patients.mrn` is no longer unique (two sources can share an MRN; an index keeps look-ups fast).
 *
 * The SQL is literal (not built from the enums) so this migration means the same thing forever.
 * `down` restores the old constraints: Postgres refuses it (and rolls back) when stored rows no
 * longer fit them, e.g. a shared MRN or an ICD-10-PCS procedure; nothing is deleted to make it fit.
 */
export class EcqmDataContract1764520000000 implements MigrationInterface {
  name = 'EcqmDataContract1764520000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // Open code systems and the full FHIR status/category vocabularies (same names, wider rules).
    await queryRunner.query(`ALTER TABLE "allergies" DROP CONSTRAINT "CHK_allergies_code_system"`);
    await queryRunner.query(`ALTER TABLE "allergies" ADD CONSTRAINT "CHK_allergies_code_system" CHECK ("code_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP CONSTRAINT "CHK_encounters_type_system"`);
    await queryRunner.query(`ALTER TABLE "encounters" ADD CONSTRAINT "CHK_encounters_type_system" CHECK ("type_system" IS NULL OR "type_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP CONSTRAINT "CHK_encounters_reason_system"`);
    await queryRunner.query(`ALTER TABLE "encounters" ADD CONSTRAINT "CHK_encounters_reason_system" CHECK ("reason_system" IS NULL OR "reason_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP CONSTRAINT "CHK_encounters_status"`);
    await queryRunner.query(`ALTER TABLE "encounters" ADD CONSTRAINT "CHK_encounters_status" CHECK ("status" IN ('planned', 'arrived', 'triaged', 'in-progress', 'onleave', 'finished', 'cancelled', 'entered-in-error', 'unknown'))`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP CONSTRAINT "CHK_conditions_code_system"`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD CONSTRAINT "CHK_conditions_code_system" CHECK ("code_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP CONSTRAINT "CHK_conditions_clinical_status"`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD CONSTRAINT "CHK_conditions_clinical_status" CHECK ("clinical_status" IS NULL OR "clinical_status" IN ('active', 'recurrence', 'relapse', 'inactive', 'remission', 'resolved'))`);
    await queryRunner.query(`ALTER TABLE "medications" DROP CONSTRAINT "CHK_medications_code_system"`);
    await queryRunner.query(`ALTER TABLE "medications" ADD CONSTRAINT "CHK_medications_code_system" CHECK ("code_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "CHK_observations_code_system"`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "CHK_observations_code_system" CHECK ("code_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "CHK_observations_status"`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "CHK_observations_status" CHECK ("status" IN ('registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error', 'unknown'))`);
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "CHK_observations_category"`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "CHK_observations_category" CHECK ("category" IN ('laboratory', 'vital-signs', 'social-history', 'survey', 'exam', 'imaging', 'procedure', 'therapy', 'activity'))`);
    await queryRunner.query(`ALTER TABLE "procedures" DROP CONSTRAINT "CHK_procedures_code_system"`);
    await queryRunner.query(`ALTER TABLE "procedures" ADD CONSTRAINT "CHK_procedures_code_system" CHECK ("code_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    await queryRunner.query(`ALTER TABLE "procedures" DROP CONSTRAINT "CHK_procedures_status"`);
    await queryRunner.query(`ALTER TABLE "procedures" ADD CONSTRAINT "CHK_procedures_status" CHECK ("status" IN ('preparation', 'in-progress', 'not-done', 'on-hold', 'stopped', 'completed', 'entered-in-error', 'unknown'))`);
    // An observation without a value must say why, or carry a coded value.
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "CHK_observations_has_value"`);
    // MRN is an attribute, not a key.
    await queryRunner.query(`ALTER TABLE "patients" DROP CONSTRAINT "UQ_2fe90c44da84b034e30bdadb9d0"`);
    await queryRunner.query(`CREATE INDEX "IDX_patients_mrn" ON "patients"("mrn")`);
    // New row fields.
    await queryRunner.query(`ALTER TABLE "allergies" ADD "onset_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "allergies" ADD "onset_end_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "encounters" ADD "discharge_disposition_system" text`);
    await queryRunner.query(`ALTER TABLE "encounters" ADD "discharge_disposition_code" text`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD "verification_status" text`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD "category" text`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD "body_site_system" text`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD "body_site_code" text`);
    await queryRunner.query(`ALTER TABLE "medications" ADD "intent" text`);
    await queryRunner.query(`ALTER TABLE "medications" ADD "do_not_perform" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "medications" ADD "authored_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "medications" ADD "reason_system" text`);
    await queryRunner.query(`ALTER TABLE "medications" ADD "reason_code" text`);
    await queryRunner.query(`ALTER TABLE "medications" ADD "supply" jsonb`);
    await queryRunner.query(`ALTER TABLE "observations" ADD "effective_end_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "observations" ADD "value_system" text`);
    await queryRunner.query(`ALTER TABLE "observations" ADD "value_code" text`);
    await queryRunner.query(`ALTER TABLE "observations" ADD "data_absent_reason" text`);
    await queryRunner.query(`ALTER TABLE "procedures" ADD "performed_end_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "procedures" ADD "status_reason_system" text`);
    await queryRunner.query(`ALTER TABLE "procedures" ADD "status_reason_code" text`);
    await queryRunner.query(`ALTER TABLE "procedures" ADD "body_site_system" text`);
    await queryRunner.query(`ALTER TABLE "procedures" ADD "body_site_code" text`);
    await queryRunner.query(`ALTER TABLE "conditions" ALTER COLUMN "clinical_status" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "encounters" ADD CONSTRAINT "CHK_encounters_discharge_disposition_system" CHECK ("discharge_disposition_system" IS NULL OR "discharge_disposition_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD CONSTRAINT "CHK_conditions_body_site_system" CHECK ("body_site_system" IS NULL OR "body_site_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD CONSTRAINT "CHK_conditions_category" CHECK ("category" IS NULL OR "category" IN ('problem-list-item', 'encounter-diagnosis', 'health-concern'))`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD CONSTRAINT "CHK_conditions_verification_status" CHECK ("verification_status" IS NULL OR "verification_status" IN ('unconfirmed', 'provisional', 'differential', 'confirmed', 'refuted', 'entered-in-error'))`);
    await queryRunner.query(`ALTER TABLE "medications" ADD CONSTRAINT "CHK_medications_reason_system" CHECK ("reason_system" IS NULL OR "reason_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    await queryRunner.query(`ALTER TABLE "medications" ADD CONSTRAINT "CHK_medications_intent" CHECK ("intent" IS NULL OR "intent" IN ('proposal', 'plan', 'directive', 'order', 'original-order', 'reflex-order', 'filler-order', 'instance-order', 'option'))`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "CHK_observations_value_or_absent" CHECK ("value_numeric" IS NOT NULL OR "value_text" IS NOT NULL OR "value_code" IS NOT NULL OR "data_absent_reason" IS NOT NULL)`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "CHK_observations_value_system" CHECK ("value_system" IS NULL OR "value_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    await queryRunner.query(`ALTER TABLE "procedures" ADD CONSTRAINT "CHK_procedures_body_site_system" CHECK ("body_site_system" IS NULL OR "body_site_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    await queryRunner.query(`ALTER TABLE "procedures" ADD CONSTRAINT "CHK_procedures_status_reason_system" CHECK ("status_reason_system" IS NULL OR "status_reason_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    // Requests (ServiceRequest, DeviceRequest) and adverse events.
    await queryRunner.query(`CREATE TABLE "adverse_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "code_system" text NOT NULL, "code" text NOT NULL, "display" text NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_adverse_events_code_system" CHECK ("code_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$'), CONSTRAINT "PK_3957b669b5de4933180c74f1178" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_adverse_events_patient" ON "adverse_events"("patient_id")`);
    await queryRunner.query(`CREATE TABLE "clinical_requests" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "kind" text NOT NULL, "code_system" text NOT NULL, "code" text NOT NULL, "display" text NOT NULL, "status" text NOT NULL, "intent" text NOT NULL, "do_not_perform" boolean NOT NULL DEFAULT false, "authored_at" TIMESTAMP WITH TIME ZONE, "reason_system" text, "reason_code" text, CONSTRAINT "CHK_clinical_requests_reason_system" CHECK ("reason_system" IS NULL OR "reason_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$'), CONSTRAINT "CHK_clinical_requests_code_system" CHECK ("code_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$'), CONSTRAINT "CHK_clinical_requests_intent" CHECK ("intent" IN ('proposal', 'plan', 'directive', 'order', 'original-order', 'reflex-order', 'filler-order', 'instance-order', 'option')), CONSTRAINT "CHK_clinical_requests_status" CHECK ("status" IN ('draft', 'active', 'on-hold', 'revoked', 'completed', 'entered-in-error', 'unknown')), CONSTRAINT "CHK_clinical_requests_kind" CHECK ("kind" IN ('service', 'device')), CONSTRAINT "PK_40dd75fad8b56228a2c58075016" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_clinical_requests_code" ON "clinical_requests"("code_system", "code")`);
    await queryRunner.query(`CREATE INDEX "IDX_clinical_requests_patient" ON "clinical_requests"("patient_id")`);
    await queryRunner.query(`ALTER TABLE "adverse_events" ADD CONSTRAINT "FK_7315085a45128126c453e1e8ca3" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "clinical_requests" ADD CONSTRAINT "FK_d51c174a7e865172e496ec4adfe" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`GRANT SELECT ON "clinical_requests", "adverse_events" TO vigil_reader`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`REVOKE SELECT ON "clinical_requests", "adverse_events" FROM vigil_reader`);
    await queryRunner.query(`ALTER TABLE "clinical_requests" DROP CONSTRAINT "FK_d51c174a7e865172e496ec4adfe"`);
    await queryRunner.query(`ALTER TABLE "adverse_events" DROP CONSTRAINT "FK_7315085a45128126c453e1e8ca3"`);
    await queryRunner.query(`ALTER TABLE "procedures" DROP CONSTRAINT "CHK_procedures_status_reason_system"`);
    await queryRunner.query(`ALTER TABLE "procedures" DROP CONSTRAINT "CHK_procedures_body_site_system"`);
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "CHK_observations_value_system"`);
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "CHK_observations_value_or_absent"`);
    await queryRunner.query(`ALTER TABLE "medications" DROP CONSTRAINT "CHK_medications_intent"`);
    await queryRunner.query(`ALTER TABLE "medications" DROP CONSTRAINT "CHK_medications_reason_system"`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP CONSTRAINT "CHK_conditions_verification_status"`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP CONSTRAINT "CHK_conditions_category"`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP CONSTRAINT "CHK_conditions_body_site_system"`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP CONSTRAINT "CHK_encounters_discharge_disposition_system"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_patients_mrn"`);
    await queryRunner.query(`ALTER TABLE "conditions" ALTER COLUMN "clinical_status" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "patients" ADD CONSTRAINT "UQ_2fe90c44da84b034e30bdadb9d0" UNIQUE ("mrn")`);
    await queryRunner.query(`ALTER TABLE "procedures" DROP COLUMN "body_site_code"`);
    await queryRunner.query(`ALTER TABLE "procedures" DROP COLUMN "body_site_system"`);
    await queryRunner.query(`ALTER TABLE "procedures" DROP COLUMN "status_reason_code"`);
    await queryRunner.query(`ALTER TABLE "procedures" DROP COLUMN "status_reason_system"`);
    await queryRunner.query(`ALTER TABLE "procedures" DROP COLUMN "performed_end_at"`);
    await queryRunner.query(`ALTER TABLE "observations" DROP COLUMN "data_absent_reason"`);
    await queryRunner.query(`ALTER TABLE "observations" DROP COLUMN "value_code"`);
    await queryRunner.query(`ALTER TABLE "observations" DROP COLUMN "value_system"`);
    await queryRunner.query(`ALTER TABLE "observations" DROP COLUMN "effective_end_at"`);
    await queryRunner.query(`ALTER TABLE "medications" DROP COLUMN "supply"`);
    await queryRunner.query(`ALTER TABLE "medications" DROP COLUMN "reason_code"`);
    await queryRunner.query(`ALTER TABLE "medications" DROP COLUMN "reason_system"`);
    await queryRunner.query(`ALTER TABLE "medications" DROP COLUMN "authored_at"`);
    await queryRunner.query(`ALTER TABLE "medications" DROP COLUMN "do_not_perform"`);
    await queryRunner.query(`ALTER TABLE "medications" DROP COLUMN "intent"`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP COLUMN "body_site_code"`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP COLUMN "body_site_system"`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP COLUMN "category"`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP COLUMN "verification_status"`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP COLUMN "discharge_disposition_code"`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP COLUMN "discharge_disposition_system"`);
    await queryRunner.query(`ALTER TABLE "allergies" DROP COLUMN "onset_end_at"`);
    await queryRunner.query(`ALTER TABLE "allergies" DROP COLUMN "onset_at"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_clinical_requests_patient"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_clinical_requests_code"`);
    await queryRunner.query(`DROP TABLE "clinical_requests"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_adverse_events_patient"`);
    await queryRunner.query(`DROP TABLE "adverse_events"`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "CHK_observations_has_value" CHECK ("value_numeric" IS NOT NULL OR "value_text" IS NOT NULL)`);
    await queryRunner.query(`ALTER TABLE "procedures" DROP CONSTRAINT "CHK_procedures_status"`);
    await queryRunner.query(`ALTER TABLE "procedures" ADD CONSTRAINT "CHK_procedures_status" CHECK ("status" IN ('completed', 'in-progress', 'not-done', 'entered-in-error'))`);
    await queryRunner.query(`ALTER TABLE "procedures" DROP CONSTRAINT "CHK_procedures_code_system"`);
    await queryRunner.query(`ALTER TABLE "procedures" ADD CONSTRAINT "CHK_procedures_code_system" CHECK ("code_system" IN ('http://www.ama-assn.org/go/cpt', 'http://snomed.info/sct', 'http://loinc.org'))`);
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "CHK_observations_category"`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "CHK_observations_category" CHECK ("category" IN ('laboratory', 'vital-signs', 'social-history', 'survey'))`);
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "CHK_observations_status"`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "CHK_observations_status" CHECK ("status" IN ('preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error'))`);
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "CHK_observations_code_system"`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "CHK_observations_code_system" CHECK ("code_system" IN ('http://loinc.org', 'http://snomed.info/sct', 'http://hl7.org/fhir/sid/icd-10-cm', 'http://www.nlm.nih.gov/research/umls/rxnorm', 'http://www.ama-assn.org/go/cpt'))`);
    await queryRunner.query(`ALTER TABLE "medications" DROP CONSTRAINT "CHK_medications_code_system"`);
    await queryRunner.query(`ALTER TABLE "medications" ADD CONSTRAINT "CHK_medications_code_system" CHECK ("code_system" IN ('http://www.nlm.nih.gov/research/umls/rxnorm'))`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP CONSTRAINT "CHK_conditions_clinical_status"`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD CONSTRAINT "CHK_conditions_clinical_status" CHECK ("clinical_status" IN ('active', 'recurrence', 'relapse', 'inactive', 'remission', 'resolved'))`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP CONSTRAINT "CHK_conditions_code_system"`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD CONSTRAINT "CHK_conditions_code_system" CHECK ("code_system" IN ('http://hl7.org/fhir/sid/icd-10-cm', 'http://snomed.info/sct'))`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP CONSTRAINT "CHK_encounters_status"`);
    await queryRunner.query(`ALTER TABLE "encounters" ADD CONSTRAINT "CHK_encounters_status" CHECK ("status" IN ('planned', 'in-progress', 'finished', 'cancelled'))`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP CONSTRAINT "CHK_encounters_reason_system"`);
    await queryRunner.query(`ALTER TABLE "encounters" ADD CONSTRAINT "CHK_encounters_reason_system" CHECK ("reason_system" IS NULL OR "reason_system" IN ('http://loinc.org', 'http://snomed.info/sct', 'http://hl7.org/fhir/sid/icd-10-cm', 'http://www.nlm.nih.gov/research/umls/rxnorm', 'http://www.ama-assn.org/go/cpt'))`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP CONSTRAINT "CHK_encounters_type_system"`);
    await queryRunner.query(`ALTER TABLE "encounters" ADD CONSTRAINT "CHK_encounters_type_system" CHECK ("type_system" IS NULL OR "type_system" IN ('http://loinc.org', 'http://snomed.info/sct', 'http://hl7.org/fhir/sid/icd-10-cm', 'http://www.nlm.nih.gov/research/umls/rxnorm', 'http://www.ama-assn.org/go/cpt'))`);
    await queryRunner.query(`ALTER TABLE "allergies" DROP CONSTRAINT "CHK_allergies_code_system"`);
    await queryRunner.query(`ALTER TABLE "allergies" ADD CONSTRAINT "CHK_allergies_code_system" CHECK ("code_system" IN ('http://loinc.org', 'http://snomed.info/sct', 'http://hl7.org/fhir/sid/icd-10-cm', 'http://www.nlm.nih.gov/research/umls/rxnorm', 'http://www.ama-assn.org/go/cpt'))`);
  }
}
