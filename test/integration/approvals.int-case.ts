import { randomUUID } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { ProposalExecutor } from '../../src/approvals/proposal-executor';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { ProposalKind, ProposalStatus } from '../../src/approvals/enum';
import { AccessContext } from '../../src/access/access-context';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createTestApp, TestApp } from '../setup/app';
import { sealAndVerify } from '../setup/audit-seal';
import { accessOf } from '../setup/callers';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { dueInDays } from '../setup/due-dates';
import { TEST_ANCHOR_DATE } from '../setup/test-database';

const PATIENT = 'diabetes-a1c-9-4';
const obsOf = (key: string, index: number) => `obs:${fixtureId('patient', key, 'observation', String(index))}`;

const CONTENT: Record<ProposalKind, Record<string, unknown>> = {
  [ProposalKind.CloseCareGap]: { measureId: 'CMS122' },
  [ProposalKind.OrderLab]: { loincCode: '9318-7', priority: 'routine', reason: 'Kidney health evaluation needs a uACR' },
  [ProposalKind.AddCareNote]: { noteType: 'care-plan', text: 'Discussed insulin titration; follow up in 4 weeks.' },
  [ProposalKind.ScheduleOutreach]: { channel: 'phone', dueDate: dueInDays(30), reason: 'Book HbA1c recheck' },
};

