import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The per-clinician hourly turn limit counts a clinician's turns of the last hour before each new
 * turn: without this index that is a scan of every turn ever stored.
 */
export class AgentTurnsClinicianIndex1764510000000 implements MigrationInterface {
  name = 'AgentTurnsClinicianIndex1764510000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_agent_turns_clinician" ON "agent_turns" ("clinician_id", "created_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_agent_turns_clinician"`);
  }
}
