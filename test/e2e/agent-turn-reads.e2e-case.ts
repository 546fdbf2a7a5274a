import { Client } from 'pg';
import request from 'supertest';
import { COHORT_STATEMENTS } from '../../src/cohort/cohort.statements';
import { IDENTITY_GENERATION } from '../../src/cohort/read-session.statements';
import { StaffRole } from '../../src/common/roles';
import { ReaderPool } from '../../src/database/reader-pool';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, patients, sharesTeam, userFor, activeUsers } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { statementsByRunner } from '../setup/statement-capture';
import { FakeModel, finalAnswer, toolResultsIn } from '../setup/fake-model';

const PATIENT = 'complete-record';
const turnsOf = (patient: string) => `/patients/${patientIdOf(patient)}/agent/turns`;
/** The identity's statements: its generation (when the cache answers) or one of the staff lookups. */
const IDENTITY = new Set(
  [IDENTITY_GENERATION, COHORT_STATEMENTS.staffUserByUsername, COHORT_STATEMENTS.staffUserBySubject, COHORT_STATEMENTS.staffUserByEmail, COHORT_STATEMENTS.staffUserByNpi].map((text) =>
    text.trim(),
  ),
);

/**
 * How many read transactions a turn opens (issue 15: every round trip of a turn is the clinician's
 * wait). The route's identity lookup leaves its read open for the turn's access check
 * (`IdentityInRead`), so a turn that calls three tools opens four: one for who is asking and may they,
 * one per tool. It opened five when the access check had a transaction of its own. Each is one
 * statement after the identity, the access probe folded in, as a tool request's over REST.
 */
