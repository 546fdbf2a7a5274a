import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drafts (issue 12): what the agent files is the clinician's draft until they submit it. New
 * statuses `draft` and `discarded`; `submitted_at` (null while a draft was never submitted: such a
 * row is its author's alone); `identity_key`, the content identity of `proposal-policy.ts`, unique
 * among live proposals of a patient and kind; and the draft's own expiry job, `expire_draft`.
 * Proposals filed before this migration entered review at filing (`submitted_at` = `created_at`)
 * and have no identity (NULL never collides): they cannot be recomputed here without a second copy
 * of the rule, and they leave the live set within their deadline (14 days at most).
 */
export class ProposalDrafts1764540000000 implements MigrationInterface {
  name = 'ProposalDrafts1764540000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "proposals" ADD "identity_key" text`);
    await queryRunner.query(`ALTER TABLE "proposals" ADD "submitted_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`UPDATE "proposals" SET "submitted_at" = "created_at"`);
    await queryRunner.query(`ALTER TABLE "proposals" DROP CONSTRAINT "CHK_proposals_status"`);
    await queryRunner.query(
      `ALTER TABLE "proposals" ADD CONSTRAINT "CHK_proposals_status" CHECK ("status" IN ('draft', 'pending', 'approved', 'executing', 'executed', 'failed', 'rejected', 'expired', 'cancelled', 'discarded'))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_proposals_active_identity" ON "proposals" ("patient_id", "kind", "identity_key") WHERE "status" IN ('draft', 'pending', 'approved', 'executing')`,
    );
    await queryRunner.query(`ALTER TABLE "proposal_outbox" DROP CONSTRAINT "CHK_proposal_outbox_job"`);
    await queryRunner.query(`ALTER TABLE "proposal_outbox" ADD CONSTRAINT "CHK_proposal_outbox_job" CHECK ("job" IN ('execute', 'expire', 'expire_draft'))`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Refused (and rolled back) by Postgres while a draft, a discarded draft or a draft's job is stored.
    await queryRunner.query(`ALTER TABLE "proposal_outbox" DROP CONSTRAINT "CHK_proposal_outbox_job"`);
    await queryRunner.query(`ALTER TABLE "proposal_outbox" ADD CONSTRAINT "CHK_proposal_outbox_job" CHECK ("job" IN ('execute', 'expire'))`);
    await queryRunner.query(`DROP INDEX "public"."UQ_proposals_active_identity"`);
    await queryRunner.query(`ALTER TABLE "proposals" DROP CONSTRAINT "CHK_proposals_status"`);
    await queryRunner.query(
      `ALTER TABLE "proposals" ADD CONSTRAINT "CHK_proposals_status" CHECK ("status" IN ('pending', 'approved', 'executing', 'executed', 'failed', 'rejected', 'expired', 'cancelled'))`,
    );
    await queryRunner.query(`ALTER TABLE "proposals" DROP COLUMN "submitted_at"`);
    await queryRunner.query(`ALTER TABLE "proposals" DROP COLUMN "identity_key"`);
  }
}
