import request from 'supertest';
import { DataSource } from 'typeorm';
import { COMMANDS } from '../../src/cli/commands';
import { pendingSchemaChanges } from '../../src/database/schema';
import { GENERATED_TABLES } from '../../src/generator/rows';
import { createTestApp, TestApp } from '../setup/app';
import { useSeededDatabase } from '../setup/database';
import { TEST_ANCHOR_DATE } from '../setup/test-database';

const PATIENTS = 300;
const GENERATED = `SELECT id FROM patients WHERE mrn LIKE 'SYN-%'`;

async function run(dataSource: DataSource, args: string[]) {
  const lines: string[] = [];
  const code = await COMMANDS.generate.run(dataSource, args, (line) => lines.push(line));
  return { code, output: lines.join('\n') };
}

async function count(dataSource: DataSource, sql: string): Promise<number> {
  return Number((await dataSource.query(`SELECT count(*) AS n FROM (${sql}) x`))[0].n);
}

/** An md5 of every generated row of every table, in a fixed order: equal only if the data is byte-identical. */
async function checksum(dataSource: DataSource): Promise<Record<string, string>> {
  const sums: Record<string, string> = {};
  for (const table of GENERATED_TABLES) {
    const [key, order] = table === 'patients' ? ['id', 'id'] : table === 'patient_care_teams' ? ['patient_id', 'patient_id, care_team_id'] : ['patient_id', 'id'];
    // A patient's population record key is a secret random draw of its database, never equal in two.
    const [row] = await dataSource.query(`SELECT md5(string_agg((to_jsonb(t) - 'population_record_key')::text, E'\\n' ORDER BY ${order})) AS sum FROM "${table}" t WHERE ${key} IN (${GENERATED})`);
    sums[table] = row.sum;
  }
  return sums;
}

/** The schema objects the load drops and recreates: they must come back exactly as migrated. */
async function schemaObjects(dataSource: DataSource): Promise<string[]> {
  const rows: { definition: string }[] = await dataSource.query(
    `SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) || ' validated=' || convalidated AS definition
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace
     UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'
     ORDER BY 1`,
  );
  return rows.map((row) => row.definition);
}

