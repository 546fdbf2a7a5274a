import { MigrationInterface, QueryRunner } from 'typeorm';

/** What the tools' read role may see of a closure and its proposal: enough to show it as an attestation, nothing else. */
const CLOSURE_COLUMNS = ['id', 'proposal_id', 'patient_id', 'measure_id', 'evidence', 'remark_code', 'created_at', 'period_start', 'period_end'];
const PROPOSAL_COLUMNS = ['id', 'proposer_id', 'proposer_role'];
const columns = (names: string[]) => names.map((name) => `"${name}"`).join(', ');

/**
 * Approved care-gap closures read back as attestations (see `src/cohort/care-gap-attestations.ts`):
 *
 * - each closure records the measurement period it was made for (`period_start`, `period_end`: the
 *   trailing year ending on the day the executor found the gap open and wrote it). Closures written
 *   before get the trailing year ending on the UTC day they were recorded, which is what the
 *   executor evaluated that day;
 * - `measure_id` holds the measure's id, never an alias a proposal may name it by (`KHE` is CMS951);
 * - `vigil_reader` (the tools' and worklists' READ ONLY role) may SELECT the columns an attestation
 *   shows, of the closures and of who filed them: column grants, so the proposal's other columns
 *   (rationale, status) stay out of its reach.
 *
 * The updates are writes to an effect table, so they bump those patients' data versions (their stored
 * results are recomputed once, to the same content).
 */
export class CareGapAttestations1764577300000 implements MigrationInterface {
  name = 'CareGapAttestations1764577300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "care_gap_closures" ADD "period_start" date, ADD "period_end" date`);
    await queryRunner.query(`UPDATE "care_gap_closures" SET "period_end" = ("created_at" AT TIME ZONE 'UTC')::date,
      "period_start" = (("created_at" AT TIME ZONE 'UTC')::date - interval '12 months' + interval '1 day')::date`);
    await queryRunner.query(`UPDATE "care_gap_closures" SET "measure_id" = 'CMS951' WHERE "measure_id" = 'KHE'`);
    await queryRunner.query(`ALTER TABLE "care_gap_closures" ALTER COLUMN "period_start" SET NOT NULL, ALTER COLUMN "period_end" SET NOT NULL`);
    await queryRunner.query(`GRANT SELECT (${columns(CLOSURE_COLUMNS)}) ON "care_gap_closures" TO vigil_reader`);
    await queryRunner.query(`GRANT SELECT (${columns(PROPOSAL_COLUMNS)}) ON "proposals" TO vigil_reader`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`REVOKE SELECT (${columns(PROPOSAL_COLUMNS)}) ON "proposals" FROM vigil_reader`);
    await queryRunner.query(`REVOKE SELECT (${columns(CLOSURE_COLUMNS)}) ON "care_gap_closures" FROM vigil_reader`);
    await queryRunner.query(`ALTER TABLE "care_gap_closures" DROP COLUMN "period_end", DROP COLUMN "period_start"`);
  }
}
