import { patients, staff } from '../../fixtures';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { loadFixtureCohort } from '../../src/cohort/fixtures/fixture-loader';
import { useSeededDatabase } from '../setup/database';
import { TEST_ANCHOR_DATE } from '../setup/test-database';

const TABLES = [
  'care_teams',
  'staff_users',
  'care_team_members',
  'patients',
  'patient_care_teams',
  'encounters',
  'observations',
  'conditions',
  'medications',
  'procedures',
  'clinical_notes',
  'allergies',
];
const patientId = (key: string) => fixtureId('patient', key);
const fixture = (key: string) => {
  const found = patients.find((patient) => patient.key === key);
  if (!found) throw new Error(`no fixture ${key}`);
  return found;
};

describe('fixture cohort', () => {
  const database = useSeededDatabase();
  const query = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => database().dataSource.query<T[]>(sql, params);

  /** Every row of every cohort table, minus bookkeeping timestamps, as one digest per table. */
  async function digest(): Promise<Record<string, string>> {
    const result: Record<string, string> = {};
    for (const table of TABLES) {
      const [row] = await query<{ digest: string }>(
        `SELECT md5(coalesce(string_agg((to_jsonb(t) - 'created_at' - 'updated_at')::text, '|' ORDER BY (to_jsonb(t) - 'created_at' - 'updated_at')::text), '')) AS digest FROM "${table}" t`,
      );
      result[table] = row.digest;
    }
    return result;
  }

  async function counts(): Promise<Record<string, number>> {
    const result: Record<string, number> = {};
    for (const table of TABLES) result[table] = (await query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`))[0].n;
    return result;
  }

  it('loads every patient, care team and staff user', async () => {
    const loaded = await counts();
    expect(loaded.patients).toBe(patients.length);
    expect(loaded.care_teams).toBe(staff.careTeams.length);
    expect(loaded.staff_users).toBe(staff.users.length);
    expect(patients.length).toBeGreaterThanOrEqual(30);
  });

  it('is safe to load again: the same anchor changes nothing at all', async () => {
    const before = await digest();
    await loadFixtureCohort(database().dataSource, { staff, patients }, TEST_ANCHOR_DATE);
    expect(await digest()).toEqual(before);
  });

  it('moves the dates with a new anchor, without duplicating a row', async () => {
    const before = await counts();
    await loadFixtureCohort(database().dataSource, { staff, patients }, '2027-01-15');
    expect(await counts()).toEqual(before);
    const [aged] = await query<{ birth_date: string }>(`SELECT birth_date::text FROM patients WHERE id = $1`, [patientId('aged-92')]);
    expect(aged.birth_date).toBe('1935-01-15');
    await loadFixtureCohort(database().dataSource, { staff, patients }, TEST_ANCHOR_DATE);
  });

  it.each(patients.map((patient) => [patient.key, patient]))('assigns %s to exactly its care teams', async (_key, patient) => {
    const rows = await query<{ code: string }>(
      `SELECT t.code FROM patient_care_teams pct JOIN care_teams t ON t.id = pct.care_team_id WHERE pct.patient_id = $1 ORDER BY t.code`,
      [patientId(patient.key)],
    );
    expect(rows.map((row) => row.code)).toEqual([...patient.careTeams].sort());
  });

  it.each(patients.map((patient) => [patient.key, patient]))('stores the names of %s exactly, whatever the script', async (_key, patient) => {
    const [row] = await query<{ given_name: string; family_name: string; mrn: string }>(
      `SELECT given_name, family_name, mrn FROM patients WHERE id = $1`,
      [patientId(patient.key)],
    );
    expect(row).toEqual({ given_name: patient.givenName, family_name: patient.familyName, mrn: patient.mrn });
  });

  it('keeps hostile note text verbatim, as data', async () => {
    const expected = [
      ...(fixture('prompt-injection-notes').encounters ?? []).flatMap((encounter) => encounter.notes ?? []),
      ...(fixture('prompt-injection-notes').notes ?? []),
    ].map((note) => note.text);
    const rows = await query<{ text: string }>(`SELECT text FROM clinical_notes WHERE patient_id = $1`, [patientId('prompt-injection-notes')]);
    expect(rows.map((row) => row.text).sort()).toEqual(expected.sort());
    expect(expected.join('\n')).toMatch(/Ignore all previous instructions/);
    expect(expected.join('\n')).toMatch(/DROP TABLE patients/);
    // The SQL-looking text did what text should do: nothing.
    expect((await counts()).patients).toBe(patients.length);
  });

  it.each([
    ['aged-92', `SELECT date_part('year', age($2::date, birth_date))::int AS v FROM patients WHERE id = $1`, 92],
    ['woman-60-no-mammogram', `SELECT date_part('year', age($2::date, birth_date))::int AS v FROM patients WHERE id = $1`, 60],
    ['deceased', `SELECT (deceased_at IS NOT NULL) AS v FROM patients WHERE id = $1 AND $2::date IS NOT NULL`, true],
    ['no-labs', `SELECT count(*)::int AS v FROM observations WHERE patient_id = $1 AND category = 'laboratory' AND $2::date IS NOT NULL`, 0],
    ['demographics-only', `SELECT count(*)::int AS v FROM encounters WHERE patient_id = $1 AND $2::date IS NOT NULL`, 0],
    [
      'diabetes-a1c-stale',
      `SELECT (max(effective_at) < $2::date - interval '12 months') AS v FROM observations WHERE patient_id = $1 AND code = '4548-4'`,
      true,
    ],
    [
      'diabetes-a1c-9-4',
      `SELECT value_numeric::text AS v FROM observations WHERE patient_id = $1 AND code = '4548-4' AND $2::date IS NOT NULL ORDER BY effective_at DESC LIMIT 1`,
      '9.4',
    ],
    [
      'egfr-unit-variant',
      `SELECT string_agg(DISTINCT unit, ' | ' ORDER BY unit) AS v FROM observations WHERE patient_id = $1 AND code = '33914-3' AND $2::date IS NOT NULL`,
      'mL/min | mL/min/{1.73_m2}',
    ],
    [
      'diabetes-snomed',
      `SELECT string_agg(DISTINCT code_system, ',') AS v FROM conditions WHERE patient_id = $1 AND code = '44054006' AND $2::date IS NOT NULL`,
      'http://snomed.info/sct',
    ],
  ])('holds the %s scenario (%s)', async (key, sql, expected) => {
    const [row] = await query<{ v: unknown }>(sql, [patientId(key), TEST_ANCHOR_DATE]);
    expect(row.v).toEqual(expected);
  });

  it('records the last blood pressure of each hypertension scenario as a systolic/diastolic panel', async () => {
    const lastBp = async (key: string) => {
      const rows = await query<{ code: string; value: string }>(
        `SELECT code, value_numeric::text AS value FROM observations
          WHERE panel_id = (SELECT panel_id FROM observations WHERE patient_id = $1 AND code = '8480-6' ORDER BY effective_at DESC LIMIT 1)
          ORDER BY code`,
        [patientId(key)],
      );
      return Object.fromEntries(rows.map((row) => [row.code, Number(row.value)]));
    };
    expect(await lastBp('hypertension-uncontrolled')).toEqual({ '8462-4': 95, '8480-6': 150 });
    expect(await lastBp('hypertension-controlled')).toEqual({ '8462-4': 82, '8480-6': 128 });
  });

  describe('the schema refuses what the vocabularies do not allow', () => {
    it.each([
      ['an unknown sex', `UPDATE patients SET sex = 'x' WHERE id = $1`],
      // Any system URI is kept; free text that is no URI is not a code system.
      ['a condition code system that is no URI', `UPDATE conditions SET code_system = 'ICD 10' WHERE patient_id = $1`],
      ['a medication reason system that is no URI', `UPDATE medications SET reason_system = 'rxnorm' WHERE patient_id = $1`],
      ['an unknown condition verification status', `UPDATE conditions SET verification_status = 'maybe' WHERE patient_id = $1`],
      ['an observation with neither a value nor a reason for its absence', `UPDATE observations SET value_numeric = NULL, value_text = NULL WHERE patient_id = $1`],
      ['an encounter ending before it starts', `UPDATE encounters SET end_at = start_at - interval '1 day' WHERE patient_id = $1`],
      ['an unknown staff role', `UPDATE staff_users SET role = 'admin' WHERE id = (SELECT staff_user_id FROM care_team_members LIMIT 1) AND $1::uuid IS NOT NULL`],
    ])('%s', async (_name, sql) => {
      await expect(query(sql, [patientId('complete-record')])).rejects.toMatchObject({ driverError: { code: '23514' } });
    });
  });
});
