import { MAX_CARE_GAP_MEASURES } from '../../src/tools/dto/care-gaps-query.dto';
import request from 'supertest';
import { TOOL_NAMES } from '../../src/tools/tool-names';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { TOOL_PATHS } from '../setup/tool-routes';

const PATIENT = patientIdOf('diabetes-a1c-8-1');

/** Hostile and malformed input gets a 4xx problem response: never a 5xx, never data. */
describe('bad input', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let token: string;
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    token = await sut.tokenFor('dr.okafor');
  });
  afterAll(() => sut.close());

  const badIds = [
    'not-a-uuid',
    "1' OR '1'='1",
    '..%2F..%2Fetc%2Fpasswd',
    '%00',
    '00000000-0000-0000-0000-00000000000g',
    `${PATIENT}%27%3B%20DROP%20TABLE%20patients%3B--`,
    'x'.repeat(300),
  ];
  const badQueries: Record<string, string[]> = {
    patient_encounters: [
      'from=2026-13-01',
      'from=2026-02-30',
      'from=yesterday',
      'to=2026-01-01&from=2026-06-01',
      "from=2026-01-01'%20OR%201=1--",
      'class=inpatient%3BDROP',
      'class=surgery',
      'limit=100000',
      'patientId=00000000-0000-0000-0000-000000000000',
      'from=1800-01-01',
    ],
    patient_labs: [
      `code=${Array.from({ length: 21 }, (_, i) => `${1000 + i}-1`).join(',')}`,
      "code=4548-4'%20OR%201=1",
      'code=../../etc/passwd',
      'code=',
      'codes=4548-4',
      'sql=SELECT%20*%20FROM%20patients',
    ],
    care_gap_lookup: ['measure=CMS999', `measure=${Array(MAX_CARE_GAP_MEASURES + 1).fill('CMS122').join(',')}`, 'measure=cms122', 'asOf=2026-06-31', 'asOf[]=x'],
    missing_data_check: ['asOf=tomorrow', 'asOf=2026-06-30T00:00:00Z', 'verbose=true'],
    feature_attribution: ['asOf=0', 'model=other', 'asOf=2026-06-30&asOf=2026-06-29'],
  };

  const get = (path: string) => request(sut.app.getHttpServer()).get(path).set('authorization', `Bearer ${token}`);

  function expectRefused(res: request.Response) {
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.rows).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toMatch(/VGL-|DROP TABLE|SELECT \*/);
  }

  it.each(TOOL_NAMES.flatMap((tool) => badIds.map((id) => [tool, id])))('%s refuses the patient id %s', async (tool, id) => {
    expectRefused(await get(`/patients/${id}/${TOOL_PATHS[tool as keyof typeof TOOL_PATHS]}`));
  });

  it.each(TOOL_NAMES.flatMap((tool) => badQueries[tool].map((query) => [tool, query])))('%s refuses ?%s', async (tool, query) => {
    const res = await get(`/patients/${PATIENT}/${TOOL_PATHS[tool as keyof typeof TOOL_PATHS]}?${query}`);
    expectRefused(res);
    expect(res.status).toBe(400);
    expect(res.body.errors?.length).toBeGreaterThan(0);
  });

  it('names an unknown parameter so the caller can recover', async () => {
    const res = await get(`/patients/${PATIENT}/labs?codes=4548-4`);
    expect(res.body.errors).toContainEqual({ field: 'codes', reason: 'unknown_field', message: 'codes is not a known field' });
  });

  it.each(['periodStart=2025-01-01&periodEnd=2025-12-31', 'periodStart=2025-01-01', 'periodEnd=2025-12-31'])(
    'refuses asOf beside ?%s rather than ignore one of them, naming asOf',
    async (period) => {
      const res = await get(`/patients/${PATIENT}/care-gaps?asOf=2026-06-30&${period}`);
      expectRefused(res);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'validation_failed' });
      expect(res.body.errors).toContainEqual({ field: 'asOf', reason: 'conflictsWithPeriod', message: 'asOf must not be combined with periodStart and periodEnd' });
    },
  );

  it('audits a refused request as invalid, with the patient it named', async () => {
    const res = await get(`/patients/${PATIENT}/labs?codes=4548-4`);
    const [event] = await database().dataSource.query(`SELECT outcome, patient_id, row_count FROM audit_events WHERE correlation_id = $1`, [
      res.headers['x-correlation-id'],
    ]);
    expect(event).toEqual({ outcome: 'invalid', patient_id: PATIENT, row_count: 0 });
  });

  it('changes nothing: the cohort is intact after all of it', async () => {
    const [row] = await database().dataSource.query(`SELECT count(*)::int AS n FROM patients`);
    expect(row.n).toBeGreaterThanOrEqual(30);
  });
});
