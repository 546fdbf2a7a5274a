import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Room on each page of `measure_results` for a second version of its rows. Every recompute of a
 * period rewrites its rows (a forced run, the daily rollover, each import): with full pages
 * (fillfactor 100) each rewrite went to another page and inserted into all six indexes, and the
 * table held three versions of every row after two runs (1.7 GB for 600,000 rows at 100,000
 * patients; 2,776 of 1,200,360 updates were heap-only). With half of each page free, a rewrite
 * that changes no indexed column (the usual case: the same status, reason and day) stays on its
 * page and touches no index, and the old version is pruned by the next one. Applies to pages
 * written from now on; existing rows move as they are rewritten.
 */
export class MeasureResultsFillfactor1764556000000 implements MigrationInterface {
  name = 'MeasureResultsFillfactor1764556000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "measure_results" SET (fillfactor = 50)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "measure_results" RESET (fillfactor)`);
  }
}
