import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Approved effects leave Vigil (docs/delivery.md): one row per applied proposal and destination
 * (the organisation's FHIR server, a signed webhook), written in the effect's own transaction. The
 * row is the delivery's outbox and its state: attempts, the in-flight attempt's lease, the next
 * attempt's time, the last failure's reason (a closed vocabulary) and the destination's answer.
 * Generated from the entity with TypeORM's schema builder, then reviewed.
 */
export class ProposalDeliveries1764578000000 implements MigrationInterface {
  name = 'ProposalDeliveries1764578000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "proposal_deliveries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "proposal_id" uuid NOT NULL, "destination" text NOT NULL, "version" integer NOT NULL, "content_hash" character(64) NOT NULL, "status" text NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "retried_from" integer NOT NULL DEFAULT '0', "enqueued_attempt" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "lease_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "last_http_status" integer, "resource_type" text, "resource_id" text, "resource_version" text, "provenance_id" text, "delivered_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_proposal_deliveries_reason" CHECK ("last_error" IS NULL OR "last_error" IN ('timeout', 'unreachable', 'server_error', 'auth_failed', 'forbidden', 'rejected', 'duplicate_identifier', 'patient_not_found', 'patient_ambiguous', 'invalid_response', 'not_configured', 'interrupted', 'internal')), CONSTRAINT "CHK_proposal_deliveries_status" CHECK ("status" IN ('pending', 'retrying', 'delivered', 'failed')), CONSTRAINT "CHK_proposal_deliveries_destination" CHECK ("destination" IN ('fhir', 'webhook')), CONSTRAINT "PK_234f148845b45a84409062f68dc" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_proposal_deliveries_failed" ON "proposal_deliveries" ("updated_at") WHERE "status" = 'failed'`);
    await queryRunner.query(`CREATE INDEX "IDX_proposal_deliveries_open" ON "proposal_deliveries" ("next_attempt_at") WHERE "status" IN ('pending', 'retrying')`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_proposal_deliveries_destination" ON "proposal_deliveries" ("proposal_id", "destination")`);
    await queryRunner.query(
      `ALTER TABLE "proposal_deliveries" ADD CONSTRAINT "FK_3554a0ba0fa0b149c675234575b" FOREIGN KEY ("proposal_id") REFERENCES "proposals"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "proposal_deliveries" DROP CONSTRAINT "FK_3554a0ba0fa0b149c675234575b"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_proposal_deliveries_destination"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_proposal_deliveries_open"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_proposal_deliveries_failed"`);
    await queryRunner.query(`DROP TABLE "proposal_deliveries"`);
  }
}
