import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * MCP sessions bound to a person rather than to one token, and sessions whose patient the person
 * chooses inside the session: `patient_id` may wait empty while a picker session (`picker`) has its
 * patient forms out (`patient_offers`, patient ids only), and never otherwise. `expires_at` now
 * moves with each request (an idle limit under an absolute one) instead of being the opening token's
 * expiry; live sessions keep theirs until their next request.
 */
export class McpSessionPerson1764575500000 implements MigrationInterface {
  name = 'McpSessionPerson1764575500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "mcp_sessions" ADD "picker" boolean NOT NULL DEFAULT false, ADD "patient_offers" jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "mcp_sessions" ALTER COLUMN "patient_id" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "mcp_sessions" ADD CONSTRAINT "CHK_mcp_sessions_patient" CHECK ("patient_id" IS NOT NULL OR "picker")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "mcp_sessions" WHERE "patient_id" IS NULL`);
    await queryRunner.query(`ALTER TABLE "mcp_sessions" DROP CONSTRAINT "CHK_mcp_sessions_patient"`);
    await queryRunner.query(`ALTER TABLE "mcp_sessions" ALTER COLUMN "patient_id" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "mcp_sessions" DROP COLUMN "patient_offers", DROP COLUMN "picker"`);
  }
}