describe('agent turn: read transactions', () => {
  const database = useSeededDatabase();
  const model = new FakeModel();
  let sut: TestApp;
  beforeAll(async () => {
    await model.start();
    sut = await createTestApp({ databaseUrl: database().url, env: { AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted' } });
  });
  afterAll(async () => {
    await sut.close();
    await model.stop();
  });

  const ask = async (patient: string, username: string) =>
    request(sut.app.getHttpServer())
      .post(turnsOf(patient))
      .set('authorization', `Bearer ${await sut.tokenFor(username)}`)
      .send({ question: 'What are the latest labs, open gaps and missing data?' });

  it('opens one read for the identity and access check and one per tool', async () => {
    model.script([
      { toolCalls: [{ name: 'patient_labs', arguments: '{}' }, { name: 'care_gap_lookup', arguments: '{}' }, { name: 'missing_data_check', arguments: '{}' }] },
      (req) => {
        const lab = toolResultsIn(req)
          .flatMap((result) => (result.rows as { citation?: string }[] | undefined) ?? [])
          .find((row) => String(row.citation).startsWith('obs:'));
        return finalAnswer('answered', [{ kind: 'lab_value', citations: [lab?.citation as string] }]);
      },
    ]);
    let status = 0;
    // Each read takes a connection of the reader pool of its own and sends no BEGIN.
    const reads = await statementsByRunner(sut.app.get(ReaderPool).dataSource!, async () => {
      const res = await ask(PATIENT, userFor(StaffRole.Clinician, PATIENT).username);
      status = res.status;
      expect(res.body).toMatchObject({ status: 'answered', usage: { toolCalls: 3 } });
    });
    expect(status).toBe(200);
    expect(reads.size).toBe(4);
    expect([...reads.values()].flat().filter((statement) => /^BEGIN\b/.test(statement))).toEqual([]);
    // Each read is one gated statement after the identity, as a tool request over REST: the turn's
    // access check and the patient's row (for the question) in one, then each tool's own.
    const gated = [...reads.values()].map((statements) => statements.filter((statement) => !IDENTITY.has(statement)));
    expect(gated.sort()).toEqual(
      [COHORT_STATEMENTS.gatedPatient, COHORT_STATEMENTS.gatedLaboratoryResults, COHORT_STATEMENTS.gatedCareGapChart, COHORT_STATEMENTS.gatedMissingDataChart].map((text) => [text.trim()]).sort(),
    );
  });

  it('commits the audit rows of one reply’s reads in one transaction', async () => {
    const tools = ['patient_labs', 'care_gap_lookup', 'missing_data_check'];
    model.script([
      { toolCalls: tools.map((name) => ({ name, arguments: '{}' })) },
      (req) => {
        const lab = toolResultsIn(req)
          .flatMap((result) => (result.rows as { citation?: string }[] | undefined) ?? [])
          .find((row) => String(row.citation).startsWith('obs:'));
        return finalAnswer('answered', [{ kind: 'lab_value', citations: [lab?.citation as string] }]);
      },
    ]);
    const res = await ask(PATIENT, userFor(StaffRole.Clinician, PATIENT).username);
    expect(res.body).toMatchObject({ status: 'answered', usage: { toolCalls: 3 } });
    // One row per read, all written by one transaction (one commit on the turn's way, not one per read);
    // xact_id is the transaction that wrote the row.
    const reads = await database().dataSource.query<{ action: string; outcome: string; xact: string }[]>(
      `SELECT action, outcome, xact_id::text AS xact FROM audit_events WHERE correlation_id = $1 AND channel = 'agent' ORDER BY action`,
      [res.headers['x-correlation-id']],
    );
    expect(reads.map((row) => [row.action, row.outcome])).toEqual([...tools].sort().map((action) => [action, 'success']));
    expect(new Set(reads.map((row) => row.xact)).size).toBe(1);
  });

  it('shows the model none of a reply’s rows when their shared audit write cannot commit', async () => {
    // A real stall, not a mock: another connection holds a lock every audit insert waits on.
    const blocker = new Client({ connectionString: database().url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE audit_events IN SHARE MODE');
    let shown: Record<string, unknown>[] = [];
    try {
      model.script([
        { toolCalls: [{ name: 'patient_labs', arguments: '{}' }, { name: 'missing_data_check', arguments: '{}' }] },
        (req) => {
          shown = toolResultsIn(req);
          // The reads were refused: the stall ends so that the turn's own row can be written.
          void blocker.query('ROLLBACK');
          return finalAnswer('insufficient_data');
        },
      ]);
      const res = await ask(PATIENT, userFor(StaffRole.Clinician, PATIENT).username);
      expect(res.status).toBe(200);
      expect(res.body.toolCalls.map((call: { status: string }) => call.status)).toEqual(['audit_unavailable', 'audit_unavailable']);
      expect(shown.map((result) => [result.tool, result.rows])).toEqual([['patient_labs', undefined], ['missing_data_check', undefined]]);
      expect(JSON.stringify(shown)).not.toMatch(/obs:/);
      // The turn's own row says nothing was read. (A read's row whose write was still waiting when its
      // caller gave up may land after the stall: an attempt on the trail, never rows without their record.)
      const rows = await database().dataSource.query<{ action: string; outcome: string }[]>(
        `SELECT action, outcome FROM audit_events WHERE correlation_id = $1 AND action = 'agent_turn'`,
        [res.headers['x-correlation-id']],
      );
      expect(rows).toEqual([{ action: 'agent_turn', outcome: 'empty' }]);
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      await blocker.end();
    }
  }, 30_000);

  it('still refuses a patient off the clinician’s teams with the tools’ 404, leaving no read open', async () => {
    const patient = patients.find((candidate) => activeUsers.some((user) => user.role === StaffRole.Clinician && !sharesTeam(user, candidate)))!;
    const outsider = activeUsers.find((user) => user.role === StaffRole.Clinician && !sharesTeam(user, patient))!;
    const res = await ask(patient.key, outsider.username);
    expect(res.status).toBe(404);
    // Every connection the request took went back to the pool idle: no transaction left open. Only
    // the request pools' connections (`vigil`, `vigil-reader`): the audit sealer's own connection may be caught
    // between two statements of its transaction, which says nothing about the request. A background
    // task on the pool (a sweep, the audit's own writes) can be caught the same way for a moment, so
    // the count is read until it is 0, for up to 3 s: a read the request left open never ends.
    const openReads = async () => database().dataSource.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name IN ('vigil', 'vigil-reader') AND state LIKE 'idle in transaction%'`,
    );
    let open = await openReads();
    for (let attempt = 0; attempt < 30 && open[0].n !== 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      open = await openReads();
    }
    expect(open).toEqual([{ n: 0 }]);
  });
});
