import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Care-team worklists (issue 14): each stored result keeps the day of the most recent row it cites
 * (`last_evidence_on`, what "sort by the last relevant result" sorts by), and patients get the two
 * orders a worklist pages in (by name, by birth date) as indexes, so a page is an index walk that
 * stops at its limit rather than a sort of the whole team.
 */
export class Worklists1764546000000 implements MigrationInterface {
  name = 'Worklists1764546000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "measure_results" ADD "last_evidence_on" date`);
    await queryRunner.query(`CREATE INDEX "IDX_patients_name_order" ON "patients" ("family_name", "given_name", "id")`);
    await queryRunner.query(`CREATE INDEX "IDX_patients_birth_order" ON "patients" ("birth_date", "id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_patients_birth_order"`);
    await queryRunner.query(`DROP INDEX "IDX_patients_name_order"`);
    await queryRunner.query(`ALTER TABLE "measure_results" DROP COLUMN "last_evidence_on"`);
  }
}
