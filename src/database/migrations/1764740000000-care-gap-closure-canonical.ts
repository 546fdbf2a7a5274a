import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A closure of a measure loaded as data keeps the canonical (`url|version`) of the edition it was
 * executed under, so its delivery names that edition even after a newer one is loaded. Null for a
 * built-in measure, and for closures executed before this column (their delivery chooses the
 * edition as it always did). The executor writes it with the closure; vigil_writer's INSERT on the
 * table covers the new column, and no reader grant is added (an attestation does not show it).
 */
export class CareGapClosureCanonical1764740000000 implements MigrationInterface {
  name = 'CareGapClosureCanonical1764740000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "care_gap_closures" ADD "measure_canonical" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "care_gap_closures" DROP COLUMN "measure_canonical"`);
  }
}
