import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The live review queue (`GET /proposals/events`) asks every two seconds, per open stream, which
 * proposals changed since a moment: without this index that is a scan of every proposal ever filed.
 */
export class ProposalsUpdatedIndex1764490000000 implements MigrationInterface {
  name = 'ProposalsUpdatedIndex1764490000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_proposals_updated" ON "proposals" ("updated_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_proposals_updated"`);
  }
}
