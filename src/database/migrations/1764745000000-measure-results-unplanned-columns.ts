import { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns of `measure_results` no statement filters, joins or sorts on: what a reader reads, never what a plan is chosen by. */
export const UNPLANNED_RESULT_COLUMNS = ['reason', 'populations', 'evidence', 'to_close', 'data_quality'] as const;

/**
 * No planner statistics for the columns of `measure_results` no statement selects by
 * (`UNPLANNED_RESULT_COLUMNS`: the result's text and JSON). ANALYZE, which the
 * last chunk of every whole-cohort recompute runs (`vigil_analyze_measure_results`), spent most of
 * its time on them: measured on 20,000 patients (120,000 rows), 2.8 s a run with them, 0.9–1.3 s
 * without. The expression indexes' statistics stay (a column list would have dropped them).
 */
export class MeasureResultsUnplannedColumns1764745000000 implements MigrationInterface {
  name = 'MeasureResultsUnplannedColumns1764745000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "measure_results" ${UNPLANNED_RESULT_COLUMNS.map((column) => `ALTER COLUMN "${column}" SET STATISTICS 0`).join(', ')}`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "measure_results" ${UNPLANNED_RESULT_COLUMNS.map((column) => `ALTER COLUMN "${column}" SET STATISTICS -1`).join(', ')}`);
  }
}
