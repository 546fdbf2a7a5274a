import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables of loaded measures: written only by the `measures-load` command, never changed after. */
const CONTENT_TABLES = ['measure_packages', 'measure_libraries', 'measure_package_libraries', 'value_set_expansions', 'value_set_codes', 'measure_package_value_sets'];
const quoted = CONTENT_TABLES.map((table) => `"${table}"`).join(', ');

/**
 * Measures as data (`src/measure-packages`): each published measure with the include closure of its
 * ELM and the value-set expansions that ELM names, several editions side by side (unique on
 * canonical url and version). Libraries and expansions are shared between measures and identified by
 * their content. Generated from src/measure-packages/entities with TypeORM's schema builder, then
 * reviewed; added by hand:
 *
 * - A loaded row never changes: a trigger refuses UPDATE on every one of these tables (SQLSTATE
 *   `VM001`). A changed measure is a new version; the loader refuses other content under a loaded one.
 * - `vigil_app` (the service) reads them only: the loader runs as the tables' owner, like every
 *   operator command (the default privileges would have given the service INSERT, UPDATE, DELETE).
 */
export class MeasurePackages1764641873000 implements MigrationInterface {
  name = 'MeasurePackages1764641873000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "measure_libraries" ("id" SERIAL NOT NULL, "name" text NOT NULL, "version" text NOT NULL, "url" text, "content_hash" character(64) NOT NULL, "elm" jsonb NOT NULL, "cql" text, "loaded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d536b5ce2588ae0ba7f603105a8" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_measure_libraries_name_version" ON "measure_libraries" ("name", "version")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_measure_libraries_content_hash" ON "measure_libraries" ("content_hash")`);
    await queryRunner.query(`CREATE TABLE "value_set_expansions" ("id" SERIAL NOT NULL, "url" text NOT NULL, "version" text, "title" text, "expansion_identifier" text, "expansion_timestamp" text, "code_count" integer NOT NULL, "content_hash" character(64) NOT NULL, "loaded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_34160313849010ab379bcd7b279" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_value_set_expansions_url" ON "value_set_expansions" ("url")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_value_set_expansions_content_hash" ON "value_set_expansions" ("content_hash")`);
    await queryRunner.query(`CREATE TABLE "value_set_codes" ("value_set_id" integer NOT NULL, "system" text NOT NULL, "code" text NOT NULL, "display" text, CONSTRAINT "PK_2472fce485ba35dd69f9c3fd3de" PRIMARY KEY ("value_set_id", "system", "code"))`);
    await queryRunner.query(`CREATE TABLE "measure_packages" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "url" text NOT NULL, "version" text NOT NULL, "key" text NOT NULL, "title" text NOT NULL, "edition" text NOT NULL, "scoring" text NOT NULL, "basis" text NOT NULL, "groups" jsonb NOT NULL, "period_start" date, "period_end" date, "primary_library_id" integer NOT NULL, "measure" jsonb NOT NULL, "content_hash" character(64) NOT NULL, "loaded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "loaded_by" text NOT NULL, "load_correlation_id" uuid NOT NULL, CONSTRAINT "CHK_measure_packages_period" CHECK ("period_start" IS NULL OR "period_end" IS NULL OR "period_start" <= "period_end"), CONSTRAINT "PK_a3a75c4e1aa21e516a0c5f221bf" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_measure_packages_key" ON "measure_packages" ("key")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_measure_packages_url_version" ON "measure_packages" ("url", "version")`);
    await queryRunner.query(`CREATE TABLE "measure_package_libraries" ("measure_package_id" uuid NOT NULL, "library_id" integer NOT NULL, CONSTRAINT "PK_46e434f49d7f22564fb97880028" PRIMARY KEY ("measure_package_id", "library_id"))`);
    await queryRunner.query(`CREATE TABLE "measure_package_value_sets" ("measure_package_id" uuid NOT NULL, "value_set_id" integer NOT NULL, "names" text array NOT NULL, "from_supplement" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_384207bd6cc220276f284c30652" PRIMARY KEY ("measure_package_id", "value_set_id"))`);
    await queryRunner.query(`ALTER TABLE "value_set_codes" ADD CONSTRAINT "FK_c25d2b8429feb34ddbda2a3e585" FOREIGN KEY ("value_set_id") REFERENCES "value_set_expansions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "measure_packages" ADD CONSTRAINT "FK_11ea6156af023d2c5819148b18f" FOREIGN KEY ("primary_library_id") REFERENCES "measure_libraries"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "measure_package_libraries" ADD CONSTRAINT "FK_3ce075a003a2fdf43d661b67ffd" FOREIGN KEY ("measure_package_id") REFERENCES "measure_packages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "measure_package_libraries" ADD CONSTRAINT "FK_8a1673b485350fb249dd5008994" FOREIGN KEY ("library_id") REFERENCES "measure_libraries"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "measure_package_value_sets" ADD CONSTRAINT "FK_b8795ef117e3c35a7511058b7b3" FOREIGN KEY ("measure_package_id") REFERENCES "measure_packages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "measure_package_value_sets" ADD CONSTRAINT "FK_b0390c3e195e2fb186504b7c3bb" FOREIGN KEY ("value_set_id") REFERENCES "value_set_expansions"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`);

