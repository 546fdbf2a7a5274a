import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Population publications (`population_publications`): every publication served, so that every
 * API process serves the same draw of a version, and each new draw is checked together with the one
 * served before it (docs/population-counts.md). Generated from src/population/entities with TypeORM's
 * schema builder, then reviewed. Written by the service's own connection; no role beyond the owner
 * needs it. Its check records hold counts per stratum with their record-key sums, no patient id.
 */
export class PopulationPublications1764568000000 implements MigrationInterface {
  name = 'PopulationPublications1764568000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "population_publications" ("id" BIGSERIAL NOT NULL, "period_start" date NOT NULL, "period_end" date NOT NULL, "results_version" text NOT NULL, "computed_at" TIMESTAMP WITH TIME ZONE, "salt" text NOT NULL, "counts" jsonb NOT NULL, "check_record" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ce6d9db09f10f66976b3d7899f8" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_population_publications_version" ON "population_publications" ("period_start", "period_end", "results_version")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."UQ_population_publications_version"`);
    await queryRunner.query(`DROP TABLE "population_publications"`);
  }
}
