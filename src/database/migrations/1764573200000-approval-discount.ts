import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A new decision kind, `discount`: an approval that no longer counts because its approver lost access
 * to the patient (deactivated, or no longer on any of the patient's care teams), recorded by the
 * change that took the access away. Appended to the log like a withdrawal (the log stays append-only;
 * the approval row is kept, and no longer counts toward the quorum).
 */
export class ApprovalDiscount1764573200000 implements MigrationInterface {
  name = 'ApprovalDiscount1764573200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "proposal_decisions" DROP CONSTRAINT "CHK_proposal_decisions_decision"`);
    await queryRunner.query(
      `ALTER TABLE "proposal_decisions" ADD CONSTRAINT "CHK_proposal_decisions_decision" CHECK ("decision" IN ('approve', 'reject', 'cancel', 'edit', 'withdraw', 'discount'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Refused (and rolled back) by Postgres while any discount is stored: history is never deleted to fit.
    await queryRunner.query(`ALTER TABLE "proposal_decisions" DROP CONSTRAINT "CHK_proposal_decisions_decision"`);
    await queryRunner.query(
      `ALTER TABLE "proposal_decisions" ADD CONSTRAINT "CHK_proposal_decisions_decision" CHECK ("decision" IN ('approve', 'reject', 'cancel', 'edit', 'withdraw'))`,
    );
  }
}
