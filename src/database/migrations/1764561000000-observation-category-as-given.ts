import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Observation categories as the source gives them. FHIR R4 binds `Observation.category` to its
 * observation-category codes with strength *preferred*: a source may use any code of any system
 * (the 2025 eCQM test cases tag the 10-year ASCVD risk score with US Core's `screening-assessment`),
 * and such an observation is still a valid one. The closed CHECK made the importer drop them.
 * - `category` takes any code (FHIR's `code` shape) and may be null (R4 makes it optional);
 * - `category_system` keeps the code's system. Every row stored before this migration holds one of
 *   the nine HL7 codes the old CHECK allowed, so the column's default (that system) is true of all of
 *   them, and Postgres fills it without rewriting the table.
 *
 * The SQL is literal so this migration means the same thing forever. `down` restores the old CHECK:
 * Postgres refuses it (and rolls back) when a stored row no longer fits; nothing is deleted to make it fit.
 */
export class ObservationCategoryAsGiven1764561000000 implements MigrationInterface {
  name = 'ObservationCategoryAsGiven1764561000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "observations" ADD "category_system" text DEFAULT 'http://terminology.hl7.org/CodeSystem/observation-category'`);
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "CHK_observations_category"`);
    await queryRunner.query(`ALTER TABLE "observations" ALTER COLUMN "category" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "CHK_observations_category" CHECK ("category" IS NULL OR "category" ~ '^[^[:space:]]+( [^[:space:]]+)*$')`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "CHK_observations_category_system" CHECK ("category_system" IS NULL OR "category_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "CHK_observations_category_pair" CHECK (("category" IS NULL) = ("category_system" IS NULL))`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "CHK_observations_category_pair"`);
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "CHK_observations_category_system"`);
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "CHK_observations_category"`);
    await queryRunner.query(`ALTER TABLE "observations" ALTER COLUMN "category" SET NOT NULL`);
    // First a CHECK that also asks for the HL7 system, so a same-named code of another system refuses the revert too.
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "CHK_observations_category" CHECK ("category" IN ('laboratory', 'vital-signs', 'social-history', 'survey', 'exam', 'imaging', 'procedure', 'therapy', 'activity') AND "category_system" = 'http://terminology.hl7.org/CodeSystem/observation-category')`);
    await queryRunner.query(`ALTER TABLE "observations" DROP CONSTRAINT "CHK_observations_category"`);
    await queryRunner.query(`ALTER TABLE "observations" ADD CONSTRAINT "CHK_observations_category" CHECK ("category" IN ('laboratory', 'vital-signs', 'social-history', 'survey', 'exam', 'imaging', 'procedure', 'therapy', 'activity'))`);
    await queryRunner.query(`ALTER TABLE "observations" DROP COLUMN "category_system"`);
  }
}
