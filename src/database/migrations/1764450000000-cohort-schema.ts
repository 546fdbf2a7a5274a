import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The cohort schema: patients and their care teams, staff, and the clinical record (encounters,
 * observations, conditions, medications, procedures, notes, allergies). Generated from the entities
 * with TypeORM's schema builder, then reviewed; `schema-check` keeps the two in agreement.
 */
export class CohortSchema1764450000000 implements MigrationInterface {
  name = 'CohortSchema1764450000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "patients" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "mrn" text NOT NULL, "given_name" text NOT NULL, "family_name" text NOT NULL, "birth_date" date NOT NULL, "sex" text NOT NULL, "phone" text, "email" text, "address_line" text, "city" text, "state" text, "postal_code" text, "deceased_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_2fe90c44da84b034e30bdadb9d0" UNIQUE ("mrn"), CONSTRAINT "CHK_patients_deceased_after_birth" CHECK ("deceased_at" IS NULL OR "deceased_at" >= "birth_date"), CONSTRAINT "CHK_patients_sex" CHECK ("sex" IN ('female', 'male', 'other', 'unknown')), CONSTRAINT "PK_a7f0b9fcbb3469d5ec0b0aceaa7" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "allergies" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "code_system" text NOT NULL, "code" text NOT NULL, "display" text NOT NULL, "clinical_status" text NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "CHK_allergies_clinical_status" CHECK ("clinical_status" IN ('active', 'inactive', 'resolved')), CONSTRAINT "CHK_allergies_code_system" CHECK ("code_system" IN ('http://loinc.org', 'http://snomed.info/sct', 'http://hl7.org/fhir/sid/icd-10-cm', 'http://www.nlm.nih.gov/research/umls/rxnorm', 'http://www.ama-assn.org/go/cpt')), CONSTRAINT "PK_f72e0cf363a832b8fa8cf657118" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_allergies_patient" ON "allergies" ("patient_id")`);
    await queryRunner.query(`CREATE TABLE "care_teams" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "code" text NOT NULL, "name" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_de7c13b0a0e0831527f47e9d860" UNIQUE ("code"), CONSTRAINT "PK_a7ac6b60c4356b964e52f760943" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "staff_users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "username" text NOT NULL, "display_name" text NOT NULL, "role" text NOT NULL, "active" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_975b4ddfa7b30b64ac26cefbad0" UNIQUE ("username"), CONSTRAINT "CHK_staff_users_role" CHECK ("role" IN ('clinician', 'care_coordinator', 'reviewer', 'analyst')), CONSTRAINT "PK_c6b167335377df69f7910c2c75e" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "care_team_members" ("care_team_id" uuid NOT NULL, "staff_user_id" uuid NOT NULL, CONSTRAINT "PK_3231265e302f257c227f390fc2a" PRIMARY KEY ("care_team_id", "staff_user_id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_care_team_members_staff_user" ON "care_team_members" ("staff_user_id")`);
    await queryRunner.query(`CREATE TABLE "encounters" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "class" text NOT NULL, "status" text NOT NULL, "type_system" text, "type_code" text, "type_display" text, "reason_system" text, "reason_code" text, "reason_display" text, "start_at" TIMESTAMP WITH TIME ZONE NOT NULL, "end_at" TIMESTAMP WITH TIME ZONE, "disposition" text, CONSTRAINT "CHK_encounters_period" CHECK ("end_at" IS NULL OR "end_at" >= "start_at"), CONSTRAINT "CHK_encounters_reason_system" CHECK ("reason_system" IS NULL OR "reason_system" IN ('http://loinc.org', 'http://snomed.info/sct', 'http://hl7.org/fhir/sid/icd-10-cm', 'http://www.nlm.nih.gov/research/umls/rxnorm', 'http://www.ama-assn.org/go/cpt')), CONSTRAINT "CHK_encounters_type_system" CHECK ("type_system" IS NULL OR "type_system" IN ('http://loinc.org', 'http://snomed.info/sct', 'http://hl7.org/fhir/sid/icd-10-cm', 'http://www.nlm.nih.gov/research/umls/rxnorm', 'http://www.ama-assn.org/go/cpt')), CONSTRAINT "CHK_encounters_status" CHECK ("status" IN ('planned', 'in-progress', 'finished', 'cancelled')), CONSTRAINT "CHK_encounters_class" CHECK ("class" IN ('ambulatory', 'emergency', 'inpatient', 'observation', 'virtual', 'home')), CONSTRAINT "PK_b2e596be58aabc4ccc8f8458b53" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_encounters_patient_start" ON "encounters" ("patient_id", "start_at")`);
    await queryRunner.query(`CREATE TABLE "clinical_notes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "encounter_id" uuid, "note_type" text NOT NULL, "author_display" text, "authored_at" TIMESTAMP WITH TIME ZONE NOT NULL, "text" text NOT NULL, CONSTRAINT "CHK_clinical_notes_note_type" CHECK ("note_type" IN ('progress-note', 'discharge-summary', 'consult-note', 'nursing-note', 'patient-message')), CONSTRAINT "PK_590ad4cecf429ecc12e8202cbb4" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_clinical_notes_encounter" ON "clinical_notes" ("encounter_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_clinical_notes_patient_authored" ON "clinical_notes" ("patient_id", "authored_at")`);
    await queryRunner.query(`CREATE TABLE "conditions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "code_system" text NOT NULL, "code" text NOT NULL, "display" text NOT NULL, "clinical_status" text NOT NULL, "onset_date" date, "abatement_date" date, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "CHK_conditions_clinical_status" CHECK ("clinical_status" IN ('active', 'recurrence', 'relapse', 'inactive', 'remission', 'resolved')), CONSTRAINT "CHK_conditions_code_system" CHECK ("code_system" IN ('http://hl7.org/fhir/sid/icd-10-cm', 'http://snomed.info/sct')), CONSTRAINT "PK_3938bdf2933c08ac7af7e0e15e7" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_conditions_code" ON "conditions" ("code_system", "code")`);
    await queryRunner.query(`CREATE INDEX "IDX_conditions_patient" ON "conditions" ("patient_id")`);
    await queryRunner.query(`CREATE TABLE "medications" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "code_system" text NOT NULL DEFAULT 'http://www.nlm.nih.gov/research/umls/rxnorm', "code" text NOT NULL, "display" text NOT NULL, "status" text NOT NULL, "start_date" date NOT NULL, "end_date" date, "dosage_text" text, CONSTRAINT "CHK_medications_period" CHECK ("end_date" IS NULL OR "end_date" >= "start_date"), CONSTRAINT "CHK_medications_status" CHECK ("status" IN ('active', 'on-hold', 'cancelled', 'completed', 'entered-in-error', 'stopped', 'draft', 'unknown')), CONSTRAINT "CHK_medications_code_system" CHECK ("code_system" IN ('http://www.nlm.nih.gov/research/umls/rxnorm')), CONSTRAINT "PK_cdee49fe7cd79db13340150d356" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_medications_code" ON "medications" ("code_system", "code")`);
    await queryRunner.query(`CREATE INDEX "IDX_medications_patient_start" ON "medications" ("patient_id", "start_date")`);
    await queryRunner.query(`CREATE TABLE "observations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "encounter_id" uuid, "panel_id" uuid, "category" text NOT NULL, "status" text NOT NULL, "code_system" text NOT NULL DEFAULT 'http://loinc.org', "code" text NOT NULL, "display" text NOT NULL, "value_numeric" numeric, "value_text" text, "unit" text, "reference_low" numeric, "reference_high" numeric, "reference_text" text, "interpretation" text, "effective_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "CHK_observations_has_value" CHECK ("value_numeric" IS NOT NULL OR "value_text" IS NOT NULL), CONSTRAINT "CHK_observations_code_system" CHECK ("code_system" IN ('http://loinc.org', 'http://snomed.info/sct', 'http://hl7.org/fhir/sid/icd-10-cm', 'http://www.nlm.nih.gov/research/umls/rxnorm', 'http://www.ama-assn.org/go/cpt')), CONSTRAINT "CHK_observations_interpretation" CHECK ("interpretation" IS NULL OR "interpretation" IN ('N', 'H', 'L', 'HH', 'LL', 'A')), CONSTRAINT "CHK_observations_status" CHECK ("status" IN ('preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error')), CONSTRAINT "CHK_observations_category" CHECK ("category" IN ('laboratory', 'vital-signs', 'social-history', 'survey')), CONSTRAINT "PK_f9208d64f50a76030758087c0ef" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_observations_encounter" ON "observations" ("encounter_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_observations_code" ON "observations" ("code_system", "code")`);
    await queryRunner.query(`CREATE INDEX "IDX_observations_patient_code_effective" ON "observations" ("patient_id", "code", "effective_at")`);
    await queryRunner.query(`CREATE INDEX "IDX_observations_patient_effective" ON "observations" ("patient_id", "effective_at")`);
    await queryRunner.query(`CREATE TABLE "patient_care_teams" ("patient_id" uuid NOT NULL, "care_team_id" uuid NOT NULL, CONSTRAINT "PK_dc21c3e506809d381b3f76f6548" PRIMARY KEY ("patient_id", "care_team_id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_patient_care_teams_care_team" ON "patient_care_teams" ("care_team_id")`);
    await queryRunner.query(`CREATE TABLE "procedures" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "encounter_id" uuid, "code_system" text NOT NULL, "code" text NOT NULL, "display" text NOT NULL, "status" text NOT NULL, "performed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "CHK_procedures_status" CHECK ("status" IN ('completed', 'in-progress', 'not-done', 'entered-in-error')), CONSTRAINT "CHK_procedures_code_system" CHECK ("code_system" IN ('http://www.ama-assn.org/go/cpt', 'http://snomed.info/sct', 'http://loinc.org')), CONSTRAINT "PK_e7775bab78f27b4c47580b6cb4b" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_procedures_encounter" ON "procedures" ("encounter_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_procedures_code" ON "procedures" ("code_system", "code")`);
    await queryRunner.query(`CREATE INDEX "IDX_procedures_patient_performed" ON "procedures" ("patient_id", "performed_at")`);
    await queryRunner.query(`ALTER TABLE "allergies" ADD CONSTRAINT "FK_826fad2bea2e6a6f835fe70b1ed" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "care_team_members" ADD CONSTRAINT "FK_ddfaabe72067e1d2ac307b6eee5" FOREIGN KEY ("care_team_id") REFERENCES "care_teams"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "care_team_members" ADD CONSTRAINT "FK_ce937d4e7d111afcc64df76b22f" FOREIGN KEY ("staff_user_id") REFERENCES "staff_users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "encounters" ADD CONSTRAINT "FK_bb9694e5661b8635d77020d9529" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "clinical_notes" ADD CONSTRAINT "FK_beaf7be2b28453ae7233d819ce6" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "clinical_notes" ADD CONSTRAINT "FK_5c039351664d9d1e9a87b34f822" FOREIGN KEY ("encounter_id") REFERENCES "encounters"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD CONSTRAINT "FK_94d9897c60713927803a57b1805" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "medications" ADD CONSTRAINT "FK_3130066025b515af290c5bf190a" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "FK_26133b14cbfaa9740c1a8f4076c" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "FK_df6854c667164394606213ba5ae" FOREIGN KEY ("encounter_id") REFERENCES "encounters"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "patient_care_teams" ADD CONSTRAINT "FK_f6679a298b59bf03fc63d094d9d" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "patient_care_teams" ADD CONSTRAINT "FK_10126da833714a8cc096e643349" FOREIGN KEY ("care_team_id") REFERENCES "care_teams"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "procedures" ADD CONSTRAINT "FK_4201c068987dbf80b6acc8b4827" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "procedures" ADD CONSTRAINT "FK_907c55929f1dac0eeb1d39738c2" FOREIGN KEY ("encounter_id") REFERENCES "encounters"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "procedures" DROP CONSTRAINT "FK_907c55929f1dac0eeb1d39738c2"`);
    await queryRunner.query(`ALTER TABLE "procedures" DROP CONSTRAINT "FK_4201c068987dbf80b6acc8b4827"`);
    await queryRunner.query(`ALTER TABLE "patient_care_teams" DROP CONSTRAINT "FK_10126da833714a8cc096e643349"`);
    await queryRunner.query(`ALTER TABLE "patient_care_teams" DROP CONSTRAINT "FK_f6679a298b59bf03fc63d094d9d"`);
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "FK_df6854c667164394606213ba5ae"`);
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "FK_26133b14cbfaa9740c1a8f4076c"`);
    await queryRunner.query(`ALTER TABLE "medications" DROP CONSTRAINT "FK_3130066025b515af290c5bf190a"`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP CONSTRAINT "FK_94d9897c60713927803a57b1805"`);
    await queryRunner.query(`ALTER TABLE "clinical_notes" DROP CONSTRAINT "FK_5c039351664d9d1e9a87b34f822"`);
    await queryRunner.query(`ALTER TABLE "clinical_notes" DROP CONSTRAINT "FK_beaf7be2b28453ae7233d819ce6"`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP CONSTRAINT "FK_bb9694e5661b8635d77020d9529"`);
    await queryRunner.query(`ALTER TABLE "care_team_members" DROP CONSTRAINT "FK_ce937d4e7d111afcc64df76b22f"`);
    await queryRunner.query(`ALTER TABLE "care_team_members" DROP CONSTRAINT "FK_ddfaabe72067e1d2ac307b6eee5"`);
    await queryRunner.query(`ALTER TABLE "allergies" DROP CONSTRAINT "FK_826fad2bea2e6a6f835fe70b1ed"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_procedures_patient_performed"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_procedures_code"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_procedures_encounter"`);
    await queryRunner.query(`DROP TABLE "procedures"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_patient_care_teams_care_team"`);
    await queryRunner.query(`DROP TABLE "patient_care_teams"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_observations_patient_effective"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_observations_patient_code_effective"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_observations_code"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_observations_encounter"`);
    await queryRunner.query(`DROP TABLE "observations"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_medications_patient_start"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_medications_code"`);
    await queryRunner.query(`DROP TABLE "medications"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_conditions_patient"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_conditions_code"`);
    await queryRunner.query(`DROP TABLE "conditions"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_clinical_notes_patient_authored"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_clinical_notes_encounter"`);
    await queryRunner.query(`DROP TABLE "clinical_notes"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_encounters_patient_start"`);
    await queryRunner.query(`DROP TABLE "encounters"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_care_team_members_staff_user"`);
    await queryRunner.query(`DROP TABLE "care_team_members"`);
    await queryRunner.query(`DROP TABLE "staff_users"`);
    await queryRunner.query(`DROP TABLE "care_teams"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_allergies_patient"`);
    await queryRunner.query(`DROP TABLE "allergies"`);
    await queryRunner.query(`DROP TABLE "patients"`);
  }
}
