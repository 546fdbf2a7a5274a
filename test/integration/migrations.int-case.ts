import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/data-source';
import { pendingSchemaChanges, revertAllMigrations, runMigrations } from '../../src/database/schema';
import { useEmptyDatabase } from '../setup/database';

const TABLES = [
  'adverse_events',
  'agent_tool_calls',
  'agent_turns',
  'allergies',
  'audit_events',
  'audit_seals',
  'care_gap_closures',
  'care_notes',
  'care_team_members',
  'care_teams',
  'clinical_notes',
  'clinical_requests',
  'communications',
  'conditions',
  'encounters',
  'identity_generation',
  'immunizations',
  'lab_orders',
  'mcp_sessions',
  'measure_libraries',
  'measure_package_libraries',
  'measure_package_value_sets',
  'measure_packages',
  'measure_result_failures',
  'measure_results',
  'measure_run_chunks',
  'measure_runs',
  'medication_administrations',
  'medication_dispenses',
  'medications',
  'observations',
  'outreach_tasks',
  'patient_care_teams',
  'patients',
  'population_publications',
  'procedures',
  'proposal_decisions',
  'proposal_deliveries',
  'proposal_outbox',
  'proposal_versions',
  'proposals',
  'staff_users',
  'tasks',
  'value_set_codes',
  'value_set_expansions',
  'vigil_installation',
];

describe('migrations', () => {
  const database = useEmptyDatabase();
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = new DataSource(dataSourceOptions({ url: database().url, poolSize: 1 }));
    await dataSource.initialize();
  });
  afterAll(() => dataSource.destroy());

  const tables = async () =>
    (
      await dataSource.query<{ tablename: string }[]>(
        `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations' ORDER BY tablename`,
      )
    ).map((row) => row.tablename);

  it('run up on an empty database and create every table', async () => {
    expect(await runMigrations(dataSource)).not.toHaveLength(0);
    expect(await tables()).toEqual(TABLES);
  });

  it('agree with the entities: generating a migration now would yield nothing', async () => {
    expect(await pendingSchemaChanges(dataSource)).toEqual([]);
  });

  it('run down cleanly, leaving no table, index or constraint behind', async () => {
    expect(await revertAllMigrations(dataSource)).toBeGreaterThan(0);
    expect(await tables()).toEqual([]);
    const leftovers = await dataSource.query(`SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND indexname LIKE 'IDX_%'`);
    expect(leftovers).toEqual([]);
  });

  it('run up again after a full revert, with the same result', async () => {
    await runMigrations(dataSource);
    expect(await tables()).toEqual(TABLES);
    expect(await pendingSchemaChanges(dataSource)).toEqual([]);
  });

  it('are a no-op when nothing is pending', async () => {
    expect(await runMigrations(dataSource)).toEqual([]);
  });
});
