import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Audit events get the channel an access came through, a `break_glass` flag of their own (an
 * accepted emergency access, told apart from a refused attempt that also gave a reason), the
 * operating-system user of a command run on the server, and `hash_version`: events written from
 * now on are hashed over these columns too (version 2), while every older event keeps version 1 and
 * verifies as before. Staff users get a fifth role, `privacy_officer`. Adding columns rewrites no row, so the append-only triggers are not involved.
 */
export class AuditChannelBreakGlass1764530000000 implements MigrationInterface {
  name = 'AuditChannelBreakGlass1764530000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_events" ADD "channel" text`);
    await queryRunner.query(`ALTER TABLE "audit_events" ADD "break_glass" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "audit_events" ADD "actor_name" text`);
    await queryRunner.query(`ALTER TABLE "audit_events" ADD "hash_version" smallint NOT NULL DEFAULT '1'`);
    await queryRunner.query(
      `ALTER TABLE "audit_events" ADD CONSTRAINT "CHK_audit_events_channel" CHECK ("channel" IS NULL OR "channel" IN ('rest', 'agent', 'system', 'mcp', 'cli'))`,
    );
    await queryRunner.query(
      `ALTER TABLE "audit_events" ADD CONSTRAINT "CHK_audit_events_hash_version" CHECK ("hash_version" = 1 OR ("hash_version" = 2 AND "channel" IS NOT NULL))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_audit_events_break_glass" ON "audit_events" ("id") WHERE "break_glass"`);
    // A refused decision on a proposal that moved on (stale version, no longer pending) is its own outcome.
    await queryRunner.query(`ALTER TABLE "audit_events" DROP CONSTRAINT "CHK_audit_events_outcome"`);
    await queryRunner.query(
      `ALTER TABLE "audit_events" ADD CONSTRAINT "CHK_audit_events_outcome" CHECK ("outcome" IN ('success', 'empty', 'denied', 'not_found', 'unauthenticated', 'conflict', 'invalid', 'error'))`,
    );
    // The privacy officer: reads the break-glass report, and no patient data.
    await queryRunner.query(`ALTER TABLE "staff_users" DROP CONSTRAINT "CHK_staff_users_role"`);
    await queryRunner.query(
      `ALTER TABLE "staff_users" ADD CONSTRAINT "CHK_staff_users_role" CHECK ("role" IN ('clinician', 'care_coordinator', 'reviewer', 'analyst', 'privacy_officer'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_events" DROP CONSTRAINT "CHK_audit_events_outcome"`);
    await queryRunner.query(
      `ALTER TABLE "audit_events" ADD CONSTRAINT "CHK_audit_events_outcome" CHECK ("outcome" IN ('success', 'empty', 'denied', 'not_found', 'unauthenticated', 'invalid', 'error'))`,
    );
    await queryRunner.query(`ALTER TABLE "staff_users" DROP CONSTRAINT "CHK_staff_users_role"`);
    await queryRunner.query(
      `ALTER TABLE "staff_users" ADD CONSTRAINT "CHK_staff_users_role" CHECK ("role" IN ('clinician', 'care_coordinator', 'reviewer', 'analyst'))`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_events_break_glass"`);
    await queryRunner.query(`ALTER TABLE "audit_events" DROP CONSTRAINT "CHK_audit_events_hash_version"`);
    await queryRunner.query(`ALTER TABLE "audit_events" DROP CONSTRAINT "CHK_audit_events_channel"`);
    await queryRunner.query(`ALTER TABLE "audit_events" DROP COLUMN "hash_version"`);
    await queryRunner.query(`ALTER TABLE "audit_events" DROP COLUMN "actor_name"`);
    await queryRunner.query(`ALTER TABLE "audit_events" DROP COLUMN "break_glass"`);
    await queryRunner.query(`ALTER TABLE "audit_events" DROP COLUMN "channel"`);
  }
}
