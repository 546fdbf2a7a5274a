import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Patient search by name (issue 14): names compared folded — decomposed (NFD), combining marks
 * removed, lower-cased — so "Nunez" finds "Núñez" and "o'brien" finds "O'Brien". One SQL function
 * holds the folding (the application folds the search term with the same steps); an expression
 * index serves family-name prefixes (`LIKE 'abc%'`, hence text_pattern_ops) with the birth date.
 */
export class PatientSearch1764533000000 implements MigrationInterface {
  name = 'PatientSearch1764533000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION vigil_fold(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT
      AS $$ SELECT lower(regexp_replace(normalize(value, NFD), '[\\u0300-\\u036f]', '', 'g')) $$`);
    await queryRunner.query(`CREATE INDEX "IDX_patients_family_name_folded" ON "patients" (vigil_fold("family_name") text_pattern_ops, "birth_date")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_patients_family_name_folded"`);
    await queryRunner.query(`DROP FUNCTION vigil_fold(text)`);
  }
}
