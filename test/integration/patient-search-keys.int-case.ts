import { nameKey } from '../../src/cohort/patient-search-terms';
import { COHORT_STATEMENTS } from '../../src/cohort/cohort.statements';
import { patients } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';

/** Names as people write and type them: punctuation of every kind, accents, scripts, cases. */
const AWKWARD = [
  "O'Brien", 'O’Brien', 'OʼBrien', 'O`Brien', 'Smith-Jones', 'Smith–Jones', 'Smith—Jones', 'Smith‐Jones', 'St. John', 'Van der  Berg',
  'van\u00a0der\u2009berg', 'Núñez', 'NÚÑEZ', 'Ångström', 'Łukasz', 'Øyvind', 'straße', 'İpek', 'ΠΑΠΑΔΌΠΟΥΛΟΣ', 'Παπαδόπουλος', 'Кузнецова',
  'КУЗНЕЦОВА', '高橋', 'الحداد', 'a%b_c\\d', "d'Artagnan-O'Neil Jr.", '  padded  ', 'tab\there',
];

/**
 * Patient search compares name keys: the application keys the term (`nameKey`) as the database keys
 * the stored names (`vigil_name_key`), so the two must agree on every name; and each form of the
 * search is answered through an index on those keys, not a walk of every patient.
 */
describe('patient search name keys', () => {
  const database = useSeededDatabase();
  const query = <T>(sql: string, params: unknown[] = []) => database().dataSource.query(sql, params) as Promise<T[]>;

  it('keys every name in SQL exactly as in the application', async () => {
    const names = [...AWKWARD, ...patients.flatMap((patient) => [patient.familyName, patient.givenName])];
    const rows = await query<{ name: string; key: string }>(`SELECT name, vigil_name_key(name) AS key FROM unnest($1::text[]) name`, [names]);
    expect(rows.map((row) => [row.name, row.key])).toEqual(names.map((name) => [name, nameKey(name)]));
    // And what the keys are for: one key for the ways one name is written.
    for (const same of [["O'Brien", 'O’Brien', 'obrien', 'O Brien'], ['Smith-Jones', 'Smith–Jones', 'smithjones'], ['ΠΑΠΑΔΌΠΟΥΛΟΣ', 'Παπαδόπουλος'], ['Кузнецова', 'КУЗНЕЦОВА']]) {
      expect(new Set(same.map(nameKey)).size).toBe(1);
    }
  });

  describe('plans', () => {
    // The fixture cohort is small enough that a walk is cheapest: without walks, is there an index for each form?
    const plan = async (name: keyof typeof COHORT_STATEMENTS, params: unknown[]) => {
      const runner = database().dataSource.createQueryRunner();
      try {
        await runner.query('BEGIN');
        await runner.query('SET LOCAL enable_seqscan = off');
        const rows: { 'QUERY PLAN': string }[] = await runner.query(`EXPLAIN ${COHORT_STATEMENTS[name]}`, params);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await runner.query('ROLLBACK');
        await runner.release();
      }
    };
    const teams = async () => (await query<{ id: string }>('SELECT id FROM care_teams')).map((team) => team.id);

    it.each([
      ['a family name', ['obrien%', null, null, null], ['IDX_patients_family_name_key']],
      ['a family and a given name', ['obrien%', 'sio%', null, null], ['IDX_patients_family_name_key']],
      // A birth date is as selective as a name: either index will do, and no walk of the patients.
      ['a family name and a birth date', ['obrien%', null, null, '1992-06-30'], []],
      ['a whole name, either way round', [null, null, 'deshawnpruitt%', null], ['IDX_patients_family_given_key', 'IDX_patients_given_family_key']],
    ])('by %s: the name-key indexes', async (_form, patterns, indexes) => {
      const text = await plan('patientsByName', [await teams(), ...patterns, 21]);
      for (const index of indexes) expect(text).toContain(index);
      expect(text).not.toMatch(/Seq Scan on patients/);
    });

    it('by MRN in any case: the upper-case MRN index', async () => {
      const text = await plan('patientsByMrn', [await teams(), 'vgl-000103', 21]);
      expect(text).toContain('IDX_patients_mrn_upper');
    });
  });
});
