import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which loaded edition a stored result came from, and the loaded measures that failed on a patient.
 *
 * `measure_results.measure_package_id`: the `measure_packages` row (one url and version, never
 * updated) a loaded measure's result was computed with; NULL for the six built-in measures. A
 * patient's row only counts as current while its edition is the one the period takes, so loading a
 * re-issued edition of a measure makes every patient due again, as loading a new measure does.
 *
 * `measure_result_failures`: a loaded measure whose logic failed on one patient's record stores no
 * result; it stores this row instead (the problem's detail names the measure, its edition and the
 * ELM statement, never a patient or a value). It counts as current like a result: the patient is not
 * evaluated again every sweep, only once the record changes (data version) or another edition is
 * chosen. A later success deletes it in the same transaction as it writes the result.
 */
export class MeasureResultEditions1764710000000 implements MigrationInterface {
  name = 'MeasureResultEditions1764710000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "measure_results" ADD "measure_package_id" uuid`);
    await queryRunner.query(`ALTER TABLE "measure_results" ADD CONSTRAINT "FK_measure_results_package" FOREIGN KEY ("measure_package_id") REFERENCES "measure_packages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`CREATE TABLE "measure_result_failures" ("patient_id" uuid NOT NULL, "period_start" date NOT NULL, "period_end" date NOT NULL, "measure_id" text NOT NULL, "measure_package_id" uuid NOT NULL, "data_version" bigint NOT NULL, "detail" text NOT NULL, "run_id" bigint NOT NULL, "failed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_measure_result_failures" PRIMARY KEY ("patient_id", "period_start", "period_end", "measure_id"))`);
    await queryRunner.query(`ALTER TABLE "measure_result_failures" ADD CONSTRAINT "FK_measure_result_failures_patient" FOREIGN KEY ("patient_id") REFERENCES "patients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "measure_result_failures" ADD CONSTRAINT "FK_measure_result_failures_package" FOREIGN KEY ("measure_package_id") REFERENCES "measure_packages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`GRANT SELECT ON "measure_result_failures" TO vigil_reader`);
    await queryRunner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON "measure_result_failures" TO vigil_writer`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`REVOKE ALL ON "measure_result_failures" FROM vigil_writer`);
    await queryRunner.query(`REVOKE ALL ON "measure_result_failures" FROM vigil_reader`);
    await queryRunner.query(`DROP TABLE "measure_result_failures"`);
    await queryRunner.query(`ALTER TABLE "measure_results" DROP CONSTRAINT "FK_measure_results_package"`);
    await queryRunner.query(`ALTER TABLE "measure_results" DROP COLUMN "measure_package_id"`);
  }
}
