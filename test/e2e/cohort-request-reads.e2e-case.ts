import request from 'supertest';
import { DataSource } from 'typeorm';
import { COHORT_STATEMENTS } from '../../src/cohort/cohort.statements';
import { IDENTITY_GENERATION } from '../../src/cohort/read-session.statements';
import { StaffRole } from '../../src/common/roles';
import { ReaderPool } from '../../src/database/reader-pool';
import { ToolName } from '../../src/tools/tool-names';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { statementsByRunner } from '../setup/statement-capture';
import { TOOL_PATHS } from '../setup/tool-routes';

const PATIENT = 'complete-record';
/** What a read on a connection that is already `vigil_reader` and read-only has no need to send. */
const TRANSACTION_CONTROL = /^(BEGIN|COMMIT|ROLLBACK|SET|START)\b/i;
/** The identity's statements: its generation (when the cache answers) or one of the staff lookups. */
const IDENTITY = new Set(
  [IDENTITY_GENERATION, COHORT_STATEMENTS.staffUserByUsername, COHORT_STATEMENTS.staffUserBySubject, COHORT_STATEMENTS.staffUserByEmail, COHORT_STATEMENTS.staffUserByNpi].map((text) =>
    text.trim(),
  ),
);
/** Each tool's one statement: the access probe, the patient's row and the tool's rows. */
const TOOL_STATEMENT: Record<ToolName, string> = {
  patient_labs: COHORT_STATEMENTS.gatedLaboratoryResults,
  patient_encounters: COHORT_STATEMENTS.gatedEncounters,
  care_gap_lookup: COHORT_STATEMENTS.gatedCareGapChart,
  missing_data_check: COHORT_STATEMENTS.gatedMissingDataChart,
  feature_attribution: COHORT_STATEMENTS.gatedChart,
};

/**
 * A tool request's cohort reads as the connections see them, on a Postgres server: the caller's
 * identity (or the identity generation, when the cache answers), then the tool's one statement (the
 * access probe, the patient's row and its rows) on one connection of the reader pool, with no BEGIN
 * and no COMMIT, the connection held from the auth guard to the tool through the request. That no
 * AsyncLocalStorage carries it is the `async-context` case's to show, for the whole compiled process.
 */
describe('a tool request\'s cohort reads', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let reader: DataSource;
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    reader = sut.app.get(ReaderPool).dataSource!;
  });
  afterAll(() => sut.close());

  const ask = (tool: ToolName) => async () => {
    const { username } = userFor(StaffRole.Clinician, PATIENT);
    const res = await request(sut.app.getHttpServer()).get(`/patients/${patientIdOf(PATIENT)}/${TOOL_PATHS[tool]}`).set('authorization', `Bearer ${await sut.tokenFor(username)}`);
    expect(res.status).toBe(200);
  };
  const labs = ask('patient_labs');
  const cohortStatements = new Set([IDENTITY_GENERATION, ...Object.values(COHORT_STATEMENTS)].map((text) => text.trim()));

  it('reads the identity and the tool\'s statement on one reader connection: no BEGIN, no COMMIT, only cohort statements', async () => {
    await labs(); // the first request of a process may read the identity generation's cache cold
    let onService = new Map<unknown, string[]>();
    const onReader = await statementsByRunner(reader, async () => {
      onService = await statementsByRunner(sut.app.get(DataSource), labs);
    });
    expect(onReader.size).toBe(1);
    const [statements] = [...onReader.values()];
    expect(statements.filter((text) => TRANSACTION_CONTROL.test(text))).toEqual([]);
    expect(statements.filter((text) => !cohortStatements.has(text))).toEqual([]);
    // The identity (its generation, or the staff row) first, before any other statement of the read.
    expect(IDENTITY.has(statements[0])).toBe(true);
    expect(statements).toContain(COHORT_STATEMENTS.gatedLaboratoryResults.trim());
    // The service's pool (the audit's writes) runs none of the request's reads.
    expect([...onService.values()].flat().filter((text) => cohortStatements.has(text))).toEqual([]);
  });

  it.each(Object.keys(TOOL_STATEMENT) as ToolName[])('%s: reads the access probe, the patient and its rows in one statement, and no probe or patient row of its own', async (tool) => {
    await ask(tool)();
    const onReader = await statementsByRunner(reader, ask(tool));
    expect(onReader.size).toBe(1);
    const [statements] = [...onReader.values()];
    expect(statements.filter((text) => !IDENTITY.has(text))).toEqual([TOOL_STATEMENT[tool].trim()]);
  });

  it('reads as vigil_reader on connections that refuse a write', async () => {
    await labs();
    expect(await reader.query(`SELECT current_user AS "user", current_setting('transaction_read_only') AS "readOnly"`)).toEqual([{ user: 'vigil_reader', readOnly: 'on' }]);
    await expect(reader.query(`UPDATE staff_users SET active = false WHERE username = $1`, [userFor(StaffRole.Clinician, PATIENT).username])).rejects.toThrow(
      /read-only transaction/,
    );
    await labs();
  });
});
