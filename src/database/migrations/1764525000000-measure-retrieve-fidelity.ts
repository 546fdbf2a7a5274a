import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two facts the stewards' CQL reads that the cohort schema had folded away (issue 10):
 * - `encounters.class_code`: the encounter class exactly as the source coded it (HL7 v3 ActCode, e.g.
 *   `PRENC`, `SS`). Vigil's own `class` groups these (PRENC is ambulatory, SS an observation stay),
 *   but CMS165 excludes readings by the raw code (`class.code in { 'EMER', 'IMP', 'ACUTE', 'NONAC',
 *   'PRENC', 'SS' }`). Null for rows written before this column or by sources without a class code.
 * - `medications.code_from_reference`: the medication's code came from a referenced (bundled or
 *   contained) Medication (`medicationReference`), not from `medicationCodeableConcept`. The
 *   measures' retrieves (`[MedicationRequest: "Dementia Medications"]`) filter on the request's own
 *   code, so the stewards' engine and their expected results do not see such orders (CQLIT-412).
 * - `*_period_open` on procedures (performed), observations (effective) and allergies (onset): the
 *   source gave a Period with a start and no end. FHIRHelpers reads it as `Interval[start, null]`,
 *   which runs to the end of time (a statin allergy since 2020 overlaps 2025), whereas a dateTime is
 *   one point; both used to be stored as a start without an end.
 */
export class MeasureRetrieveFidelity1764525000000 implements MigrationInterface {
  name = 'MeasureRetrieveFidelity1764525000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "encounters" ADD "class_code" text`);
    await queryRunner.query(`ALTER TABLE "medications" ADD "code_from_reference" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "procedures" ADD "performed_period_open" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "observations" ADD "effective_period_open" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "allergies" ADD "onset_period_open" boolean NOT NULL DEFAULT false`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "allergies" DROP COLUMN "onset_period_open"`);
    await queryRunner.query(`ALTER TABLE "observations" DROP COLUMN "effective_period_open"`);
    await queryRunner.query(`ALTER TABLE "procedures" DROP COLUMN "performed_period_open"`);
    await queryRunner.query(`ALTER TABLE "medications" DROP COLUMN "code_from_reference"`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP COLUMN "class_code"`);
  }
}