describe('cohort generator (npm run db:generate)', () => {
  const first = useSeededDatabase();
  const second = useSeededDatabase();
  const args = ['--patients', String(PATIENTS), '--seed', '3', '--anchor', TEST_ANCHOR_DATE];
  let before: string[];

  beforeAll(async () => {
    before = await schemaObjects(first().dataSource);
    const result = await run(first().dataSource, args);
    expect(result).toMatchObject({ code: 0 });
  }, 120_000); // generating and loading 300 patients: seconds, more on a busy machine

  it('loads the cohort and reports rows and phases without patient data', async () => {
    const { dataSource } = first();
    expect(await count(dataSource, GENERATED)).toBe(PATIENTS);
    expect(await count(dataSource, `SELECT 1 FROM encounters WHERE patient_id IN (${GENERATED})`)).toBeGreaterThan(PATIENTS * 9);
    expect(await count(dataSource, `SELECT 1 FROM observations WHERE patient_id IN (${GENERATED})`)).toBeGreaterThan(PATIENTS * 50);
    expect(await count(dataSource, `SELECT 1 FROM patient_care_teams WHERE patient_id IN (${GENERATED})`)).toBeGreaterThanOrEqual(PATIENTS);
    // Both fixture teams are used by default, and the fixture cohort is untouched.
    expect(await count(dataSource, `SELECT DISTINCT care_team_id FROM patient_care_teams WHERE patient_id IN (${GENERATED})`)).toBe(2);
    expect(await count(dataSource, `SELECT 1 FROM patients WHERE mrn LIKE 'VGL-%'`)).toBe(30);
  });

  it('leaves the loaded tables vacuumed: team memberships are probed from the index alone, no heap fetch', async () => {
    const { dataSource } = first();
    const [{ id }] = await dataSource.query<{ id: string }[]>(`SELECT id::text AS id FROM patients WHERE mrn NOT LIKE 'VGL-%' ORDER BY id LIMIT 1`);
    const [row] = await dataSource.query<{ 'QUERY PLAN': { Plan: { 'Node Type': string; 'Heap Fetches'?: number } }[] }[]>(
      `EXPLAIN (ANALYZE, FORMAT JSON) SELECT patient_id FROM patient_care_teams WHERE patient_id = $1`,
      [id],
    );
    expect(row['QUERY PLAN'][0].Plan).toMatchObject({ 'Node Type': 'Index Only Scan', 'Heap Fetches': 0 });
  });

  it('ends with exactly the migrated schema: every index and constraint back, validated', async () => {
    expect(await schemaObjects(first().dataSource)).toEqual(before);
    expect(await pendingSchemaChanges(first().dataSource)).toEqual([]);
  });

  it('prints a summary of counts and timings only', async () => {
    const result = await run(second().dataSource, args);
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/Generated 300 patients \(seed 3, anchor 2026-06-30, care teams primary-care-north, primary-care-south\)\./);
    expect(result.output).toMatch(/observations\s+\d+/);
    expect(result.output).toMatch(/Total [\d.]+ s, \d+ rows\/s\./);
    expect(result.output).not.toMatch(/SYN-|@example\.org|555-01/);
  });

  it('gives byte-identical rows in two databases for the same patients, seed and anchor', async () => {
    const [a, b] = [await checksum(first().dataSource), await checksum(second().dataSource)];
    expect(Object.values(a).every((sum) => /^[0-9a-f]{32}$/.test(sum))).toBe(true);
    expect(b).toEqual(a);
  });

  it('refuses to run again on a database that holds a generated cohort, changing nothing', async () => {
    const { dataSource } = first();
    const sums = await checksum(dataSource);
    const result = await run(dataSource, ['--patients', '10', '--seed', '4', '--anchor', TEST_ANCHOR_DATE]);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/already holds a generated cohort \(300 patients.*--replace.*fresh database/);
    expect(await checksum(dataSource)).toEqual(sums);
  });

  it('refuses unknown care teams and bad numbers by name', async () => {
    const unknown = await run(second().dataSource, ['--patients', '5', '--seed', '1', '--care-teams', 'nowhere', '--replace']);
    expect(unknown).toEqual({ code: 1, output: expect.stringMatching(/Unknown care team\(s\): nowhere\. Existing: primary-care-north, primary-care-south\./) });
    expect((await run(second().dataSource, ['--patients', 'many', '--seed', '1'])).output).toMatch(/--patients must be a whole number/);
  });

  it('replaces the generated cohort with --replace, leaving nothing of the old one', async () => {
    const { dataSource } = second();
    const oldIds = (await dataSource.query(`SELECT id FROM patients WHERE mrn LIKE 'SYN-%' ORDER BY id LIMIT 5`)).map((row: { id: string }) => row.id);
    const result = await run(dataSource, ['--patients', '40', '--seed', '9', '--care-teams', 'primary-care-south', '--anchor', TEST_ANCHOR_DATE, '--replace']);
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/replacing 300 generated before/);
    expect(await count(dataSource, GENERATED)).toBe(40);
    expect(await count(dataSource, `SELECT 1 FROM observations WHERE patient_id = ANY('{${oldIds.join(',')}}'::uuid[])`)).toBe(0);
    expect(await count(dataSource, `SELECT DISTINCT care_team_id FROM patient_care_teams WHERE patient_id IN (${GENERATED})`)).toBe(1);
    expect(await pendingSchemaChanges(dataSource)).toEqual([]);
  });

  describe('the tools on a generated patient', () => {
    let sut: TestApp;
    beforeAll(async () => {
      sut = await createTestApp({ databaseUrl: first().url });
    });
    afterAll(() => sut.close());

    it('answer all five tools for a diabetic with a hospital stay, as a clinician of the team', async () => {
      const [patient] = await first().dataSource.query(
        `SELECT p.id FROM patients p JOIN patient_care_teams pct ON pct.patient_id = p.id JOIN care_teams t ON t.id = pct.care_team_id
          WHERE p.mrn LIKE 'SYN-%' AND p.deceased_at IS NULL AND t.code = 'primary-care-north'
            AND EXISTS (SELECT 1 FROM conditions c WHERE c.patient_id = p.id AND (c.code LIKE 'E11%' OR c.code = '44054006'))
            AND EXISTS (SELECT 1 FROM encounters e WHERE e.patient_id = p.id AND e.class = 'inpatient' AND e.disposition <> 'expired')
          ORDER BY p.mrn LIMIT 1`,
      );
      expect(patient).toBeDefined();
      const token = await sut.tokenFor('dr.okafor');
      const get = (path: string) =>
        request(sut.app.getHttpServer()).get(`/patients/${patient.id}/${path}`).set('authorization', `Bearer ${token}`).expect(200);

      const encounters = await get('encounters');
      expect(encounters.body.rows.length).toBeGreaterThan(0);
      const labs = await get('labs?code=4548-4');
      expect(labs.body.rows.length).toBeGreaterThan(0);
      const gaps = await get(`care-gaps?asOf=${TEST_ANCHOR_DATE}&measure=CMS122`);
      expect(['open-gap', 'closed-gap', 'not-applicable']).toContain(gaps.body.rows[0].status);
      expect((await get(`missing-data?asOf=${TEST_ANCHOR_DATE}`)).body.status).toMatch(/ok|empty|partial/);
      const risk = await get(`readmission-risk?asOf=${TEST_ANCHOR_DATE}`);
      expect(risk.body.summary.riskPercent).toBeGreaterThan(0);
    });
  });
});
