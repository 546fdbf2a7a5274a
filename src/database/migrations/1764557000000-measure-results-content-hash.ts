import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a recompute wrote, as a SHA-256 of the result's content (`resultContentHash`): a forced run
 * evaluates every patient again, and a result that came out the same is only stamped (run, time,
 * data version) instead of being sent and parsed again. At 100,000 patients the rewrite's JSON
 * payload (~1.8 MB a chunk of 250) cost Postgres more than the chunk's chart reads. NULL (rows
 * written before this column) never matches: those rows get a full write the next time.
 */
export class MeasureResultsContentHash1764557000000 implements MigrationInterface {
  name = 'MeasureResultsContentHash1764557000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "measure_results" ADD "content_hash" bytea`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "measure_results" DROP COLUMN "content_hash"`);
  }
}
