import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored agent turns (`agent_turns`) and their tool calls with the envelopes the model read
 * (`agent_tool_calls`). Generated from src/agent/entities with TypeORM's schema builder, then
 * reviewed. Written by the service's own connection; no role beyond the owner needs them.
 */
export class AgentTurns1764500000000 implements MigrationInterface {
  name = 'AgentTurns1764500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "agent_turns" ("id" uuid NOT NULL, "patient_id" uuid NOT NULL, "clinician_id" uuid NOT NULL, "status" text NOT NULL, "question_hash" character(64) NOT NULL, "statements" jsonb NOT NULL DEFAULT '[]', "proposal_ids" uuid array NOT NULL DEFAULT '{}', "usage" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_agent_turns_status" CHECK ("status" IN ('running', 'answered', 'insufficient_data', 'refused', 'access_denied', 'conflict', 'failure')), CONSTRAINT "PK_369af5dedd35453821cb40414af" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_agent_turns_patient" ON "agent_turns" ("patient_id", "created_at")`);
    await queryRunner.query(`CREATE TABLE "agent_tool_calls" ("turn_id" uuid NOT NULL, "seq" integer NOT NULL, "tool" text NOT NULL, "arguments" jsonb, "status" text NOT NULL, "row_count" integer, "envelope" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c307fd0e20cf74fd54e793bcf01" PRIMARY KEY ("turn_id", "seq"))`);
    await queryRunner.query(`ALTER TABLE "agent_turns" ADD CONSTRAINT "FK_0b1abe9a10fdfcbd733ce43d06a" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "agent_turns" ADD CONSTRAINT "FK_a2e1aeb6902c8f0376f8586c42e" FOREIGN KEY ("clinician_id") REFERENCES "staff_users"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "agent_tool_calls" ADD CONSTRAINT "FK_46d3dc593a37b7ac7bada5e8d8b" FOREIGN KEY ("turn_id") REFERENCES "agent_turns"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_tool_calls" DROP CONSTRAINT "FK_46d3dc593a37b7ac7bada5e8d8b"`);
    await queryRunner.query(`ALTER TABLE "agent_turns" DROP CONSTRAINT "FK_a2e1aeb6902c8f0376f8586c42e"`);
    await queryRunner.query(`ALTER TABLE "agent_turns" DROP CONSTRAINT "FK_0b1abe9a10fdfcbd733ce43d06a"`);
    await queryRunner.query(`DROP TABLE "agent_tool_calls"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_agent_turns_patient"`);
    await queryRunner.query(`DROP TABLE "agent_turns"`);
  }
}
