import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the published measures read of a record and the cohort schema did not keep:
 * - `patients.sex_code`: US Core's sex extension (`us-core-sex`, a SNOMED CT code such as 248152002
 *   female), which the 2025 QI-Core measures read as `Patient.sex`; `sex` stays the administrative gender.
 * - `patients.race`, `ethnicity`: US Core's race and ethnicity extensions, as their codings
 *   (`[{part, system, code}]`, part `ombCategory` or `detailed`): the supplemental data elements
 *   of every measure, and a population criterion of CMS1154 (BMI thresholds for Asian patients).
 * - `conditions.onset_at`, `abatement_at`: the instant the source wrote when it wrote one with a time.
 *   The days (`onset_date`, `abatement_date`) stay what the hand-written measures compare; a measure
 *   comparing a diagnosis with an encounter of the same day needs the time.
 * - `conditions.other_codings`, `encounters.type_other_codings`: the codings beyond the stored one, as
 *   `[{system, code}]`: a measure loaded later may name a value set that knows only another of them
 *   (a Condition coded in ICD-9 and SNOMED CT, where the value set has only the SNOMED code; an
 *   Encounter typed in SNOMED CT and CPT).
 * - `conditions.severity_system`, `severity_code`: the condition's `severity` (the AHA measures count
 *   a left ventricular systolic dysfunction only when it is moderate or severe).
 * - `observations.part_of_procedure_id`: the Procedure an observation is `partOf` (a cancer staging
 *   read from the staging procedure it belongs to, CMS646), as the row id that Procedure has or will
 *   have in the same source; no foreign key, because the Procedure may come later or not at all.
 * - Why something was not done, as QI-Core records it and the measures' exceptions read it:
 *   `observations.not_done_reason_*` (the `qicore-notDoneReason` extension of a cancelled
 *   Observation) with `observations.issued_at` (`issued`, which those exceptions date it by);
 *   `clinical_requests.refusal_reason_*` (a ServiceRequest's `qicore-doNotPerformReason`, QI-Core's
 *   `reasonRefused`); `procedures.reason_*` (`reasonCode`).
 * Every column is nullable and has no default: the rows stored before keep what they were read as.
 * The SQL is literal so this migration means the same thing forever.
 */
/** The coded reasons added, each a `<prefix>_system` and `<prefix>_code` pair. */
const REASON_COLUMNS = [
  ['observations', 'not_done_reason'],
  ['clinical_requests', 'refusal_reason'],
  ['procedures', 'reason'],
] as const;

export class ChartFidelity1764660000000 implements MigrationInterface {
  name = 'ChartFidelity1764660000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "patients" ADD "sex_code" text`);
    await queryRunner.query(`ALTER TABLE "patients" ADD CONSTRAINT "CHK_patients_sex_code" CHECK ("sex_code" IS NULL OR "sex_code" ~ '^[^[:space:]]+( [^[:space:]]+)*$')`);
    await queryRunner.query(`ALTER TABLE "patients" ADD "race" jsonb`);
    await queryRunner.query(`ALTER TABLE "patients" ADD "ethnicity" jsonb`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD "onset_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD "abatement_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD "other_codings" jsonb`);
    await queryRunner.query(`ALTER TABLE "encounters" ADD "type_other_codings" jsonb`);
    await queryRunner.query(`ALTER TABLE "observations" ADD "part_of_procedure_id" uuid`);
    await queryRunner.query(`ALTER TABLE "observations" ADD "issued_at" TIMESTAMP WITH TIME ZONE`);
    for (const [table, prefix] of REASON_COLUMNS) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD "${prefix}_system" text`);
      await queryRunner.query(`ALTER TABLE "${table}" ADD "${prefix}_code" text`);
      await queryRunner.query(`ALTER TABLE "${table}" ADD CONSTRAINT "CHK_${table}_${prefix}_system" CHECK ("${prefix}_system" IS NULL OR "${prefix}_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
    }
    await queryRunner.query(`ALTER TABLE "conditions" ADD "severity_system" text`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD "severity_code" text`);
    await queryRunner.query(`ALTER TABLE "conditions" ADD CONSTRAINT "CHK_conditions_severity_system" CHECK ("severity_system" IS NULL OR "severity_system" ~ '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$')`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conditions" DROP CONSTRAINT "CHK_conditions_severity_system"`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP COLUMN "severity_code"`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP COLUMN "severity_system"`);
    await queryRunner.query(`ALTER TABLE "encounters" DROP COLUMN "type_other_codings"`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP COLUMN "other_codings"`);
    for (const [table, prefix] of REASON_COLUMNS) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP CONSTRAINT "CHK_${table}_${prefix}_system"`);
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "${prefix}_code"`);
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "${prefix}_system"`);
    }
    await queryRunner.query(`ALTER TABLE "observations" DROP COLUMN "issued_at"`);
    await queryRunner.query(`ALTER TABLE "observations" DROP COLUMN "part_of_procedure_id"`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP COLUMN "abatement_at"`);
    await queryRunner.query(`ALTER TABLE "conditions" DROP COLUMN "onset_at"`);
    await queryRunner.query(`ALTER TABLE "patients" DROP COLUMN "ethnicity"`);
    await queryRunner.query(`ALTER TABLE "patients" DROP COLUMN "race"`);
    await queryRunner.query(`ALTER TABLE "patients" DROP CONSTRAINT "CHK_patients_sex_code"`);
    await queryRunner.query(`ALTER TABLE "patients" DROP COLUMN "sex_code"`);
  }
}
