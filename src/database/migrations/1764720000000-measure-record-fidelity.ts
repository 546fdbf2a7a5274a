import { MigrationInterface, QueryRunner } from 'typeorm';

/** The three statement-level triggers that bump `patients.data_version` (see the measure-results store migration). */
const DATA_VERSION_TRIGGERS = [
  { event: 'INSERT', suffix: 'ins', referencing: 'NEW TABLE AS new_rows' },
  { event: 'UPDATE', suffix: 'upd', referencing: 'OLD TABLE AS old_rows NEW TABLE AS new_rows' },
  { event: 'DELETE', suffix: 'del', referencing: 'OLD TABLE AS old_rows' },
];

const TABLES = ['medication_administrations', 'tasks'];

/**
 * What the published measures read and the importer used to leave out:
 * - `medication_administrations`: QI-Core MedicationAdministration (and …NotDone), which the bladder
 *   cancer BCG measure (CMS646) and the VTE measures count;
 * - `tasks`: QI-Core Task (and TaskRejected): a referral closed by a consultant report (CMS50), an
 *   order rejected and why; its `focus` and `basedOn` as references to the requests' rows;
 * - `encounters.diagnoses`, `encounters.reason_references` and `encounters.locations`: the
 *   conditions an encounter names (CQMCommon's encounterDiagnosis() follows `reasonReference`) and
 *   where it took place, with the Location's type (CMS136 reads it), as jsonb beside the row: they
 *   are read only whole, with the encounter, never searched, as `type_other_codings` is;
 * - `observations.panel_own_value`: which row of a panel is the panel itself (its code and value),
 *   so its components go back into it (a CT scan's dose category and its noise and dose, CMS1056).
 *   Rows stored before are false: a re-import marks them.
 * Readable by `vigil_reader`; a change to the new tables is a change to the patient's data. The SQL
 * is literal so this migration means the same thing forever.
 */
export class MeasureRecordFidelity1764720000000 implements MigrationInterface {
  name = 'MeasureRecordFidelity1764720000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "medication_administrations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "code_system" text NOT NULL, "code" text NOT NULL, "display" text NOT NULL, "code_from_reference" boolean NOT NULL DEFAULT false, "status" text NOT NULL, "status_reason_system" text, "status_reason_code" text, "effective_at" TIMESTAMP WITH TIME ZONE, "effective_end_at" TIMESTAMP WITH TIME ZONE, "effective_is_period" boolean NOT NULL DEFAULT false, "recorded_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_medication_administrations_status_reason_system" CHECK ("status_reason_system" IS NULL OR "status_reason_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$'), CONSTRAINT "CHK_medication_administrations_status" CHECK ("status" IN ('in-progress', 'not-done', 'on-hold', 'completed', 'entered-in-error', 'stopped', 'unknown')), CONSTRAINT "CHK_medication_administrations_code_system" CHECK ("code_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$'), CONSTRAINT "PK_a7829a4b8a75cade9da727b785c" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_medication_administrations_code" ON "medication_administrations" ("code_system", "code")`);
    await queryRunner.query(`CREATE INDEX "IDX_medication_administrations_patient" ON "medication_administrations" ("patient_id")`);
    await queryRunner.query(`ALTER TABLE "medication_administrations" ADD CONSTRAINT "FK_48cca0414fb540617d40b4818e8" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`CREATE TABLE "tasks" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "code_system" text, "code" text, "display" text, "status" text NOT NULL, "intent" text, "status_reason_system" text, "status_reason_code" text, "reason_system" text, "reason_code" text, "focus" text, "based_on" jsonb, "authored_at" TIMESTAMP WITH TIME ZONE, "execution_start_at" TIMESTAMP WITH TIME ZONE, "execution_end_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_tasks_reason_system" CHECK ("reason_system" IS NULL OR "reason_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$'), CONSTRAINT "CHK_tasks_status_reason_system" CHECK ("status_reason_system" IS NULL OR "status_reason_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$'), CONSTRAINT "CHK_tasks_status" CHECK ("status" IN ('draft', 'requested', 'received', 'accepted', 'rejected', 'ready', 'cancelled', 'in-progress', 'on-hold', 'failed', 'completed', 'entered-in-error')), CONSTRAINT "CHK_tasks_code_system" CHECK ("code_system" IS NULL OR "code_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$'), CONSTRAINT "PK_8d12ff38fcc62aaba2cab748772" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_tasks_patient" ON "tasks" ("patient_id")`);
    await queryRunner.query(`ALTER TABLE "tasks" ADD CONSTRAINT "FK_a2a498dd0eeca44c5deac2aa927" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "encounters" ADD "diagnoses" jsonb`);
    await queryRunner.query(`ALTER TABLE "encounters" ADD "reason_references" jsonb`);
    await queryRunner.query(`ALTER TABLE "encounters" ADD "locations" jsonb`);
    await queryRunner.query(`ALTER TABLE "observations" ADD "panel_own_value" boolean NOT NULL DEFAULT false`);
    for (const table of TABLES) {
      for (const trigger of DATA_VERSION_TRIGGERS) {
        await queryRunner.query(`CREATE TRIGGER "TRG_${table}_data_version_${trigger.suffix}" AFTER ${trigger.event} ON "${table}"
          REFERENCING ${trigger.referencing} FOR EACH STATEMENT EXECUTE FUNCTION vigil_bump_patient_data_version()`);
      }
    }
    await queryRunner.query(`GRANT SELECT ON "medication_administrations", "tasks" TO vigil_reader`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`REVOKE SELECT ON "medication_administrations", "tasks" FROM vigil_reader`);
    for (const table of TABLES) {
      for (const trigger of DATA_VERSION_TRIGGERS) await queryRunner.query(`DROP TRIGGER "TRG_${table}_data_version_${trigger.suffix}" ON "${table}"`);
    }
    await queryRunner.query(`ALTER TABLE "observations" DROP COLUMN "panel_own_value"`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP COLUMN "locations"`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP COLUMN "reason_references"`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP COLUMN "diagnoses"`);
    await queryRunner.query(`ALTER TABLE "tasks" DROP CONSTRAINT "FK_a2a498dd0eeca44c5deac2aa927"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_tasks_patient"`);
    await queryRunner.query(`DROP TABLE "tasks"`);
    await queryRunner.query(`ALTER TABLE "medication_administrations" DROP CONSTRAINT "FK_48cca0414fb540617d40b4818e8"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_medication_administrations_patient"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_medication_administrations_code"`);
    await queryRunner.query(`DROP TABLE "medication_administrations"`);
  }
}
