import { MigrationInterface, QueryRunner } from 'typeorm';

/** The three statement-level triggers that bump `patients.data_version` (see the measure-results store migration). */
const DATA_VERSION_TRIGGERS = [
  { event: 'INSERT', suffix: 'ins', referencing: 'NEW TABLE AS new_rows' },
  { event: 'UPDATE', suffix: 'upd', referencing: 'OLD TABLE AS old_rows NEW TABLE AS new_rows' },
  { event: 'DELETE', suffix: 'del', referencing: 'OLD TABLE AS old_rows' },
];

const TABLES = ['medication_dispenses', 'immunizations', 'communications'];

/**
 * Record types the published measures retrieve and the importer used to leave out:
 * - `medication_dispenses`: QI-Core MedicationDispense, which the adherence measures (antidepressant
 *   continuation, CMS128, among them) turn into the days a dispense covers through
 *   CumulativeMedicationDuration;
 * - `immunizations`: QI-Core Immunization (and ImmunizationNotDone), which the childhood
 *   immunization measure (CMS117) counts;
 * - `communications`: QI-Core Communication (and CommunicationNotDone), kept by category, which the
 *   diabetic retinopathy communication measure (CMS142) counts.
 * Readable by `vigil_reader` like every cohort table, and a change to any of them is a change to the
 * patient's data (stored measure results go stale), as for the tables the measure-results store
 * versions. The SQL is literal so this migration means the same thing forever.
 */
export class DispensesAndImmunizations1764700000000 implements MigrationInterface {
  name = 'DispensesAndImmunizations1764700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "medication_dispenses" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "code_system" text NOT NULL, "code" text NOT NULL, "display" text NOT NULL, "status" text NOT NULL, "code_from_reference" boolean NOT NULL DEFAULT false, "handed_over_at" TIMESTAMP WITH TIME ZONE, "prepared_at" TIMESTAMP WITH TIME ZONE, "days_supply" double precision, "quantity" double precision, "dosage" jsonb, CONSTRAINT "CHK_medication_dispenses_code_system" CHECK ("code_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$'), CONSTRAINT "CHK_medication_dispenses_status" CHECK ("status" IN ('preparation', 'in-progress', 'cancelled', 'on-hold', 'completed', 'entered-in-error', 'stopped', 'declined', 'unknown')), CONSTRAINT "PK_01892203a6f438a6073f110a921" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_medication_dispenses_patient" ON "medication_dispenses" ("patient_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_medication_dispenses_code" ON "medication_dispenses" ("code_system", "code")`);
    await queryRunner.query(`ALTER TABLE "medication_dispenses" ADD CONSTRAINT "FK_3a2d411b845a828544d89fde5a8" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`CREATE TABLE "immunizations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "code_system" text NOT NULL, "code" text NOT NULL, "display" text NOT NULL, "status" text NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE, "recorded_at" TIMESTAMP WITH TIME ZONE, "primary_source" boolean, "status_reason_system" text, "status_reason_code" text, CONSTRAINT "CHK_immunizations_code_system" CHECK ("code_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$'), CONSTRAINT "CHK_immunizations_status" CHECK ("status" IN ('completed', 'entered-in-error', 'not-done')), CONSTRAINT "CHK_immunizations_status_reason_system" CHECK ("status_reason_system" IS NULL OR "status_reason_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$'), CONSTRAINT "PK_d6ef20ce9b42402adbbd1e260fe" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_immunizations_patient" ON "immunizations" ("patient_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_immunizations_code" ON "immunizations" ("code_system", "code")`);
    await queryRunner.query(`ALTER TABLE "immunizations" ADD CONSTRAINT "FK_3484afecca0b55b0ac4b5fdfc12" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`CREATE TABLE "communications" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "category_system" text, "category_code" text, "category_display" text, "status" text NOT NULL, "status_reason_system" text, "status_reason_code" text, "sent_at" TIMESTAMP WITH TIME ZONE, "received_at" TIMESTAMP WITH TIME ZONE, "recorded_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_communications_category_system" CHECK ("category_system" IS NULL OR "category_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$'), CONSTRAINT "CHK_communications_status" CHECK ("status" IN ('preparation', 'in-progress', 'not-done', 'on-hold', 'stopped', 'completed', 'entered-in-error', 'unknown')), CONSTRAINT "CHK_communications_status_reason_system" CHECK ("status_reason_system" IS NULL OR "status_reason_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$'), CONSTRAINT "PK_29ec793018d5d5ca19d40149e87" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_communications_patient" ON "communications" ("patient_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_communications_category" ON "communications" ("category_system", "category_code")`);
    await queryRunner.query(`ALTER TABLE "communications" ADD CONSTRAINT "FK_feb3d41085288cf08d9e2241eda" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    for (const table of TABLES) {
      for (const trigger of DATA_VERSION_TRIGGERS) {
        await queryRunner.query(`CREATE TRIGGER "TRG_${table}_data_version_${trigger.suffix}" AFTER ${trigger.event} ON "${table}"
          REFERENCING ${trigger.referencing} FOR EACH STATEMENT EXECUTE FUNCTION vigil_bump_patient_data_version()`);
      }
    }
    await queryRunner.query(`GRANT SELECT ON "medication_dispenses", "immunizations", "communications" TO vigil_reader`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`REVOKE SELECT ON "medication_dispenses", "immunizations", "communications" FROM vigil_reader`);
    for (const table of TABLES) {
      for (const trigger of DATA_VERSION_TRIGGERS) await queryRunner.query(`DROP TRIGGER "TRG_${table}_data_version_${trigger.suffix}" ON "${table}"`);
    }
    await queryRunner.query(`ALTER TABLE "communications" DROP CONSTRAINT "FK_feb3d41085288cf08d9e2241eda"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_communications_category"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_communications_patient"`);
    await queryRunner.query(`DROP TABLE "communications"`);
    await queryRunner.query(`ALTER TABLE "immunizations" DROP CONSTRAINT "FK_3484afecca0b55b0ac4b5fdfc12"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_immunizations_code"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_immunizations_patient"`);
    await queryRunner.query(`DROP TABLE "immunizations"`);
    await queryRunner.query(`ALTER TABLE "medication_dispenses" DROP CONSTRAINT "FK_3a2d411b845a828544d89fde5a8"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_medication_dispenses_code"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_medication_dispenses_patient"`);
    await queryRunner.query(`DROP TABLE "medication_dispenses"`);
  }
}
