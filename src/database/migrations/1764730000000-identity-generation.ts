import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables a request's identity is read from (`staffUserBy…`: the staff row, its memberships, their teams' codes). */
const IDENTITY_TABLES = ['staff_users', 'care_team_members', 'care_teams'];

/**
 * The identity generation: a counter every change to a request's identity moves, and a
 * notification of it. Each API process caches the staff identities it has read (`IdentityCache`)
 * and must never answer from one older than a change committed before the request's read:
 * - a statement-level trigger on each identity table adds one to `identity_generation` in the
 *   changing transaction and sends `pg_notify('vigil_identity_changed', <generation>)`, which
 *   Postgres delivers at commit (never for a rollback); each process empties its cache on it;
 * - every read that may answer from the cache reads the generation in its opening round trip, and
 *   answers from the cache only when the process has heard exactly that generation; a change whose
 *   notification is still on its way makes the read look the identity up itself.
 * The one row serialises changes to these tables (rare: the admin command and the directory import).
 * The SQL is literal so this migration means the same thing forever.
 */
export class IdentityGeneration1764730000000 implements MigrationInterface {
  name = 'IdentityGeneration1764730000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "identity_generation" ("singleton" boolean PRIMARY KEY DEFAULT true CHECK ("singleton"), "generation" bigint NOT NULL)`);
    await queryRunner.query(`INSERT INTO "identity_generation" ("singleton", "generation") VALUES (true, 0)`);
    await queryRunner.query(`GRANT SELECT ON "identity_generation" TO vigil_reader`);
    await queryRunner.query(`CREATE FUNCTION identity_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next bigint;
BEGIN
  UPDATE identity_generation SET generation = generation + 1 RETURNING generation INTO next;
  PERFORM pg_notify('vigil_identity_changed', next::text);
  RETURN NULL;
END
$$`);
    for (const table of IDENTITY_TABLES) {
      await queryRunner.query(`CREATE TRIGGER "${table}_identity_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION identity_changed()`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of IDENTITY_TABLES) await queryRunner.query(`DROP TRIGGER "${table}_identity_changed" ON "${table}"`);
    await queryRunner.query(`DROP FUNCTION identity_changed()`);
    await queryRunner.query(`DROP TABLE "identity_generation"`);
  }
}
