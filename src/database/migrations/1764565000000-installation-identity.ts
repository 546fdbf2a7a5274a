import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `vigil_installation`: one row, a random id made once per database. With the server's system
 * identifier and the database's oid it names the audit trail a checkpoint seals (see
 * src/audit/audit-trail-identity.ts), so a checkpoint of another database is told apart from a
 * tampered trail. Append-only like the audit tables (same SQLSTATE `VA001`): replacing the id
 * would hide this database's checkpoints from `audit-verify`. `vigil_app` may only read it.
 */
export class InstallationIdentity1764565000000 implements MigrationInterface {
  name = 'InstallationIdentity1764565000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "vigil_installation" ("one_row" boolean NOT NULL DEFAULT true, "id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_vigil_installation_one_row" CHECK ("one_row"), CONSTRAINT "PK_vigil_installation" PRIMARY KEY ("one_row"))`,
    );
    await queryRunner.query(`INSERT INTO "vigil_installation" DEFAULT VALUES`);
    await queryRunner.query(`
      CREATE FUNCTION "vigil_installation_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'vigil_installation is written once: % refused', TG_OP
          USING ERRCODE = 'VA001', HINT = 'The installation id names this database''s audit trail.';
      END
      $$`);
    await queryRunner.query(
      `CREATE TRIGGER "vigil_installation_write_once" BEFORE UPDATE OR DELETE ON "vigil_installation" FOR EACH ROW EXECUTE FUNCTION "vigil_installation_refuse_change"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "vigil_installation_no_truncate" BEFORE TRUNCATE ON "vigil_installation" FOR EACH STATEMENT EXECUTE FUNCTION "vigil_installation_refuse_change"()`,
    );
    // The default privileges of migration 1764550000000 granted vigil_app writes: reading is all it needs.
    await queryRunner.query(`REVOKE ALL ON "vigil_installation" FROM vigil_app`);
    await queryRunner.query(`GRANT SELECT ON "vigil_installation" TO vigil_app`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "vigil_installation_no_truncate" ON "vigil_installation"`);
    await queryRunner.query(`DROP TRIGGER "vigil_installation_write_once" ON "vigil_installation"`);
    await queryRunner.query(`DROP FUNCTION "vigil_installation_refuse_change"()`);
    await queryRunner.query(`DROP TABLE "vigil_installation"`);
  }
}
