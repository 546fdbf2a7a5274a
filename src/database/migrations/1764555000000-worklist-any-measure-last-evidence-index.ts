import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A worklist over every measure sorted by the day of each patient's last relevant result is a walk
 * of one of these indexes ([status,] period, that day with never-dated first, patient), keeping each
 * patient's latest matching result only, that stops at the page's limit. Without them the page
 * computed the day of every patient on the team and sorted them (no page in 10 s at 51,000
 * patients, measured); six merged walks of the one-measure index were not a plan the planner would
 * take. The status indexes serve the usual filter (open gaps, most overdue first), of every measure
 * or of one: without them the walk skipped ~500,000 results of other statuses to find a page of
 * open gaps at 100,000 patients (one measure's: 600 ms a page).
 */
/**
 * Both indexes are partial on a condition every row meets (a period ends on or after it starts),
 * stated only by the statements that walk them: the planner then cannot take them anywhere else.
 * Without it, on a period not yet analysed (a first run fills it) the planner took them for the
 * recompute's per-patient lookups, which lead with the patient (a scan of the period per patient).
 */
export const ANY_MEASURE_WALK = '"period_end" >= "period_start"';

export class WorklistAnyMeasureLastEvidenceIndex1764555000000 implements MigrationInterface {
  name = 'WorklistAnyMeasureLastEvidenceIndex1764555000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_measure_results_any_last_evidence" ON "measure_results" ("period_end", "period_start", (coalesce("last_evidence_on", DATE '0001-01-01')), "patient_id") WHERE ${ANY_MEASURE_WALK}`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_measure_results_status_last_evidence" ON "measure_results" ("status", "period_end", "period_start", (coalesce("last_evidence_on", DATE '0001-01-01')), "patient_id") WHERE ${ANY_MEASURE_WALK}`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_measure_results_measure_status_last_evidence" ON "measure_results" ("period_end", "period_start", "measure_id", "status", (coalesce("last_evidence_on", DATE '0001-01-01')), "patient_id") WHERE ${ANY_MEASURE_WALK}`,
    );
    // Never used by any statement (no scan in a whole bench run at 100,000 patients), and every
    // recompute row paid for it.
    await queryRunner.query(`DROP INDEX "IDX_measure_results_reason"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_measure_results_reason" ON "measure_results" ("period_end", "period_start", "reason_code", "patient_id")`);
    await queryRunner.query(`DROP INDEX "IDX_measure_results_measure_status_last_evidence"`);
    await queryRunner.query(`DROP INDEX "IDX_measure_results_status_last_evidence"`);
    await queryRunner.query(`DROP INDEX "IDX_measure_results_any_last_evidence"`);
  }
}
