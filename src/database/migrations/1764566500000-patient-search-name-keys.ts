import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Patient search as people type names. A name's search key is its folded form (`vigil_fold`: accents
 * and case) without the separators people leave out or type differently: spaces, apostrophes
 * (`O'Brien`, `O’Brien`), hyphens and dashes, full stops; and a Greek final sigma is a sigma (how a
 * name is cased decides which one it gets: "ΟΣ" lower-cases to "οσ" in SQL, "ος" in JavaScript). So "obrien" finds "O'Brien-Núñez" and
 * "vandermeer" finds "Van der Meer". The application computes the same key for the search term
 * (`nameKey`; an integration test compares the two on awkward names).
 *
 * Indexes, each for one form of search: family-name prefix (with the birth date), and the whole
 * name typed either way round ("Deshawn Pruitt", "Pruitt Deshawn") as a prefix of the two keys
 * joined; MRNs compared without case.
 *
 * `vigil_fold` is named with its schema: Postgres 17 (PGlite, the embedded database) builds and
 * maintains expression indexes with `search_path = pg_catalog, pg_temp`, where an unqualified call
 * from inside another function is not found.
 *
 * The SQL is literal so this migration means the same thing forever.
 */
export class PatientSearchNameKeys1764566500000 implements MigrationInterface {
  name = 'PatientSearchNameKeys1764566500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION vigil_name_key(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT
      AS $$ SELECT translate(regexp_replace(public.vigil_fold(value), '[\\u0009-\\u000d\\u0020\\u00a0\\u2000-\\u200b\\u202f\\u205f\\u3000''\\u0060\\u00b4\\u02bc\\u2018\\u2019\\-\\u2010-\\u2015.]', '', 'g'), 'ς', 'σ') $$`);
    await queryRunner.query(`DROP INDEX "IDX_patients_family_name_folded"`);
    await queryRunner.query(`CREATE INDEX "IDX_patients_family_name_key" ON "patients" (vigil_name_key("family_name") text_pattern_ops, "birth_date")`);
    await queryRunner.query(`CREATE INDEX "IDX_patients_family_given_key" ON "patients" ((vigil_name_key("family_name") || vigil_name_key("given_name")) text_pattern_ops)`);
    await queryRunner.query(`CREATE INDEX "IDX_patients_given_family_key" ON "patients" ((vigil_name_key("given_name") || vigil_name_key("family_name")) text_pattern_ops)`);
    await queryRunner.query(`CREATE INDEX "IDX_patients_mrn_upper" ON "patients" (upper("mrn"))`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_patients_mrn_upper"`);
    await queryRunner.query(`DROP INDEX "IDX_patients_given_family_key"`);
    await queryRunner.query(`DROP INDEX "IDX_patients_family_given_key"`);
    await queryRunner.query(`DROP INDEX "IDX_patients_family_name_key"`);
    await queryRunner.query(`CREATE INDEX "IDX_patients_family_name_folded" ON "patients" (vigil_fold("family_name") text_pattern_ops, "birth_date")`);
    await queryRunner.query(`DROP FUNCTION vigil_name_key(text)`);
  }
}
