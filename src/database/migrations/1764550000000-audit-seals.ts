import { MigrationInterface, QueryRunner } from 'typeorm';

/** What the application may write into `audit_events`: the event's content, never its chain columns. */
const EVENT_INSERT_COLUMNS = [
  'occurred_at',
  'actor_id',
  'actor_role',
  'patient_id',
  'action',
  'fields',
  'row_count',
  'outcome',
  'break_glass_reason',
  'correlation_id',
  'hash_version',
  'channel',
  'break_glass',
  'actor_name',
];
const quoted = (names: string[]) => names.map((name) => `"${name}"`).join(', ');

/**
 * The audit chain moves off the request path (issue 15). Events are inserted without a lock and
 * without links; `audit_seals` holds the links, written by the one sealer in (xact_id, id) order.
 *
 * - `audit_events.xact_id`: the inserting transaction (`pg_current_xact_id()`), which is what lets the
 *   sealer know an event can no longer be overtaken by one committed later (see audit-sealer.ts).
 *   Existing rows get 0, so they keep their id order at the head of the chain.
 * - `prev_hash`/`hash` become nullable: only the events chained inline before today carry them.
 *   Those links are copied into `audit_seals` as the chain's prefix (seq = their id order), so every
 *   existing event verifies as before. No row of `audit_events` is updated (the triggers would refuse).
 * - `audit_seals` is append-only like the events (its own trigger function, same SQLSTATE `VA001`).
 * - `vigil_app`: the application's role. It owns nothing; on `audit_events` it may only INSERT (the
 *   content columns) and SELECT, on `audit_seals` INSERT and SELECT, and read and write the other
 *   tables. The migrating role keeps ownership of every table (it alone can switch triggers off).
 *   As with `vigil_reader`, `up` creates the role only if it is missing and `down` revokes this
 *   database's grants but leaves the role, which belongs to the whole server.
 */
export class AuditSeals1764550000000 implements MigrationInterface {
  name = 'AuditSeals1764550000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // xid8 as bigint (TypeORM has no xid8 type; a 64-bit transaction id fits), behind a function so
    // the column default reads the same in the entity and in the catalogue.
    await queryRunner.query(
      `CREATE FUNCTION "audit_xact_id"() RETURNS bigint LANGUAGE sql VOLATILE PARALLEL RESTRICTED AS $$ SELECT pg_current_xact_id()::text::bigint $$`,
    );
    await queryRunner.query(`ALTER TABLE "audit_events" ADD "xact_id" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "audit_events" ALTER COLUMN "xact_id" SET DEFAULT audit_xact_id()`);
    await queryRunner.query(`ALTER TABLE "audit_events" ALTER COLUMN "prev_hash" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "audit_events" ALTER COLUMN "hash" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "audit_events" ADD CONSTRAINT "CHK_audit_events_inline_link" CHECK (("prev_hash" IS NULL) = ("hash" IS NULL))`);
    await queryRunner.query(`CREATE INDEX "IDX_audit_events_xact_id_id" ON "audit_events" ("xact_id", "id")`);
    await queryRunner.query(
      `CREATE TABLE "audit_seals" ("seq" bigint NOT NULL, "event_id" bigint NOT NULL, "prev_hash" character(64) NOT NULL, "hash" character(64) NOT NULL, "sealed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_audit_seals_hash" UNIQUE ("hash"), CONSTRAINT "UQ_audit_seals_prev_hash" UNIQUE ("prev_hash"), CONSTRAINT "UQ_audit_seals_event_id" UNIQUE ("event_id"), CONSTRAINT "CHK_audit_seals_seq" CHECK ("seq" >= 1), CONSTRAINT "PK_audit_seals" PRIMARY KEY ("seq"))`,
    );
    // The inline-chained events are the chain's prefix, in the order they were chained.
    await queryRunner.query(
      `INSERT INTO "audit_seals" ("seq", "event_id", "prev_hash", "hash") SELECT row_number() OVER (ORDER BY "id"), "id", "prev_hash", "hash" FROM "audit_events" ORDER BY "id"`,
    );
    await queryRunner.query(`
      CREATE FUNCTION "audit_seals_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_seals is append-only: % refused', TG_OP
          USING ERRCODE = 'VA001', HINT = 'Seals are only inserted, by the audit sealer.';
      END
      $$`);
    await queryRunner.query(
      `CREATE TRIGGER "audit_seals_append_only" BEFORE UPDATE OR DELETE ON "audit_seals" FOR EACH ROW EXECUTE FUNCTION "audit_seals_refuse_change"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "audit_seals_no_truncate" BEFORE TRUNCATE ON "audit_seals" FOR EACH STATEMENT EXECUTE FUNCTION "audit_seals_refuse_change"()`,
    );

    await queryRunner.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vigil_app') THEN
        CREATE ROLE vigil_app NOLOGIN;
      END IF;
    END $$`);
    // Tool reads switch to vigil_reader, executed effects to vigil_writer (SET LOCAL ROLE): the
    // application's role must be a member of both.
    await queryRunner.query(`GRANT vigil_reader, vigil_writer TO vigil_app`);
    await queryRunner.query(`GRANT USAGE ON SCHEMA public TO vigil_app`);
    await queryRunner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO vigil_app`);
    await queryRunner.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO vigil_app`);
    // Tables later migrations create get the same grants; one that must be narrower revokes, as below.
    await queryRunner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO vigil_app`);
    await queryRunner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO vigil_app`);
    await queryRunner.query(`REVOKE ALL ON "audit_events", "audit_seals", "schema_migrations" FROM vigil_app`);
    await queryRunner.query(`GRANT SELECT ON "audit_events", "audit_seals", "schema_migrations" TO vigil_app`);
    await queryRunner.query(`GRANT INSERT (${quoted(EVENT_INSERT_COLUMNS)}) ON "audit_events" TO vigil_app`);
    await queryRunner.query(`GRANT INSERT ON "audit_seals" TO vigil_app`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE USAGE, SELECT ON SEQUENCES FROM vigil_app`);
    await queryRunner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE SELECT, INSERT, UPDATE, DELETE ON TABLES FROM vigil_app`);
    await queryRunner.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM vigil_app`);
    await queryRunner.query(`REVOKE ALL ON ALL TABLES IN SCHEMA public FROM vigil_app`);
    await queryRunner.query(`REVOKE USAGE ON SCHEMA public FROM vigil_app`);
    await queryRunner.query(`DROP TRIGGER "audit_seals_no_truncate" ON "audit_seals"`);
    await queryRunner.query(`DROP TRIGGER "audit_seals_append_only" ON "audit_seals"`);
    await queryRunner.query(`DROP FUNCTION "audit_seals_refuse_change"()`);
    await queryRunner.query(`DROP TABLE "audit_seals"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_events_xact_id_id"`);
    await queryRunner.query(`ALTER TABLE "audit_events" DROP CONSTRAINT "CHK_audit_events_inline_link"`);
    // prev_hash and hash stay nullable: events written since `up` have no inline links (theirs were in
    // audit_seals), and NOT NULL would make the revert fail, `revert --all` included, which records
    // its own event first. Reverting past this migration loses those links: it is for a disposable trail.
    await queryRunner.query(`ALTER TABLE "audit_events" DROP COLUMN "xact_id"`);
    await queryRunner.query(`DROP FUNCTION "audit_xact_id"()`);
  }
}
