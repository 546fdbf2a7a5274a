import request from 'supertest';
import { DataSource } from 'typeorm';
import { COHORT_STATEMENTS, IDENTITY_READ_SESSION_BEGIN, READ_SESSION_BEGIN } from '../../src/cohort/cohort.statements';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { statementsByRunner } from '../setup/statement-capture';
import { TOOL_PATHS } from '../setup/tool-routes';
import { ToolName } from '../../src/tools/tool-names';

const PATIENT = 'complete-record';
const OPENINGS = [READ_SESSION_BEGIN, IDENTITY_READ_SESSION_BEGIN];
/** The identity lookups (one runs when the identity is not answered from the cache). */
const IDENTITY = new Set([COHORT_STATEMENTS.staffUserByUsername, COHORT_STATEMENTS.staffUserBySubject, COHORT_STATEMENTS.staffUserByEmail, COHORT_STATEMENTS.staffUserByNpi].map((text) => text.trim()));
/** Each tool's one statement: the access probe, the patient's row and the tool's rows. */
const TOOL_STATEMENT: Record<ToolName, string> = {
  patient_labs: COHORT_STATEMENTS.gatedLaboratoryResults,
  patient_encounters: COHORT_STATEMENTS.gatedEncounters,
  care_gap_lookup: COHORT_STATEMENTS.gatedChartWithAttestations,
  missing_data_check: COHORT_STATEMENTS.gatedChart,
  feature_attribution: COHORT_STATEMENTS.gatedChart,
};

/**
 * A tool request's cohort reads as the connection sees them: the caller's identity, the access probe
 * and the tool's statements in one read transaction (one BEGIN, one COMMIT), the open read handed
 * from the auth guard to the tool through the request. That no AsyncLocalStorage carries it is the
 * `async-context` case's to show, for the whole compiled process.
 */
describe('a tool request\'s cohort reads', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
  });
  afterAll(() => sut.close());

  const ask = (tool: ToolName) => async () => {
    const { username } = userFor(StaffRole.Clinician, PATIENT);
    const res = await request(sut.app.getHttpServer()).get(`/patients/${patientIdOf(PATIENT)}/${TOOL_PATHS[tool]}`).set('authorization', `Bearer ${await sut.tokenFor(username)}`);
    expect(res.status).toBe(200);
  };
  const labs = ask('patient_labs');

  it('reads the identity, the access probe and the tool\'s statements in one transaction: one BEGIN, one COMMIT', async () => {
    await labs(); // the first request of a process may read the identity generation's cache cold
    const byRunner = await statementsByRunner(sut.app.get(DataSource), labs);
    // Other connections (the audit's writes) run in the log too: only read sessions are ours.
    const reads = [...byRunner.values()].filter((statements) => statements.some((text) => OPENINGS.includes(text)));
    expect(reads).toHaveLength(1);
    const [statements] = reads;
    expect(statements.filter((text) => OPENINGS.includes(text))).toHaveLength(1);
    expect(OPENINGS).toContain(statements[0]);
    expect(statements.filter((text) => text === 'COMMIT')).toEqual(['COMMIT']);
    expect(statements[statements.length - 1]).toBe('COMMIT');
    expect(statements).toContain(COHORT_STATEMENTS.gatedLaboratoryResults.trim());
  });

  it.each(Object.keys(TOOL_STATEMENT) as ToolName[])('%s: reads the access probe, the patient and its rows in one statement, and no probe or patient row of its own', async (tool) => {
    await ask(tool)();
    const byRunner = await statementsByRunner(sut.app.get(DataSource), ask(tool));
    const [statements] = [...byRunner.values()].filter((texts) => texts.some((text) => OPENINGS.includes(text)));
    const read = statements.filter((text) => !OPENINGS.includes(text) && text !== 'COMMIT' && !IDENTITY.has(text));
    expect(read).toEqual([TOOL_STATEMENT[tool].trim()]);
    expect(statements).not.toContain(COHORT_STATEMENTS.patientAccess.trim());
    expect(statements).not.toContain(COHORT_STATEMENTS.patientById.trim());
  });
});
