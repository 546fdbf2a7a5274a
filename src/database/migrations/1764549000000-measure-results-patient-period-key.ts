import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The stored results' primary key in the order the recompute looks rows up: a patient's rows of
 * one period (`patient_id, period_start, period_end`, then the measure). The first order
 * (`patient_id, measure_id, …`) bounded that lookup by the patient alone; with no statistics yet on
 * a freshly filled table, the planner then preferred the worklist index (period first), scanning a
 * whole period's entries once per patient of every chunk — the larger part of a first run's time.
 * Same columns, same name: `ON CONFLICT` and every reader are unchanged.
 */
export class MeasureResultsPatientPeriodKey1764549000000 implements MigrationInterface {
  name = 'MeasureResultsPatientPeriodKey1764549000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "measure_results" DROP CONSTRAINT "PK_4a2e93d5b75456c0a8a7f2f2193"`);
    await queryRunner.query(`ALTER TABLE "measure_results" ADD CONSTRAINT "PK_4a2e93d5b75456c0a8a7f2f2193" PRIMARY KEY ("patient_id", "period_start", "period_end", "measure_id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "measure_results" DROP CONSTRAINT "PK_4a2e93d5b75456c0a8a7f2f2193"`);
    await queryRunner.query(`ALTER TABLE "measure_results" ADD CONSTRAINT "PK_4a2e93d5b75456c0a8a7f2f2193" PRIMARY KEY ("patient_id", "measure_id", "period_start", "period_end")`);
  }
}