/** Human approval for every write: four eyes, quorum, versions, races and exactly-once effects. */
describe('approvals', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let app: INestApplication;
  let proposals: ProposalsService;
  let executor: ProposalExecutor;
  const callers: Record<string, AccessContext> = {};

  beforeAll(async () => {
    // These tests drive the executor themselves (tampering between approval and execution, racing
    // executions); a queue worker in the same process would be an uncontrolled extra executor.
    sut = await createTestApp({ databaseUrl: database().url, queueSettings: { workersInApi: false } });
    app = sut.app;
    proposals = app.get(ProposalsService);
    executor = app.get(ProposalExecutor);
    // Preconditions are evaluated "today": pin it to the fixture anchor so the scenarios hold on any day.
    executor.clock = () => new Date(`${TEST_ANCHOR_DATE}T12:00:00Z`);
    for (const username of ['dr.okafor', 'cc.mensah', 'rev.santos', 'rev.nakamura', 'rev.haddad', 'dr.lindqvist', 'an.whitfield']) {
      callers[username] = await accessOf(database().dataSource, username);
    }
  });
  afterAll(() => sut.close());

  const filed: { id: string; by: string }[] = [];
  /**
   * Ends, through the workflow, the earlier scenarios' proposals of `kind` that are still live (each
   * scenario files the same content, and a live one would make the next its duplicate).
   */
  const retire = async (kind: ProposalKind) => {
    for (const earlier of filed) {
      const [row] = await database().dataSource.query(`SELECT kind, status, current_version AS version FROM proposals WHERE id = $1`, [earlier.id]);
      if (row.kind !== kind) continue;
      if (row.status === 'pending') await proposals.cancel(callers[earlier.by], earlier.id, { version: row.version, reason: 'The next scenario files it again' });
      if (row.status === 'approved' || row.status === 'executing') await executor.execute(earlier.id);
    }
  };
  const file = async (kind: ProposalKind, by = 'dr.okafor', citations = [obsOf(PATIENT, 0)], as = callers[by]) => {
    await retire(kind);
    const proposal = await proposals.create(as, patientIdOf(PATIENT), { kind, content: CONTENT[kind], rationale: 'Rationale for the reviewer, with evidence.', citations });
    filed.push({ id: proposal.id, by });
    return proposal;
  };
  const effects = async (table: string, proposalId: string) =>
    (await database().dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE proposal_id = $1`, [proposalId]))[0].n;

  describe.each(Object.values(ProposalKind))('%s', (kind) => {
    it('cannot be approved, rejected or edited by its proposer (four eyes)', async () => {
      const proposal = await file(kind, 'dr.okafor');
      await expect(proposals.approve(callers['dr.okafor'], proposal.id, { version: 1 })).rejects.toMatchObject({ code: 'forbidden' });
      await expect(proposals.reject(callers['dr.okafor'], proposal.id, { version: 1, reason: 'no' })).rejects.toMatchObject({ code: 'forbidden' });
    });

    it('cannot be decided by a role that does not decide it, nor by a reviewer of another care team', async () => {
      const proposal = await file(kind, 'cc.mensah' in callers && kind !== ProposalKind.OrderLab ? 'cc.mensah' : 'dr.okafor');
      await expect(proposals.approve(callers['dr.lindqvist'], proposal.id, { version: 1 })).rejects.toMatchObject({ code: 'forbidden' });
      await expect(proposals.approve(callers['rev.haddad'], proposal.id, { version: 1 })).rejects.toMatchObject({ code: 'proposal_not_found' });
    });

    it('runs exactly once when approved, whatever number of workers race to execute it', async () => {
      const proposal = await file(kind);
      let current = await proposals.approve(callers['rev.santos'], proposal.id, { version: 1 });
      if (current.requiredApprovals > 1) {
        expect(current.status).toBe('pending');
        await expect(proposals.approve(callers['rev.santos'], proposal.id, { version: 1 })).rejects.toMatchObject({ status: 409 });
        current = await proposals.approve(callers['rev.nakamura'], proposal.id, { version: 1 });
      }
      expect(current.status).toBe('approved');
      const results = await Promise.all(Array.from({ length: 6 }, () => executor.execute(proposal.id)));
      expect(results.filter((result) => result === 'applied' || result === 'superseded')).toHaveLength(1);
      expect(results.filter((result) => result === 'noop')).toHaveLength(5);
      const table = { close_care_gap: 'care_gap_closures', order_lab: 'lab_orders', add_care_note: 'care_notes', schedule_outreach: 'outreach_tasks' }[kind];
      expect(await effects(table, proposal.id)).toBe(results.includes('applied') ? 1 : 0);
      expect(await executor.execute(proposal.id)).toBe('noop');
    });
  });

  it('needs two distinct reviewers for a high-risk kind (order_lab)', async () => {
    const proposal = await file(ProposalKind.OrderLab);
    expect(proposal.requiredApprovals).toBe(2);
    expect((await proposals.approve(callers['rev.santos'], proposal.id, { version: 1 })).status).toBe('pending');
    const queued = (await proposals.list(callers['rev.nakamura'], { status: ProposalStatus.Pending, limit: 100 })).items.find((item) => item.id === proposal.id);
    expect(queued).toMatchObject({ approvalsGiven: 1, requiredApprovals: 2 });
    expect((await proposals.approve(callers['rev.nakamura'], proposal.id, { version: 1 })).status).toBe('approved');
  });

  it('refuses a decision on a stale version after an edit, and binds the approval to the new content', async () => {
    const proposal = await file(ProposalKind.AddCareNote);
    const edited = await proposals.editAndApprove(callers['rev.santos'], proposal.id, {
      version: 1,
      content: { noteType: 'follow-up', text: 'Edited by the reviewer.' },
    });
    // The editor wrote version 2: their approval does not count, someone else must approve these bytes.
    expect(edited).toMatchObject({ currentVersion: 2, status: 'pending' });
    expect(await executor.execute(proposal.id)).toBe('noop');
    await expect(proposals.reject(callers['rev.nakamura'], proposal.id, { version: 1, reason: 'late' })).rejects.toMatchObject({ status: 409 });
    expect((await proposals.approve(callers['rev.nakamura'], proposal.id, { version: 2 })).status).toBe('approved');
    expect(await executor.execute(proposal.id)).toBe('applied');
    const [note] = await database().dataSource.query(`SELECT note_type, text FROM care_notes WHERE proposal_id = $1`, [proposal.id]);
    expect(note).toEqual({ note_type: 'follow-up', text: 'Edited by the reviewer.' });
  });

  it('ends a concurrent approve/reject race in exactly one outcome', async () => {
    const proposal = await file(ProposalKind.ScheduleOutreach);
    const results = await Promise.allSettled([
      proposals.approve(callers['rev.santos'], proposal.id, { version: 1 }),
      proposals.reject(callers['rev.nakamura'], proposal.id, { version: 1, reason: 'Not needed' }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { status: 409 } });
    const decisions = await database().dataSource.query(`SELECT decision FROM proposal_decisions WHERE proposal_id = $1`, [proposal.id]);
    expect(decisions).toHaveLength(1);
  });

  it('records a lab order of a code ordered in the last 30 days as superseded instead of writing it twice', async () => {
    // While the first is live a second is refused as its duplicate; once it has run, the order exists.
    const approveTwice = async () => {
      const proposal = await file(ProposalKind.OrderLab);
      await proposals.approve(callers['rev.santos'], proposal.id, { version: 1 });
      await proposals.approve(callers['rev.nakamura'], proposal.id, { version: 1 });
      return proposal.id;
    };
    const first = await approveTwice();
    await expect(proposals.create(callers['dr.okafor'], patientIdOf(PATIENT), { kind: ProposalKind.OrderLab, content: CONTENT.order_lab, rationale: 'Rationale for the reviewer.', citations: [] }))
      .rejects.toMatchObject({ status: 409, code: 'duplicate_proposal', detail: expect.stringContaining(first) });
    await executor.execute(first); // applied, or superseded by an earlier scenario's order: the code is ordered either way
    const second = await approveTwice();
    expect(await executor.execute(second)).toBe('superseded');
    expect(await effects('lab_orders', second)).toBe(0);
  });

  it('closes a care gap only while it is still open: refused at filing when it is not, superseded at execution once closed', async () => {
    const fileClosure = (key: string, measureId: string) =>
      proposals.create(callers['dr.okafor'], patientIdOf(key), {
        kind: ProposalKind.CloseCareGap,
        content: { measureId },
        rationale: 'Evidence shows the measure is met.',
        citations: [obsOf(key, 0)],
      });
    const closeGap = async (key: string, measureId: string) => {
      const proposal = await fileClosure(key, measureId);
      await proposals.approve(callers['rev.santos'], proposal.id, { version: 1 });
      return executor.execute(proposal.id);
    };
    // Not in CMS165's denominator at all: there is no open gap to close, so nothing is filed.
    await expect(fileClosure('diabetes-a1c-9-4', 'CMS165')).rejects.toMatchObject({ status: 409, code: 'care_gap_not_open' });
    // Last HbA1c more than a year old: CMS122 is open, so the closure is written, and a second is superseded.
    expect(await closeGap('diabetes-a1c-stale', 'CMS122')).toBe('applied');
    expect(await closeGap('diabetes-a1c-stale', 'CMS122')).toBe('superseded');
  });

  it('refuses to execute content that is not byte-for-byte what was approved', async () => {
    const proposal = await file(ProposalKind.AddCareNote);
    await proposals.approve(callers['rev.santos'], proposal.id, { version: 1 });
    // Versions are append-only; only someone able to switch triggers off (the table owner) can tamper.
    await expect(
      database().dataSource.query(`UPDATE proposal_versions SET content = '{}' WHERE proposal_id = $1`, [proposal.id]),
    ).rejects.toMatchObject({ driverError: { code: 'VA002' } });
    await database().dataSource.transaction(async (manager) => {
      await manager.query(`ALTER TABLE proposal_versions DISABLE TRIGGER USER`);
      await manager.query(`UPDATE proposal_versions SET content = jsonb_set(content, '{text}', '"tampered"') WHERE proposal_id = $1`, [proposal.id]);
      await manager.query(`ALTER TABLE proposal_versions ENABLE TRIGGER USER`);
    });
    expect(await executor.execute(proposal.id)).toBe('failed');
    expect(await effects('care_notes', proposal.id)).toBe(0);
    const [row] = await database().dataSource.query(`SELECT status, failure_kind FROM proposals WHERE id = $1`, [proposal.id]);
    expect(row).toEqual({ status: 'failed', failure_kind: 'content_hash_mismatch' });
  });

  it('expires a pending proposal to the safe default, and then nothing can approve it', async () => {
    const proposal = await file(ProposalKind.ScheduleOutreach);
    expect(await proposals.expireIfDue(proposal.id, new Date())).toBe(false);
    expect(await proposals.expireIfDue(proposal.id, new Date(Date.now() + 30 * 86_400_000))).toBe(true);
    await expect(proposals.approve(callers['rev.santos'], proposal.id, { version: 1 })).rejects.toMatchObject({ status: 409 });
    expect(await executor.execute(proposal.id)).toBe('noop');
  });

  it('refuses a decision after the deadline even before the sweep has marked it expired', async () => {
    const proposal = await file(ProposalKind.ScheduleOutreach);
    await database().dataSource.query(`UPDATE proposals SET expires_at = now() - interval '1 minute' WHERE id = $1`, [proposal.id]);
    await expect(proposals.approve(callers['rev.santos'], proposal.id, { version: 1 })).rejects.toMatchObject({ status: 409 });
  });

  it('refuses an impossible due date at filing, not at execution', async () => {
    await expect(
      proposals.create(callers['dr.okafor'], patientIdOf(PATIENT), {
        kind: ProposalKind.ScheduleOutreach,
        // Next year's: only the impossible day is wrong with it.
        content: { ...CONTENT.schedule_outreach, dueDate: `${Number(dueInDays(0).slice(0, 4)) + 1}-02-30` },
        rationale: 'Rationale for the reviewer, with evidence.',
        citations: [],
      }),
    ).rejects.toMatchObject({ status: 400 });
  });

  describe('decisions a reviewer can change', () => {
    const approvalsGiven = async (by: string, proposalId: string) =>
      ((await proposals.list(callers[by], { status: ProposalStatus.Pending, limit: 100 })).items.find((item) => item.id === proposalId) as { approvalsGiven?: number } | undefined)?.approvalsGiven;

    it('withdraws an approval while pending: it stops counting, the log keeps both, and it is not given again', async () => {
      const proposal = await file(ProposalKind.OrderLab);
      await proposals.approve(callers['rev.santos'], proposal.id, { version: 1 });
      expect(await approvalsGiven('rev.nakamura', proposal.id)).toBe(1);
      expect((await proposals.withdrawApproval(callers['rev.santos'], proposal.id, { version: 1, reason: 'Wrong panel' })).status).toBe('pending');
      expect(await approvalsGiven('rev.nakamura', proposal.id)).toBe(0);
      // Santos's withdrawn approval no longer counts: Nakamura alone does not reach order_lab's two.
      expect((await proposals.approve(callers['rev.nakamura'], proposal.id, { version: 1 })).status).toBe('pending');
      await expect(proposals.approve(callers['rev.santos'], proposal.id, { version: 1 })).rejects.toMatchObject({ status: 409, code: 'illegal_transition' });
      await expect(proposals.withdrawApproval(callers['rev.santos'], proposal.id, { version: 1 })).rejects.toMatchObject({ status: 409 });
      const decisions = await database().dataSource.query(`SELECT decision FROM proposal_decisions WHERE proposal_id = $1 ORDER BY created_at, id`, [proposal.id]);
      expect(decisions.map((row: { decision: string }) => row.decision)).toEqual(['approve', 'withdraw', 'approve']);
    });

    it.each([
      ['never approved', async (_id: string) => undefined],
      ['another reviewer’s approval only', async (id: string) => void (await proposals.approve(callers['rev.nakamura'], id, { version: 1 }))],
    ])('refuses to withdraw an approval the reviewer never gave (%s)', async (_name, before) => {
      const proposal = await file(ProposalKind.OrderLab);
      await before(proposal.id);
      await expect(proposals.withdrawApproval(callers['rev.santos'], proposal.id, { version: 1 })).rejects.toMatchObject({ status: 409, code: 'illegal_transition' });
    });

    it('refuses to withdraw once the quorum is reached (the proposal is approved and executes)', async () => {
      const proposal = await file(ProposalKind.AddCareNote);
      expect((await proposals.approve(callers['rev.santos'], proposal.id, { version: 1 })).status).toBe('approved');
      await expect(proposals.withdrawApproval(callers['rev.santos'], proposal.id, { version: 1 })).rejects.toMatchObject({ status: 409 });
    });

    it('lets a reviewer who approved reject while the proposal still waits for a second approval', async () => {
      const proposal = await file(ProposalKind.OrderLab);
      await proposals.approve(callers['rev.santos'], proposal.id, { version: 1 });
      expect((await proposals.reject(callers['rev.santos'], proposal.id, { version: 1, reason: 'On reflection, not indicated' })).status).toBe('rejected');
      expect(await executor.execute(proposal.id)).toBe('noop');
    });

    it('refuses an edit after which the care team cannot reach the quorum, saying why, and changes nothing', async () => {
      // North has two reviewers: an order_lab edited by one of them could only ever get one counting approval.
      const proposal = await file(ProposalKind.OrderLab);
      const refusal = proposals.editAndApprove(callers['rev.santos'], proposal.id, { version: 1, content: { ...CONTENT.order_lab, priority: 'urgent' } });
      await expect(refusal).rejects.toMatchObject({ status: 409, code: 'quorum_unreachable' });
      await expect(refusal).rejects.toMatchObject({ detail: expect.stringContaining('needs 2 approvals') });
      const [row] = await database().dataSource.query(`SELECT current_version, status FROM proposals WHERE id = $1`, [proposal.id]);
      expect(row).toEqual({ current_version: 1, status: 'pending' });
      // A one-approval kind can still be edited: the other reviewer approves the edit.
      const note = await file(ProposalKind.AddCareNote);
      expect((await proposals.editAndApprove(callers['rev.santos'], note.id, { version: 1, content: { noteType: 'follow-up', text: 'Edited.' } })).currentVersion).toBe(2);
    });
  });

  it('lets only the proposer cancel, with a reason, and only while pending', async () => {
    const proposal = await file(ProposalKind.AddCareNote, 'cc.mensah');
    await expect(proposals.cancel(callers['cc.mensah'], proposal.id, { version: 1 })).rejects.toMatchObject({ status: 400 });
    await expect(proposals.cancel(callers['dr.okafor'], proposal.id, { version: 1, reason: 'Not mine to cancel' })).rejects.toMatchObject({ code: 'forbidden' });
    expect((await proposals.cancel(callers['cc.mensah'], proposal.id, { version: 1, reason: 'Duplicate' })).status).toBe('cancelled');
    await expect(proposals.cancel(callers['cc.mensah'], proposal.id, { version: 1, reason: 'Again' })).rejects.toMatchObject({ status: 409 });
  });

  it.each([
    ['another patient’s row', [obsOf('complete-record', 0)]],
    ['a row that does not exist', ['obs:00000000-0000-4000-8000-000000000000']],
  ])('refuses a citation of %s', async (_name, citations) => {
    await expect(file(ProposalKind.AddCareNote, 'dr.okafor', citations)).rejects.toMatchObject({ status: 400 });
  });

  it('never closes a care gap on a remark alone', async () => {
    await expect(
      proposals.create(callers['dr.okafor'], patientIdOf(PATIENT), { kind: ProposalKind.CloseCareGap, content: { measureId: 'CMS122', remarkCode: 'performed-elsewhere' }, rationale: 'Done at another clinic last month.', citations: [] }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('refuses an analyst as proposer and a patient outside the proposer’s teams', async () => {
    await expect(file(ProposalKind.AddCareNote, 'an.whitfield')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(
      proposals.create(callers['dr.okafor'], patientIdOf('south-asthma'), { kind: ProposalKind.AddCareNote, content: CONTENT.add_care_note, rationale: 'A rationale long enough.', citations: [] }),
    ).rejects.toMatchObject({ code: 'patient_not_found' });
  });

  it('audits each transition and each refusal exactly once, with its correlation id, in the verified chain', async () => {
    const as = (username: string) => ({ ...callers[username], correlationId: randomUUID() });
    const rowsOf = (correlationId: string | null) =>
      database().dataSource.query(`SELECT action, outcome, channel, row_count AS "rowCount" FROM audit_events WHERE correlation_id = $1`, [correlationId]);
    const proposer = as('dr.okafor');
    const proposal = await file(ProposalKind.AddCareNote, 'dr.okafor', [], proposer);
    expect(await rowsOf(proposer.correlationId)).toEqual([{ action: 'proposal.create', outcome: 'success', channel: 'rest', rowCount: 1 }]);
    const stale = as('rev.santos');
    await expect(proposals.approve(stale, proposal.id, { version: 2 })).rejects.toMatchObject({ status: 409 });
    expect(await rowsOf(stale.correlationId)).toEqual([{ action: 'proposal.approve', outcome: 'conflict', channel: 'rest', rowCount: 0 }]);
    const reviewer = as('rev.santos');
    await proposals.approve(reviewer, proposal.id, { version: 1 });
    expect(await rowsOf(reviewer.correlationId)).toEqual([{ action: 'proposal.approve', outcome: 'success', channel: 'rest', rowCount: 1 }]);
    const otherTeam = as('rev.haddad');
    await expect(proposals.get(otherTeam, proposal.id)).rejects.toMatchObject({ status: 404 });
    expect(await rowsOf(otherTeam.correlationId)).toEqual([{ action: 'proposal.read', outcome: 'not_found', channel: 'rest', rowCount: 0 }]);
    expect(await sealAndVerify(database().dataSource)).toMatchObject({ ok: true });
  });
});
