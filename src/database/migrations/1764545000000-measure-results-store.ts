import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tables whose rows a stored measure result depends on: every table the chart reads, and the executor's effects. */
export const VERSIONED_TABLES = [
  'encounters',
  'observations',
  'conditions',
  'medications',
  'procedures',
  'allergies',
  'clinical_requests',
  'adverse_events',
  'care_gap_closures',
  'lab_orders',
  'care_notes',
  'outreach_tasks',
];

/** The three statement-level triggers of one table (transition tables allow one event per trigger). */
const TRIGGERS = [
  { event: 'INSERT', suffix: 'ins', referencing: 'NEW TABLE AS new_rows' },
  { event: 'UPDATE', suffix: 'upd', referencing: 'OLD TABLE AS old_rows NEW TABLE AS new_rows' },
  { event: 'DELETE', suffix: 'del', referencing: 'OLD TABLE AS old_rows' },
];

/**
 * The measure-results store (issue 14): `measure_results` (one row per patient, measure and
 * period, with the data version it saw), the recompute runs and their chunks, and
 * `patients.data_version`, which triggers change in the same transaction as any change to the
 * patient's row, to any row the measures read, or to an executed proposal's effect. Staleness is
 * then plain SQL: `measure_results.data_version <> patients.data_version`.
 *
 * Why one version per writing transaction (`vigil_data_version()`), not per row: a bulk load (the
 * generator's COPY of millions of observations, an import batch) bumps each patient once, and the
 * triggers skip patients already at the transaction's version, so a load costs one pass over its
 * new rows rather than one patient update per row. Versions come from a sequence, so a value never
 * repeats; two concurrent transactions may commit out of order, so versions are compared for
 * equality only.
 *
 * Statement-level triggers with transition tables: one UPDATE of `patients` per statement, whatever
 * its row count. The functions are SECURITY DEFINER (owner: the migrating role) because the
 * executor inserts effects as `vigil_writer`, which may not update patients itself.
 */
export class MeasureResultsStore1764545000000 implements MigrationInterface {
  name = 'MeasureResultsStore1764545000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SEQUENCE "patient_data_version_seq" AS bigint`);
    // The transaction's version: drawn from the sequence once, kept in a transaction-local setting.
    await queryRunner.query(`CREATE FUNCTION vigil_data_version() RETURNS bigint LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
      DECLARE drawn text := current_setting('vigil.data_version', true);
      BEGIN
        IF drawn IS NULL OR drawn = '' THEN
          drawn := nextval('patient_data_version_seq')::text;
          PERFORM set_config('vigil.data_version', drawn, true);
        END IF;
        RETURN drawn::bigint;
      END $$`);
    await queryRunner.query(`ALTER TABLE "patients" ADD "data_version" bigint NOT NULL DEFAULT vigil_data_version()`);
    // Any change to the patient's own row (demographics, death) is a change to its data.
    await queryRunner.query(`CREATE FUNCTION vigil_patient_row_version() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
      BEGIN NEW.data_version := vigil_data_version(); RETURN NEW; END $$`);
    await queryRunner.query(`CREATE TRIGGER "TRG_patients_data_version" BEFORE UPDATE ON "patients"
      FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION vigil_patient_row_version()`);
    await queryRunner.query(`CREATE FUNCTION vigil_bump_patient_data_version() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
      DECLARE txn_version bigint := vigil_data_version();
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE patients p SET data_version = txn_version FROM (SELECT DISTINCT patient_id FROM new_rows) c
           WHERE p.id = c.patient_id AND p.data_version <> txn_version;
        ELSIF TG_OP = 'UPDATE' THEN
          UPDATE patients p SET data_version = txn_version FROM (SELECT patient_id FROM new_rows UNION SELECT patient_id FROM old_rows) c
           WHERE p.id = c.patient_id AND p.data_version <> txn_version;
        ELSE
          UPDATE patients p SET data_version = txn_version FROM (SELECT DISTINCT patient_id FROM old_rows) c
           WHERE p.id = c.patient_id AND p.data_version <> txn_version;
        END IF;
        RETURN NULL;
      END $$`);
    for (const table of VERSIONED_TABLES) {
      for (const trigger of TRIGGERS) {
        await queryRunner.query(`CREATE TRIGGER "TRG_${table}_data_version_${trigger.suffix}" AFTER ${trigger.event} ON "${table}"
          REFERENCING ${trigger.referencing} FOR EACH STATEMENT EXECUTE FUNCTION vigil_bump_patient_data_version()`);
      }
    }

