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
 */
export class MeasureRetrieveFidelity1764525000000 implements MigrationInterface {
  name = 'MeasureRetrieveFidelity1764525000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "encounters" ADD "class_code" text`);
    await queryRunner.query(`ALTER TABLE "medications" ADD "code_from_reference" boolean NOT NULL DEFAULT false`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "medications" DROP COLUMN "code_from_reference"`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP COLUMN "class_code"`);
  }
}
