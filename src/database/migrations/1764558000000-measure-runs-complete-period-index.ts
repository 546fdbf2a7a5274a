import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The newest complete period (`latestCompletePeriod`: the newest whole-cohort run that finished)
 * as a walk of an index holding only such runs, newest first. Every import, executed proposal and
 * stale sweep adds a run of named patients, so without it the lookup that opens worklist pages and
 * population counts scanned and sorted every run ever requested, a cost growing by the day. Whole
 * runs finish about once a day: the index stays a few entries a year.
 */
export class MeasureRunsCompletePeriodIndex1764558000000 implements MigrationInterface {
  name = 'MeasureRunsCompletePeriodIndex1764558000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_measure_runs_complete_periods" ON "measure_runs" ("period_end" DESC, "period_start" DESC) WHERE "patient_ids" IS NULL AND "finished_at" IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_measure_runs_complete_periods"`);
  }
}
