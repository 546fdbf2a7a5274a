import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail: `audit_events`, append-only and hash-chained (see src/audit). The table and its
 * indexes were generated from the `AuditEvent` entity with TypeORM's schema builder, then reviewed;
 * `schema-check` keeps the two in agreement. The triggers were written by hand (TypeORM does not
 * model triggers) and raise SQLSTATE `VA001`, a code of our own (class `VA`, "Vigil audit") so a
 * refused change can never be mistaken for any error Postgres itself raises. The code is spelled
 * out here rather than imported because a migration must not change when application code does;
 * `AUDIT_APPEND_ONLY_SQLSTATE` in src/audit/audit.sql.ts repeats it.
 */
export class AuditTrail1764460000000 implements MigrationInterface {
  name = 'AuditTrail1764460000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "audit_events" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "actor_id" uuid, "actor_role" text, "patient_id" uuid, "action" text NOT NULL, "fields" text array NOT NULL DEFAULT '{}', "row_count" integer NOT NULL DEFAULT '0', "outcome" text NOT NULL, "break_glass_reason" text, "correlation_id" text, "prev_hash" character(64) NOT NULL, "hash" character(64) NOT NULL, CONSTRAINT "UQ_audit_events_prev_hash" UNIQUE ("prev_hash"), CONSTRAINT "UQ_audit_events_hash" UNIQUE ("hash"), CONSTRAINT "CHK_audit_events_outcome" CHECK ("outcome" IN ('success', 'empty', 'denied', 'not_found', 'unauthenticated', 'invalid', 'error')), CONSTRAINT "PK_910f64d901a5c3e9878f0d4a407" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_audit_events_actor_occurred" ON "audit_events" ("actor_id", "occurred_at")`);
    await queryRunner.query(`CREATE INDEX "IDX_audit_events_patient_occurred" ON "audit_events" ("patient_id", "occurred_at")`);

    // One function for both triggers: it names the operation (TG_OP) and never a row's values.
    await queryRunner.query(`
      CREATE FUNCTION "audit_events_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP
          USING ERRCODE = 'VA001', HINT = 'Audit events can only be inserted, through AuditService.';
      END
      $$`);
    // A row trigger refuses UPDATE and DELETE; TRUNCATE fires no row triggers, so it needs its own.
    await queryRunner.query(
      `CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_change"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events" FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_refuse_change"()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "audit_events_no_truncate" ON "audit_events"`);
    await queryRunner.query(`DROP TRIGGER "audit_events_append_only" ON "audit_events"`);
    await queryRunner.query(`DROP FUNCTION "audit_events_refuse_change"()`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_events_patient_occurred"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_events_actor_occurred"`);
    await queryRunner.query(`DROP TABLE "audit_events"`);
  }
}
