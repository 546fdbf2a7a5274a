import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A reviewer may take back their approval while a proposal is still pending (issue 11): a new
 * decision kind, `withdraw`, appended to the log like every other decision (the log stays
 * append-only; an approval followed by its withdrawal no longer counts toward the quorum).
 */
export class ApprovalWithdrawal1764526000000 implements MigrationInterface {
  name = 'ApprovalWithdrawal1764526000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "proposal_decisions" DROP CONSTRAINT "CHK_proposal_decisions_decision"`);
    await queryRunner.query(`ALTER TABLE "proposal_decisions" ADD CONSTRAINT "CHK_proposal_decisions_decision" CHECK ("decision" IN ('approve', 'reject', 'cancel', 'edit', 'withdraw'))`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Refused (and rolled back) by Postgres while any withdrawal is stored: history is never deleted to fit.
    await queryRunner.query(`ALTER TABLE "proposal_decisions" DROP CONSTRAINT "CHK_proposal_decisions_decision"`);
    await queryRunner.query(`ALTER TABLE "proposal_decisions" ADD CONSTRAINT "CHK_proposal_decisions_decision" CHECK ("decision" IN ('approve', 'reject', 'cancel', 'edit'))`);
  }
}