    await queryRunner.query(`
      CREATE FUNCTION "measure_content_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'loaded measure content is immutable: UPDATE of % refused', TG_TABLE_NAME
          USING ERRCODE = 'VM001', HINT = 'A changed measure is loaded as a new version.';
      END
      $$`);
    for (const table of CONTENT_TABLES) {
      await queryRunner.query(`CREATE TRIGGER "${table}_immutable" BEFORE UPDATE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION "measure_content_refuse_update"()`);
    }
    await queryRunner.query(`REVOKE INSERT, UPDATE, DELETE ON ${quoted} FROM vigil_app`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [...CONTENT_TABLES].reverse()) await queryRunner.query(`DROP TRIGGER "${table}_immutable" ON "${table}"`);
    await queryRunner.query(`DROP FUNCTION "measure_content_refuse_update"()`);
    await queryRunner.query(`ALTER TABLE "measure_package_value_sets" DROP CONSTRAINT "FK_b0390c3e195e2fb186504b7c3bb"`);
    await queryRunner.query(`ALTER TABLE "measure_package_value_sets" DROP CONSTRAINT "FK_b8795ef117e3c35a7511058b7b3"`);
    await queryRunner.query(`ALTER TABLE "measure_package_libraries" DROP CONSTRAINT "FK_8a1673b485350fb249dd5008994"`);
    await queryRunner.query(`ALTER TABLE "measure_package_libraries" DROP CONSTRAINT "FK_3ce075a003a2fdf43d661b67ffd"`);
    await queryRunner.query(`ALTER TABLE "measure_packages" DROP CONSTRAINT "FK_11ea6156af023d2c5819148b18f"`);
    await queryRunner.query(`ALTER TABLE "value_set_codes" DROP CONSTRAINT "FK_c25d2b8429feb34ddbda2a3e585"`);
    await queryRunner.query(`DROP TABLE "measure_package_value_sets"`);
    await queryRunner.query(`DROP TABLE "measure_package_libraries"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_measure_packages_url_version"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_measure_packages_key"`);
    await queryRunner.query(`DROP TABLE "measure_packages"`);
    await queryRunner.query(`DROP TABLE "value_set_codes"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_value_set_expansions_content_hash"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_value_set_expansions_url"`);
    await queryRunner.query(`DROP TABLE "value_set_expansions"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_measure_libraries_content_hash"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_measure_libraries_name_version"`);
    await queryRunner.query(`DROP TABLE "measure_libraries"`);
  }
}
