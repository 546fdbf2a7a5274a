import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * MCP sessions (`mcp_sessions`), shared by every API process: a request may land on any of them,
 * and each serves it from this row. Generated from src/mcp/entities with TypeORM's schema builder,
 * then reviewed. Written by the service's own connection; no role beyond the owner needs it. Rows
 * die with their user or patient, and expired rows are deleted whenever a session opens.
 */
export class McpSessions1764562000000 implements MigrationInterface {
  name = 'McpSessions1764562000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "mcp_sessions" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "patient_id" uuid NOT NULL, "break_glass_reason" text, "protocol_version" text NOT NULL, "tools" text array NOT NULL, "calls" integer NOT NULL DEFAULT '0', "calls_per_tool" jsonb NOT NULL DEFAULT '{}', "failed_calls" text array NOT NULL DEFAULT '{}', "citable" text array NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_dfd42125c0902bdeaf7c00bcae4" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_mcp_sessions_expires" ON "mcp_sessions" ("expires_at")`);
    await queryRunner.query(`CREATE INDEX "IDX_mcp_sessions_user" ON "mcp_sessions" ("user_id", "created_at")`);
    await queryRunner.query(`ALTER TABLE "mcp_sessions" ADD CONSTRAINT "FK_082b3a3c743e00398870c8a036f" FOREIGN KEY ("user_id") REFERENCES "staff_users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "mcp_sessions" ADD CONSTRAINT "FK_19c14ad653cbf29d0c00fcd8724" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "mcp_sessions" DROP CONSTRAINT "FK_19c14ad653cbf29d0c00fcd8724"`);
    await queryRunner.query(`ALTER TABLE "mcp_sessions" DROP CONSTRAINT "FK_082b3a3c743e00398870c8a036f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_mcp_sessions_user"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_mcp_sessions_expires"`);
    await queryRunner.query(`DROP TABLE "mcp_sessions"`);
  }
}
