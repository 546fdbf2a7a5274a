import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every patient's population record key (`patients.population_record_key`): a secret random
 * integer below 2^48, drawn once when the row is inserted (by the seed, an import, the generator or
 * anything else) and never changed or published. The population counts' cell keys are hashes of
 * sums of these keys (docs/population-counts.md). Drawn from `gen_random_uuid()` (a strong random
 * source; its first 48 bits are random in a version 4 UUID), not `random()`, whose state is guessable.
 * Adding the column evaluates the volatile default once per existing row, so each gets its own key.
 */
export class PopulationRecordKeys1764567300000 implements MigrationInterface {
  name = 'PopulationRecordKeys1764567300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION vigil_population_record_key() RETURNS bigint LANGUAGE sql VOLATILE AS $$
      SELECT ('x' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 12))::bit(48)::bigint $$`);
    await queryRunner.query(`ALTER TABLE "patients" ADD "population_record_key" bigint NOT NULL DEFAULT vigil_population_record_key()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "patients" DROP COLUMN "population_record_key"`);
    await queryRunner.query(`DROP FUNCTION vigil_population_record_key()`);
  }
}