    await queryRunner.query(`CREATE TABLE "measure_results" ("patient_id" uuid NOT NULL, "measure_id" text NOT NULL, "period_start" date NOT NULL, "period_end" date NOT NULL, "status" text NOT NULL, "reason_code" text NOT NULL, "reason" text NOT NULL, "populations" jsonb NOT NULL, "evidence" jsonb NOT NULL, "to_close" text NOT NULL, "data_quality" jsonb NOT NULL, "partial" boolean NOT NULL DEFAULT false, "data_version" bigint NOT NULL, "run_id" bigint NOT NULL, "computed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "CHK_measure_results_status" CHECK ("status" IN ('open-gap', 'closed-gap', 'not-applicable')), CONSTRAINT "PK_4a2e93d5b75456c0a8a7f2f2193" PRIMARY KEY ("patient_id", "measure_id", "period_start", "period_end"))`);
    await queryRunner.query(`CREATE INDEX "IDX_measure_results_reason" ON "measure_results" ("period_end", "period_start", "reason_code", "patient_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_measure_results_worklist" ON "measure_results" ("period_end", "period_start", "measure_id", "status", "patient_id")`);
    await queryRunner.query(`CREATE TABLE "measure_runs" ("id" BIGSERIAL NOT NULL, "reason" text NOT NULL, "period_start" date NOT NULL, "period_end" date NOT NULL, "force" boolean NOT NULL DEFAULT false, "patient_ids" uuid array, "chunk_size" integer NOT NULL, "chunks" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "planned_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_measure_runs_chunk_size" CHECK ("chunk_size" BETWEEN 1 AND 10000), CONSTRAINT "CHK_measure_runs_reason" CHECK ("reason" IN ('period', 'stale', 'import', 'proposal', 'on-demand')), CONSTRAINT "PK_541b64bdbdf40459c743f9998bb" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_measure_runs_unfinished" ON "measure_runs" ("id") WHERE "finished_at" IS NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_measure_runs_unplanned" ON "measure_runs" ("id") WHERE "planned_at" IS NULL`);
    // One rollover run per period, however many processes notice the new day at once.
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_measure_runs_period" ON "measure_runs" ("period_start", "period_end") WHERE "reason" = 'period'`);
    await queryRunner.query(`CREATE TABLE "measure_run_chunks" ("run_id" bigint NOT NULL, "chunk_no" integer NOT NULL, "after_id" uuid, "through_id" uuid, "computed" integer, "skipped" integer, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_70e18ff0fe149708568cfb7e792" PRIMARY KEY ("run_id", "chunk_no"))`);
    await queryRunner.query(`ALTER TABLE "measure_results" ADD CONSTRAINT "FK_bb12661541b802866e536aee13f" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "measure_run_chunks" ADD CONSTRAINT "FK_9b6b7fe0616fb88c40469f36947" FOREIGN KEY ("run_id") REFERENCES "measure_runs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    // A care team's patients in id order: the keyset order of worklists over stored results.
    await queryRunner.query(`DROP INDEX "public"."IDX_patient_care_teams_care_team"`);
    await queryRunner.query(`CREATE INDEX "IDX_patient_care_teams_care_team" ON "patient_care_teams" ("care_team_id", "patient_id")`);

    // Readers (worklists, search, counts) read stored results, and which period is complete, in
    // vigil_reader's READ ONLY sessions; the recompute workers write results as vigil_writer. Runs
    // and chunks are bookkeeping (ids, periods, counts), written as the service's own role.
    await queryRunner.query(`GRANT SELECT ON "measure_results", "measure_runs" TO vigil_reader`);
    await queryRunner.query(`GRANT SELECT, INSERT, UPDATE ON "measure_results" TO vigil_writer`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`REVOKE ALL ON "measure_results" FROM vigil_writer`);
    await queryRunner.query(`REVOKE ALL ON "measure_results", "measure_runs" FROM vigil_reader`);
    await queryRunner.query(`DROP INDEX "public"."IDX_patient_care_teams_care_team"`);
    await queryRunner.query(`CREATE INDEX "IDX_patient_care_teams_care_team" ON "patient_care_teams" ("care_team_id")`);
    await queryRunner.query(`ALTER TABLE "measure_run_chunks" DROP CONSTRAINT "FK_9b6b7fe0616fb88c40469f36947"`);
    await queryRunner.query(`ALTER TABLE "measure_results" DROP CONSTRAINT "FK_bb12661541b802866e536aee13f"`);
    await queryRunner.query(`DROP TABLE "measure_run_chunks"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_measure_runs_period"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_measure_runs_unplanned"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_measure_runs_unfinished"`);
    await queryRunner.query(`DROP TABLE "measure_runs"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_measure_results_worklist"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_measure_results_reason"`);
    await queryRunner.query(`DROP TABLE "measure_results"`);
    for (const table of VERSIONED_TABLES) {
      for (const trigger of TRIGGERS) await queryRunner.query(`DROP TRIGGER "TRG_${table}_data_version_${trigger.suffix}" ON "${table}"`);
    }
    await queryRunner.query(`DROP FUNCTION vigil_bump_patient_data_version()`);
    await queryRunner.query(`DROP TRIGGER "TRG_patients_data_version" ON "patients"`);
    await queryRunner.query(`DROP FUNCTION vigil_patient_row_version()`);
    await queryRunner.query(`ALTER TABLE "patients" DROP COLUMN "data_version"`);
    await queryRunner.query(`DROP FUNCTION vigil_data_version()`);
    await queryRunner.query(`DROP SEQUENCE "patient_data_version_seq"`);
  }
}
