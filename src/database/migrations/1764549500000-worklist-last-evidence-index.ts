import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A worklist of one measure sorted by the day of its last relevant result is a walk of this index
 * (period, measure, that day with never-dated first, patient) that stops at the page's limit,
 * instead of computing the day of every patient on the team and sorting them.
 */
export class WorklistLastEvidenceIndex1764549500000 implements MigrationInterface {
  name = 'WorklistLastEvidenceIndex1764549500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_measure_results_last_evidence" ON "measure_results" ("period_end", "period_start", "measure_id", (coalesce("last_evidence_on", DATE '0001-01-01')), "patient_id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_measure_results_last_evidence"`);
  }
}
