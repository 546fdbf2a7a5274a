import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `vigil_analyze_measure_results()`: fresh planner statistics for `measure_results`, callable by
 * the application, which does not own the table (ANALYZE needs the owner before Postgres 17's
 * MAINTAIN). A whole-cohort run rewrites every patient's rows for a period, often a period the
 * statistics have never seen (each day's rollover); until autovacuum catches up, the planner then
 * takes the period for a handful of rows and probes the wrong index once per patient — a worklist
 * page of 20 s on 100,000 patients. The run's last chunk calls this before its commit.
 */
export class MeasureResultsAnalyze1764553000000 implements MigrationInterface {
  name = 'MeasureResultsAnalyze1764553000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION vigil_analyze_measure_results() RETURNS void LANGUAGE plpgsql SECURITY DEFINER
      SET search_path = pg_catalog, public AS $$ BEGIN ANALYZE public.measure_results; END $$`);
    await queryRunner.query(`REVOKE ALL ON FUNCTION vigil_analyze_measure_results() FROM PUBLIC`);
    await queryRunner.query(`GRANT EXECUTE ON FUNCTION vigil_analyze_measure_results() TO vigil_app`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION vigil_analyze_measure_results()`);
  }
}
