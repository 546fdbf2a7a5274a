import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tables the read-only tools may SELECT from: the cohort and its access tables, nothing else. */
const COHORT_TABLES = [
  'patients',
  'care_teams',
  'staff_users',
  'care_team_members',
  'patient_care_teams',
  'encounters',
  'observations',
  'conditions',
  'medications',
  'procedures',
  'clinical_notes',
  'allergies',
];

/**
 * `vigil_reader`: a role with SELECT on the cohort tables and nothing more. Every tool read runs
 * in a READ ONLY transaction after `SET LOCAL ROLE vigil_reader`, so even a statement that tried to
 * write, or to read the audit trail, would be refused by Postgres itself.
 *
 * Roles belong to the whole server, not one database: `up` creates the role only if it is missing,
 * and `down` revokes this database's grants but leaves the role for other databases that use it.
 */
export class CohortReaderRole1764470000000 implements MigrationInterface {
  name = 'CohortReaderRole1764470000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vigil_reader') THEN
        CREATE ROLE vigil_reader NOLOGIN NOINHERIT;
      END IF;
    END $$`);
    // The service's own login role switches to vigil_reader for each read; it must be a member.
    await queryRunner.query(`DO $$ BEGIN
      IF NOT pg_has_role(current_user, 'vigil_reader', 'MEMBER') THEN
        EXECUTE format('GRANT vigil_reader TO %I', current_user);
      END IF;
    END $$`);
    await queryRunner.query(`GRANT USAGE ON SCHEMA public TO vigil_reader`);
    await queryRunner.query(`GRANT SELECT ON ${COHORT_TABLES.map((table) => `"${table}"`).join(', ')} TO vigil_reader`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`REVOKE SELECT ON ${COHORT_TABLES.map((table) => `"${table}"`).join(', ')} FROM vigil_reader`);
    await queryRunner.query(`REVOKE USAGE ON SCHEMA public FROM vigil_reader`);
  }
}
