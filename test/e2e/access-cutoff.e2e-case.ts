import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AccessContext } from '../../src/access/access-context';
import { APPROVAL_STATEMENTS } from '../../src/approvals/approvals.sql';
import { CreateProposalDto } from '../../src/approvals/dto/proposal-requests.dto';
import { ProposalKind } from '../../src/approvals/enum';
import { ProposalEventStream } from '../../src/approvals/events/proposal-event-stream';
import { ProposalExecutor } from '../../src/approvals/proposal-executor';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { COMMANDS } from '../../src/cli/commands';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { dataSourceOptions } from '../../src/data-source';
import { createTestApp, TestApp } from '../setup/app';
import { sealAndVerify } from '../setup/audit-seal';
import { accessOf } from '../setup/callers';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { baseUrlOf, EventStreamClient, openEventStream, StreamEvent } from '../setup/event-stream';
import { connectMcp, TestMcpClient } from '../setup/mcp-client';
import { TEST_ANCHOR_DATE } from '../setup/test-database';

const NORTH_ONLY = 'diabetes-a1c-9-4';
const SOUTH_ONLY = 'south-asthma';
const BOTH_TEAMS = 'japanese-name';
const obsOf = (key: string) => `obs:${fixtureId('patient', key, 'observation', '0')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let notes = 0;
const note = (patient: string): CreateProposalDto => ({
  kind: ProposalKind.AddCareNote,
  content: { noteType: 'care-plan', text: `Plan discussed, follow-up booked (${(notes += 1)}).` },
  rationale: 'Rationale for the reviewer, with evidence.',
  citations: [obsOf(patient)],
});
const labOrder = (patient: string, loincCode: string): CreateProposalDto => ({
  kind: ProposalKind.OrderLab,
  content: { loincCode, priority: 'routine', reason: 'Kidney health evaluation needs a uACR' },
  rationale: 'Rationale for the reviewer, with evidence.',
  citations: [obsOf(patient)],
});

/**
 * Deactivating a person, or removing them from a care team, takes effect at once on every API
 * process: their open event streams end (or stop carrying the team), their MCP sessions end, their
 * drafts expire and their approvals stop counting. The admin command runs as it does from the shell,
 * on a connection of its own (another process's, for Postgres), against an API that listens.
 */
describe('access cut-off by the admin command', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let base: string;
  let admin: DataSource;
  let proposals: ProposalsService;
  let executor: ProposalExecutor;
  const streams: EventStreamClient[] = [];
  const clients: TestMcpClient[] = [];

  beforeAll(async () => {
    // Nothing executes behind the test's back: it runs the executor itself.
    sut = await createTestApp({ databaseUrl: database().url, queueSettings: { workersInApi: false } });
    await sut.app.listen(0, '127.0.0.1');
    base = baseUrlOf(sut.app.getHttpServer());
    proposals = sut.app.get(ProposalsService);
    executor = sut.app.get(ProposalExecutor);
    executor.clock = () => new Date(`${TEST_ANCHOR_DATE}T12:00:00Z`);
    // Only the notification can end a stream within a second: its own check waits a minute here.
    (sut.app.get(ProposalEventStream) as unknown as { settings: { pollMs: number } }).settings.pollMs = 60_000;
    admin = new DataSource(dataSourceOptions({ url: database().url, poolSize: 2 }));
    await admin.initialize();
  });
  afterAll(async () => {
    streams.forEach((stream) => stream.close());
    await Promise.all(clients.map((client) => client.client.close().catch(() => undefined)));
    await admin?.destroy();
    await sut?.close();
  });

  const sql = <R = Record<string, unknown>>(text: string, params: unknown[] = []) => database().dataSource.query<R[]>(text, params);
  const as = async (username: string): Promise<AccessContext> => ({ ...(await accessOf(database().dataSource, username)), correlationId: randomUUID() });
  const staffId = (username: string) => fixtureId('staff', username);
  /** The admin command, with the arguments a shell would give it; resolves once it has committed. */
  const runAdmin = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await COMMANDS.admin.run(admin, args, (line) => lines.push(line));
    return { code, lines, committedAt: Date.now() };
  };
  const openStream = async (username: string) => {
    const stream = await openEventStream(base, '/proposals/events', await sut.tokenFor(username));
    expect(stream.status).toBe(200);
    streams.push(stream);
    return stream;
  };
  const endedAt = (stream: EventStreamClient) => stream.ended.then(() => Date.now());
  /** Milliseconds from `since` to the stream's end, or 'still open' a second and a half after `since`. */
  const endsAfter = async (ended: Promise<number>, since: number) => {
    const at = await Promise.race([ended, sleep(Math.max(0, since + 1_500 - Date.now())).then(() => null)]);
    return at === null ? 'still open' : at - since;
  };
  /** The API's notification connection is listening (it opens with the first stream), so what is told now is heard. */
  const untilListening = async () => {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const [{ n }] = await admin.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'vigil-notifications' AND query LIKE 'LISTEN%'`,
      );
      if (n > 0) return;
      await sleep(50);
    }
    throw new Error('the API never listened for notifications');
  };
  const mcpSession = async (username: string, patient: string) => {
    const token = await sut.tokenFor(username);
    const client = await connectMcp(base, patientIdOf(patient), () => token);
    clients.push(client);
    await client.client.listTools();
    return client;
  };
  const sessionsOf = async (username: string) =>
    (await sql<{ patientId: string }>(`SELECT patient_id AS "patientId" FROM mcp_sessions WHERE user_id = $1 ORDER BY patient_id`, [staffId(username)])).map((row) => row.patientId);
  const statusOf = async (id: string) => (await sql<{ status: string }>(`SELECT status FROM proposals WHERE id = $1`, [id]))[0].status;
  /** Counting approvals of a proposal's first version, by the workflow's own statement. */
  const counting = async (id: string) => {
    const [{ hash }] = await sql<{ hash: string }>(`SELECT content_hash AS hash FROM proposal_versions WHERE proposal_id = $1 AND version = 1`, [id]);
    return (await sql<{ n: number }>(APPROVAL_STATEMENTS.countApprovals, [id, 1, hash]))[0].n;
  };
  const approvalsGiven = async (reader: string, id: string) => (await proposals.list(await as(reader), { limit: 100 })).items.find((item) => item.id === id)?.approvalsGiven;
  const cutOffEvents = (correlationId: string) =>
    sql(
      `SELECT action, patient_id AS "patientId", target_staff_id AS "targetStaffId", fields FROM audit_events
       WHERE correlation_id = $1 AND action NOT LIKE 'admin.%' ORDER BY id`,
      [correlationId],
    );
  const correlationOf = async (action: string, username: string) =>
    (await sql<{ id: string }>(`SELECT correlation_id AS id FROM audit_events WHERE action = $1 AND target_staff_id = $2 ORDER BY id DESC LIMIT 1`, [action, staffId(username)]))[0].id;

  it('deactivation: the person’s open stream and MCP session end within a second, their draft expires and their approvals stop counting', async () => {
    // A clinician with a live queue stream, an MCP session and a draft.
    const clinicianStream = await openStream('dr.lindqvist');
    const clinicianMcp = await mcpSession('dr.lindqvist', NORTH_ONLY);
    const draft = await proposals.createDraft(await as('dr.lindqvist'), patientIdOf(NORTH_ONLY), note(NORTH_ONLY), randomUUID());
    // A reviewer with a live stream, one approval of two on a lab order, and the one approval a care note needed.
    const reviewerStream = await openStream('rev.nakamura');
    const lab = await proposals.create(await as('dr.okafor'), patientIdOf(NORTH_ONLY), labOrder(NORTH_ONLY, '9318-7'));
    await proposals.approve(await as('rev.nakamura'), lab.id, { version: 1 });
    const careNote = await proposals.create(await as('dr.okafor'), patientIdOf(NORTH_ONLY), note(NORTH_ONLY));
    expect((await proposals.approve(await as('rev.nakamura'), careNote.id, { version: 1 })).status).toBe('approved');
    expect(await approvalsGiven('rev.santos', lab.id)).toBe(1);
    await untilListening();

    const clinicianEnd = endedAt(clinicianStream);
    const reviewerEnd = endedAt(reviewerStream);
    const clinician = await runAdmin('staff', 'deactivate', '--username', 'dr.lindqvist');
    const reviewer = await runAdmin('staff', 'deactivate', '--username', 'rev.nakamura');
    expect(clinician.code).toBe(0);
    expect(clinician.lines).toEqual([
      'Deactivated dr.lindqvist: their tokens are refused from the next request on, their open event streams end.',
      'Cut off: 1 MCP session ended, 1 draft expired, 0 approvals no longer counting.',
    ]);
    expect(reviewer.lines[1]).toBe('Cut off: 0 MCP sessions ended, 0 drafts expired, 2 approvals no longer counting (1 approved proposal back in review).');

    // Both streams end within a second of the commit, with a last comment saying why.
    expect(await endsAfter(clinicianEnd, clinician.committedAt)).toBeLessThan(1_000);
    expect(await endsAfter(reviewerEnd, reviewer.committedAt)).toBeLessThan(1_000);
    expect(clinicianStream.comments.at(-1)).toBe('access ended');
    expect(reviewerStream.comments.at(-1)).toBe('access ended');
    // The MCP session is gone on every process at the commit; its next request is refused.
    expect(await sessionsOf('dr.lindqvist')).toEqual([]);
    await expect(clinicianMcp.client.listTools()).rejects.toMatchObject({ code: 401 });

    // The draft expired, as at its deadline; nobody can submit it now.
    expect(await statusOf(draft.id)).toBe('expired');
    // The approvals are still in the log, each followed by the system's discount, and count no more.
    expect(await approvalsGiven('rev.santos', lab.id)).toBe(0);
    const decisions = await sql(`SELECT decision, actor_id AS "actorId", actor_role AS "actorRole", reason FROM proposal_decisions WHERE proposal_id = $1 ORDER BY created_at, id`, [lab.id]);
    expect(decisions).toEqual([
      { decision: 'approve', actorId: staffId('rev.nakamura'), actorRole: 'reviewer', reason: null },
      { decision: 'discount', actorId: staffId('rev.nakamura'), actorRole: 'reviewer', reason: 'No longer counts: the approver was deactivated.' },
    ]);
    // The approved care note had not executed: back in review, and a job already on its way does nothing.
    expect(await statusOf(careNote.id)).toBe('pending');
    expect(await executor.execute(careNote.id)).toBe('noop');
    expect(await sql(`SELECT count(*)::int AS n FROM care_notes WHERE proposal_id = $1`, [careNote.id])).toEqual([{ n: 0 }]);
    // A reviewer who still may decide approves it again, and it executes once.
    expect((await proposals.approve(await as('rev.santos'), careNote.id, { version: 1 })).status).toBe('approved');
    expect(await executor.execute(careNote.id)).toBe('applied');
    expect(await executor.execute(careNote.id)).toBe('noop');
    expect(await sql(`SELECT count(*)::int AS n FROM care_notes WHERE proposal_id = $1`, [careNote.id])).toEqual([{ n: 1 }]);

    // Every step is audited with the admin change's correlation id, naming the patient and the person.
    expect(await cutOffEvents(await correlationOf('admin.staff.deactivate', 'dr.lindqvist'))).toEqual([
      { action: 'mcp.session.end', patientId: patientIdOf(NORTH_ONLY), targetStaffId: staffId('dr.lindqvist'), fields: [expect.stringMatching(/^session:/), 'cause:deactivated'] },
      { action: 'proposal.draft_expire', patientId: patientIdOf(NORTH_ONLY), targetStaffId: staffId('dr.lindqvist'), fields: [`proposal:${draft.id}`, 'cause:deactivated'] },
    ]);
    expect(await cutOffEvents(await correlationOf('admin.staff.deactivate', 'rev.nakamura'))).toEqual(
      expect.arrayContaining([
        { action: 'proposal.approval_discount', patientId: patientIdOf(NORTH_ONLY), targetStaffId: staffId('rev.nakamura'), fields: [`proposal:${lab.id}`, expect.stringMatching(/^hash:/), 'cause:deactivated'] },
        {
          action: 'proposal.approval_discount',
          patientId: patientIdOf(NORTH_ONLY),
          targetStaffId: staffId('rev.nakamura'),
          fields: [`proposal:${careNote.id}`, expect.stringMatching(/^hash:/), 'cause:deactivated', 'status:pending'],
        },
      ]),
    );
    expect(await sealAndVerify(database().dataSource)).toMatchObject({ ok: true });
  }, 30_000);

  it('removal from one care team: only that team’s patients are cut off; the stream stays open without that team’s changes', async () => {
    // A reviewer on both teams, with a pending approval on a north-only patient and one on a patient of both teams.
    expect((await runAdmin('team', 'add-member', '--team', 'primary-care-south', '--username', 'rev.santos')).code).toBe(0);
    const northLab = await proposals.create(await as('dr.okafor'), patientIdOf(NORTH_ONLY), labOrder(NORTH_ONLY, '2160-0'));
    const sharedLab = await proposals.create(await as('dr.okafor'), patientIdOf(BOTH_TEAMS), labOrder(BOTH_TEAMS, '2160-0'));
    await proposals.approve(await as('rev.santos'), northLab.id, { version: 1 });
    await proposals.approve(await as('rev.santos'), sharedLab.id, { version: 1 });
    // A clinician on both teams, with a stream, MCP sessions and drafts on a north-only and a shared patient.
    const stream = await openStream('dr.castellanos');
    const northMcp = await mcpSession('dr.castellanos', NORTH_ONLY);
    const sharedMcp = await mcpSession('dr.castellanos', BOTH_TEAMS);
    const northDraft = await proposals.createDraft(await as('dr.castellanos'), patientIdOf(NORTH_ONLY), note(NORTH_ONLY), randomUUID());
    const sharedDraft = await proposals.createDraft(await as('dr.castellanos'), patientIdOf(BOTH_TEAMS), note(BOTH_TEAMS), randomUUID());
    await untilListening();

    const clinician = await runAdmin('team', 'remove-member', '--team', 'primary-care-north', '--username', 'dr.castellanos');
    expect(clinician.lines[1]).toBe('Cut off: 1 MCP session ended, 1 draft expired, 0 approvals no longer counting.');
    const reviewer = await runAdmin('team', 'remove-member', '--team', 'primary-care-north', '--username', 'rev.santos');
    expect(reviewer.lines[1]).toBe('Cut off: 0 MCP sessions ended, 0 drafts expired, 1 approval no longer counting.');

    // The north-only session is unknown now (404, the token still good); the shared one answers.
    expect(await sessionsOf('dr.castellanos')).toEqual([patientIdOf(BOTH_TEAMS)]);
    await expect(northMcp.client.listTools()).rejects.toMatchObject({ code: 404 });
    await expect(sharedMcp.client.listTools()).resolves.toBeDefined();
    expect([await statusOf(northDraft.id), await statusOf(sharedDraft.id)]).toEqual(['expired', 'draft']);
    // The reviewer's north approval no longer counts; the shared patient's still does (they see it through south).
    expect(await approvalsGiven('rev.kowalski', sharedLab.id)).toBe(1);
    expect(await counting(northLab.id)).toBe(0);
    expect(await sql(`SELECT decision, reason FROM proposal_decisions WHERE proposal_id = $1 AND decision = 'discount'`, [northLab.id])).toEqual([
      { decision: 'discount', reason: 'No longer counts: the approver is no longer on a care team of the patient.' },
    ]);

    // The stream stays open, and carries the south team's changes but no longer the north's.
    const north = await proposals.create(await as('dr.okafor'), patientIdOf(NORTH_ONLY), note(NORTH_ONLY));
    const south = await proposals.create(await as('dr.ferreira'), patientIdOf(SOUTH_ONLY), note(SOUTH_ONLY));
    await stream.next((event: StreamEvent) => (event.data as { id: string }).id === south.id);
    expect(stream.events.map((event) => (event.data as { id: string }).id)).not.toContain(north.id);
    expect(stream.comments).not.toContain('access ended');
  }, 30_000);
});
