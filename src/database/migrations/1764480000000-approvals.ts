import { MigrationInterface, QueryRunner } from 'typeorm';

const EFFECT_TABLES = ['care_gap_closures', 'lab_orders', 'care_notes', 'outreach_tasks'];

/**
 * The approval workflow: proposals with immutable versions, decisions, the transactional outbox,
 * and one effect table per kind whose `proposal_id` is UNIQUE (an effect exists at most once).
 * Generated from the entities with TypeORM's schema builder, then reviewed. Also `vigil_writer`:
 * the role executors switch to for the effect insert, with INSERT on the effect tables and SELECT on
 * the cohort, and nothing else.
 */
export class Approvals1764480000000 implements MigrationInterface {
  name = 'Approvals1764480000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "care_gap_closures" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "proposal_id" uuid NOT NULL, "patient_id" uuid NOT NULL, "content_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "measure_id" text NOT NULL, "evidence" text array NOT NULL, "remark_code" text, CONSTRAINT "PK_18e9ae24a968c046890ea0c05f4" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_care_gap_closures_patient" ON "care_gap_closures" ("patient_id", "measure_id")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_care_gap_closures_proposal" ON "care_gap_closures" ("proposal_id")`);
    await queryRunner.query(`CREATE TABLE "lab_orders" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "proposal_id" uuid NOT NULL, "patient_id" uuid NOT NULL, "content_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "loinc_code" text NOT NULL, "priority" text NOT NULL, "reason" text NOT NULL, CONSTRAINT "PK_a488d533e758e6ba02958198f1c" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_lab_orders_patient_code" ON "lab_orders" ("patient_id", "loinc_code", "created_at")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_lab_orders_proposal" ON "lab_orders" ("proposal_id")`);
    await queryRunner.query(`CREATE TABLE "care_notes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "proposal_id" uuid NOT NULL, "patient_id" uuid NOT NULL, "content_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "note_type" text NOT NULL, "text" text NOT NULL, CONSTRAINT "PK_af8568174974a184d537c847cd1" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_care_notes_patient" ON "care_notes" ("patient_id")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_care_notes_proposal" ON "care_notes" ("proposal_id")`);
    await queryRunner.query(`CREATE TABLE "outreach_tasks" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "proposal_id" uuid NOT NULL, "patient_id" uuid NOT NULL, "content_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "channel" text NOT NULL, "due_date" date NOT NULL, "reason" text NOT NULL, CONSTRAINT "PK_cf6b7bd2ad528861170f64fc37b" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_outreach_tasks_patient" ON "outreach_tasks" ("patient_id", "due_date")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_outreach_tasks_proposal" ON "outreach_tasks" ("proposal_id")`);
    await queryRunner.query(`CREATE TABLE "proposal_outbox" ("id" BIGSERIAL NOT NULL, "proposal_id" uuid NOT NULL, "job" text NOT NULL, "run_at" TIMESTAMP WITH TIME ZONE NOT NULL, "relayed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_proposal_outbox_job" CHECK ("job" IN ('execute', 'expire')), CONSTRAINT "PK_317180d169d4755d5f6af7010a7" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_proposal_outbox_job" ON "proposal_outbox" ("proposal_id", "job")`);
    await queryRunner.query(`CREATE INDEX "IDX_proposal_outbox_pending" ON "proposal_outbox" ("relayed_at", "id")`);
    await queryRunner.query(`CREATE TABLE "proposals" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "patient_id" uuid NOT NULL, "kind" text NOT NULL, "status" text NOT NULL, "proposer_id" uuid NOT NULL, "proposer_role" text NOT NULL, "agent_turn_id" text, "current_version" integer NOT NULL, "required_approvals" integer NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "outcome" text, "failure_kind" text, "execution_attempts" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_proposals_required_approvals" CHECK ("required_approvals" BETWEEN 1 AND 3), CONSTRAINT "CHK_proposals_outcome" CHECK ("outcome" IS NULL OR "outcome" IN ('applied', 'superseded')), CONSTRAINT "CHK_proposals_status" CHECK ("status" IN ('pending', 'approved', 'executing', 'executed', 'failed', 'rejected', 'expired', 'cancelled')), CONSTRAINT "CHK_proposals_kind" CHECK ("kind" IN ('close_care_gap', 'order_lab', 'add_care_note', 'schedule_outreach')), CONSTRAINT "PK_db524c8db8e126a38a2f16d8cac" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_proposals_expires" ON "proposals" ("expires_at")`);
    await queryRunner.query(`CREATE INDEX "IDX_proposals_patient" ON "proposals" ("patient_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_proposals_status_created" ON "proposals" ("status", "created_at")`);
    await queryRunner.query(`CREATE TABLE "proposal_decisions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "proposal_id" uuid NOT NULL, "version" integer NOT NULL, "decision" text NOT NULL, "actor_id" uuid NOT NULL, "actor_role" text NOT NULL, "reason" text, "content_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_proposal_decisions_decision" CHECK ("decision" IN ('approve', 'reject', 'cancel', 'edit')), CONSTRAINT "PK_c5674ea58f67179ed4ad1f3a836" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_proposal_decisions_one_approval_per_person" ON "proposal_decisions" ("proposal_id", "version", "actor_id") WHERE "decision" = 'approve'`);
    await queryRunner.query(`CREATE INDEX "IDX_proposal_decisions_proposal" ON "proposal_decisions" ("proposal_id", "version")`);
    await queryRunner.query(`CREATE TABLE "proposal_versions" ("proposal_id" uuid NOT NULL, "version" integer NOT NULL, "content" jsonb NOT NULL, "rationale" text NOT NULL, "citations" text array NOT NULL, "content_hash" character(64) NOT NULL, "created_by" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f1ae1e36d8140e0dc9799f2aeb9" PRIMARY KEY ("proposal_id", "version"))`);
    await queryRunner.query(`ALTER TABLE "proposals" ADD CONSTRAINT "FK_6d5c422670df928a0825680f7bd" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "proposals" ADD CONSTRAINT "FK_b173a92ee6a3b6eb4954aea5185" FOREIGN KEY ("proposer_id") REFERENCES "staff_users"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "proposal_decisions" ADD CONSTRAINT "FK_e0ddb27d723c15fbe4dae6b5c72" FOREIGN KEY ("proposal_id") REFERENCES "proposals"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "proposal_versions" ADD CONSTRAINT "FK_c6bcca84e48eebbe830bff776fa" FOREIGN KEY ("proposal_id") REFERENCES "proposals"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    // What was proposed and who decided are history: versions and decisions are append-only.
    await queryRunner.query(`CREATE FUNCTION vigil_refuse_proposal_history_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'proposal versions and decisions are append-only' USING ERRCODE = 'VA002'; END $$`);
    for (const table of ['proposal_versions', 'proposal_decisions']) {
      await queryRunner.query(`CREATE TRIGGER "TRG_${table}_append_only" BEFORE UPDATE OR DELETE ON "${table}"
        FOR EACH ROW EXECUTE FUNCTION vigil_refuse_proposal_history_change()`);
    }
    await queryRunner.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vigil_writer') THEN
        CREATE ROLE vigil_writer NOLOGIN NOINHERIT;
      END IF;
      IF NOT pg_has_role(current_user, 'vigil_writer', 'MEMBER') THEN
        EXECUTE format('GRANT vigil_writer TO %I', current_user);
      END IF;
    END $$`);
    await queryRunner.query(`GRANT USAGE ON SCHEMA public TO vigil_writer`);
    await queryRunner.query(`GRANT SELECT, INSERT ON ${EFFECT_TABLES.map((table) => `"${table}"`).join(', ')} TO vigil_writer`);
    await queryRunner.query(`GRANT SELECT ON "patients", "observations", "lab_orders", "care_gap_closures" TO vigil_writer`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`REVOKE ALL ON ${EFFECT_TABLES.map((table) => `"${table}"`).join(', ')} FROM vigil_writer`);
    await queryRunner.query(`REVOKE ALL ON "patients", "observations" FROM vigil_writer`);
    await queryRunner.query(`REVOKE USAGE ON SCHEMA public FROM vigil_writer`);
    for (const table of ['proposal_versions', 'proposal_decisions']) {
      await queryRunner.query(`DROP TRIGGER "TRG_${table}_append_only" ON "${table}"`);
    }
    await queryRunner.query(`DROP FUNCTION vigil_refuse_proposal_history_change()`);
    await queryRunner.query(`ALTER TABLE "proposal_versions" DROP CONSTRAINT "FK_c6bcca84e48eebbe830bff776fa"`);
    await queryRunner.query(`ALTER TABLE "proposal_decisions" DROP CONSTRAINT "FK_e0ddb27d723c15fbe4dae6b5c72"`);
    await queryRunner.query(`ALTER TABLE "proposals" DROP CONSTRAINT "FK_b173a92ee6a3b6eb4954aea5185"`);
    await queryRunner.query(`ALTER TABLE "proposals" DROP CONSTRAINT "FK_6d5c422670df928a0825680f7bd"`);
    await queryRunner.query(`DROP TABLE "proposal_versions"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_proposal_decisions_proposal"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_proposal_decisions_one_approval_per_person"`);
    await queryRunner.query(`DROP TABLE "proposal_decisions"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_proposals_status_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_proposals_patient"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_proposals_expires"`);
    await queryRunner.query(`DROP TABLE "proposals"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_proposal_outbox_pending"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_proposal_outbox_job"`);
    await queryRunner.query(`DROP TABLE "proposal_outbox"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_outreach_tasks_proposal"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_outreach_tasks_patient"`);
    await queryRunner.query(`DROP TABLE "outreach_tasks"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_care_notes_proposal"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_care_notes_patient"`);
    await queryRunner.query(`DROP TABLE "care_notes"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_lab_orders_proposal"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_lab_orders_patient_code"`);
    await queryRunner.query(`DROP TABLE "lab_orders"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_care_gap_closures_proposal"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_care_gap_closures_patient"`);
    await queryRunner.query(`DROP TABLE "care_gap_closures"`);
  }
}
