import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where a person comes from outside Vigil: the identifiers a signed-in identity is matched by (the
 * identity provider's subject, an e-mail address, the NPI) and the FHIR Practitioner or CareTeam a
 * row was imported from (so a re-import updates the same row rather than adding another). All
 * optional: a person created by the admin command or the fixtures has none until one is set. Each is
 * unique where present, so one identity can never match two people; e-mail is compared
 * case-insensitively, as mail systems do.
 */
export class StaffIdentities1764570000000 implements MigrationInterface {
  name = 'StaffIdentities1764570000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "staff_users" ADD "identity_subject" text, ADD "email" text, ADD "npi" text, ADD "fhir_practitioner_id" text`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_staff_users_identity_subject" ON "staff_users" ("identity_subject") WHERE "identity_subject" IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_staff_users_email" ON "staff_users" (lower("email")) WHERE "email" IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_staff_users_npi" ON "staff_users" ("npi") WHERE "npi" IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_staff_users_fhir_practitioner_id" ON "staff_users" ("fhir_practitioner_id") WHERE "fhir_practitioner_id" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "care_teams" ADD "fhir_care_team_id" text`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_care_teams_fhir_care_team_id" ON "care_teams" ("fhir_care_team_id") WHERE "fhir_care_team_id" IS NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "UQ_care_teams_fhir_care_team_id"`);
    await queryRunner.query(`ALTER TABLE "care_teams" DROP COLUMN "fhir_care_team_id"`);
    await queryRunner.query(`DROP INDEX "UQ_staff_users_fhir_practitioner_id"`);
    await queryRunner.query(`DROP INDEX "UQ_staff_users_npi"`);
    await queryRunner.query(`DROP INDEX "UQ_staff_users_email"`);
    await queryRunner.query(`DROP INDEX "UQ_staff_users_identity_subject"`);
    await queryRunner.query(`ALTER TABLE "staff_users" DROP COLUMN "identity_subject", DROP COLUMN "email", DROP COLUMN "npi", DROP COLUMN "fhir_practitioner_id"`);
  }
}
