import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Audit events name whom an administrative change was about: the staff member and the care team, by
 * id (never by name), in columns of their own. Events written from now on are hashed over them too
 * (hash version 3); every older event keeps its version and verifies as before. A check keeps the
 * targets off events whose hash does not cover them, so the chain protects every target stored. The
 * application's role may insert the two columns, as it may the other content columns (migration
 * 1764550000000). Adding columns rewrites no row, so the append-only triggers are not involved.
 */
export class AuditEventTargets1764573100000 implements MigrationInterface {
  name = 'AuditEventTargets1764573100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_events" ADD "target_staff_id" uuid, ADD "target_care_team_id" uuid`);
    await queryRunner.query(`ALTER TABLE "audit_events" DROP CONSTRAINT "CHK_audit_events_hash_version"`);
    await queryRunner.query(
      `ALTER TABLE "audit_events" ADD CONSTRAINT "CHK_audit_events_hash_version" CHECK ("hash_version" = 1 OR ("hash_version" IN (2, 3) AND "channel" IS NOT NULL))`,
    );
    await queryRunner.query(
      `ALTER TABLE "audit_events" ADD CONSTRAINT "CHK_audit_events_targets_hashed" CHECK ("hash_version" >= 3 OR ("target_staff_id" IS NULL AND "target_care_team_id" IS NULL))`,
    );
    await queryRunner.query(`GRANT INSERT ("target_staff_id", "target_care_team_id") ON "audit_events" TO vigil_app`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // The hash-version check keeps admitting version 3: events written since `up` stay in the trail (no
    // row is ever deleted), `revert --all` included, which records its own event first. Without their
    // target columns they no longer verify: reverting past this migration is for a disposable trail.
    await queryRunner.query(`REVOKE INSERT ("target_staff_id", "target_care_team_id") ON "audit_events" FROM vigil_app`);
    await queryRunner.query(`ALTER TABLE "audit_events" DROP CONSTRAINT "CHK_audit_events_targets_hashed"`);
    await queryRunner.query(`ALTER TABLE "audit_events" DROP COLUMN "target_care_team_id", DROP COLUMN "target_staff_id"`);
  }
}
