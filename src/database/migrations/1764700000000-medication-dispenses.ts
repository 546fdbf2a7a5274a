import { MigrationInterface, QueryRunner } from 'typeorm';

/** The three statement-level triggers that bump `patients.data_version` (see the measure-results store migration). */
const DATA_VERSION_TRIGGERS = [
  { event: 'INSERT', suffix: 'ins', referencing: 'NEW TABLE AS new_rows' },
  { event: 'UPDATE', suffix: 'upd', referencing: 'OLD TABLE AS old_rows NEW TABLE AS new_rows' },
  { event: 'DELETE', suffix: 'del', referencing: 'OLD TABLE AS old_rows' },
];

/**
 * `medication_dispenses`: QI-Core MedicationDispense, which the adherence measures (antidepressant
 * continuation, CMS128, among them) retrieve and CumulativeMedicationDuration turns into the days
 * a dispense covers. Until now the importer left these resources out, so those measures could not
 * see the supply a patient was given. Readable by `vigil_reader` like every cohort table, and a
 * change to it is a change to the patient's data (the stored measure results go stale), as for the
 * tables the measure-results store versions. The SQL is literal so this migration means the same
 * thing forever.
 */
export class MedicationDispenses1764700000000 implements MigrationInterface {
  name = 'MedicationDispenses1764700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "medication_dispenses" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "code_system" text NOT NULL, "code" text NOT NULL, "display" text NOT NULL, "status" text NOT NULL, "code_from_reference" boolean NOT NULL DEFAULT false, "handed_over_at" TIMESTAMP WITH TIME ZONE, "prepared_at" TIMESTAMP WITH TIME ZONE, "days_supply" double precision, "quantity" double precision, "dosage" jsonb, CONSTRAINT "CHK_medication_dispenses_code_system" CHECK ("code_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$'), CONSTRAINT "CHK_medication_dispenses_status" CHECK ("status" IN ('preparation', 'in-progress', 'cancelled', 'on-hold', 'completed', 'entered-in-error', 'stopped', 'declined', 'unknown')), CONSTRAINT "PK_01892203a6f438a6073f110a921" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_medication_dispenses_patient" ON "medication_dispenses" ("patient_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_medication_dispenses_code" ON "medication_dispenses" ("code_system", "code")`);
    await queryRunner.query(`ALTER TABLE "medication_dispenses" ADD CONSTRAINT "FK_3a2d411b845a828544d89fde5a8" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    for (const trigger of DATA_VERSION_TRIGGERS) {
      await queryRunner.query(`CREATE TRIGGER "TRG_medication_dispenses_data_version_${trigger.suffix}" AFTER ${trigger.event} ON "medication_dispenses"
        REFERENCING ${trigger.referencing} FOR EACH STATEMENT EXECUTE FUNCTION vigil_bump_patient_data_version()`);
    }
    await queryRunner.query(`GRANT SELECT ON "medication_dispenses" TO vigil_reader`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`REVOKE SELECT ON "medication_dispenses" FROM vigil_reader`);
    for (const trigger of DATA_VERSION_TRIGGERS) await queryRunner.query(`DROP TRIGGER "TRG_medication_dispenses_data_version_${trigger.suffix}" ON "medication_dispenses"`);
    await queryRunner.query(`ALTER TABLE "medication_dispenses" DROP CONSTRAINT "FK_3a2d411b845a828544d89fde5a8"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_medication_dispenses_code"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_medication_dispenses_patient"`);
    await queryRunner.query(`DROP TABLE "medication_dispenses"`);
  }
}
