import { randomUUID } from 'node:crypto';
import { AccessContext } from '../../src/access/access-context';
import { CreateProposalDto } from '../../src/approvals/dto/proposal-requests.dto';
import { ProposalKind, ProposalStatus } from '../../src/approvals/enum';
import { ProposalDraftsService } from '../../src/approvals/proposal-drafts.service';
import { ProposalExecutor } from '../../src/approvals/proposal-executor';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createTestApp, TestApp } from '../setup/app';
import { sealAndVerify } from '../setup/audit-seal';
import { accessOf } from '../setup/callers';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { TEST_ANCHOR_DATE } from '../setup/test-database';

const obsOf = (key: string, index: number) => `obs:${fixtureId('patient', key, 'observation', String(index))}`;
const USERS = ['dr.okafor', 'dr.lindqvist', 'cc.mensah', 'rev.santos', 'rev.nakamura'] as const;
type User = (typeof USERS)[number];

let notes = 0;
/** An add_care_note no other scenario files: its own text, so its own content identity. */
const note = (key = 'diabetes-a1c-9-4', citations = [obsOf(key, 0)]): CreateProposalDto => ({
  kind: ProposalKind.AddCareNote,
  content: { noteType: 'care-plan', text: `Discussed the plan, scenario ${(notes += 1)}.` },
  rationale: 'Rationale for the reviewer, with evidence.',
  citations,
});
const closeGap = (key: string): CreateProposalDto => ({
  kind: ProposalKind.CloseCareGap,
  content: { measureId: 'CMS122' },
  rationale: 'Evidence shows the measure is met.',
  citations: [obsOf(key, 0)],
});

/**
 * What the agent files is its clinician's draft: seen by its author only, in nobody's review, moved
 * on by its author alone (submit, re-checked now; discard), expiring unexecuted after a short TTL.
 */
describe('proposal drafts', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let proposals: ProposalsService;
  let drafts: ProposalDraftsService;
  let executor: ProposalExecutor;
  const callers = {} as Record<User, AccessContext>;
  const as = (user: User) => ({ ...callers[user], correlationId: randomUUID() });
  const turnId = randomUUID();
  const sql = <R = Record<string, unknown>>(text: string, params: unknown[] = []) => database().dataSource.query<R[]>(text, params);
  const auditOf = (correlationId: string | null) => sql(`SELECT action, outcome, row_count AS "rowCount" FROM audit_events WHERE correlation_id = $1`, [correlationId]);
  const statusOf = async (id: string) => (await sql<{ status: string }>(`SELECT status FROM proposals WHERE id = $1`, [id]))[0].status;

  beforeAll(async () => {
    // The tests drive expiry and execution themselves.
    sut = await createTestApp({ databaseUrl: database().url, queueSettings: { workersInApi: false } });
    proposals = sut.app.get(ProposalsService);
    drafts = sut.app.get(ProposalDraftsService);
    executor = sut.app.get(ProposalExecutor);
    executor.clock = () => new Date(`${TEST_ANCHOR_DATE}T12:00:00Z`);
    for (const user of USERS) callers[user] = await accessOf(database().dataSource, user);
  });
  afterAll(() => sut.close());

  it('files a draft with the draft deadline, audited as proposal.draft, with an expire_draft job and no review deadline', async () => {
    const context = as('dr.okafor');
    const before = Date.now();
    const draft = await proposals.createDraft(context, patientIdOf('diabetes-a1c-9-4'), note(), turnId);
    expect(draft).toMatchObject({ status: ProposalStatus.Draft, submittedAt: null, agentTurnId: turnId });
    const ttl = Date.parse(draft.expiresAt) - before;
    expect(ttl).toBeGreaterThan(29 * 60_000);
    expect(ttl).toBeLessThanOrEqual(30 * 60_000 + 5_000);
    expect(await auditOf(context.correlationId)).toEqual([{ action: 'proposal.draft', outcome: 'success', rowCount: 1 }]);
    expect(await sql(`SELECT job FROM proposal_outbox WHERE proposal_id = $1`, [draft.id])).toEqual([{ job: 'expire_draft' }]);
  });

  it('shows a draft to its author alone: their ?status=draft list and detail; nobody else’s list, queue or detail', async () => {
    const draft = await proposals.createDraft(as('dr.okafor'), patientIdOf('diabetes-a1c-9-4'), note(), turnId);
    const listed = async (user: User, status?: ProposalStatus) => (await proposals.list(as(user), { status, limit: 100 })).items.map((item) => item.id);
    expect(await listed('dr.okafor', ProposalStatus.Draft)).toContain(draft.id);
    expect(await listed('dr.okafor')).not.toContain(draft.id); // the queue is what is in review
    expect((await proposals.get(as('dr.okafor'), draft.id)).status).toBe('draft');
    for (const user of ['dr.lindqvist', 'cc.mensah', 'rev.santos'] as const) {
      expect(await listed(user, ProposalStatus.Draft)).toEqual(expect.not.arrayContaining([draft.id]));
      expect(await listed(user)).not.toContain(draft.id);
      await expect(proposals.get(as(user), draft.id)).rejects.toMatchObject({ status: 404, code: 'proposal_not_found' });
    }
  });

  it('submits into review: pending with the kind’s deadline and an expire job, audited, then approved by a reviewer and executed exactly once', async () => {
    const draft = await proposals.createDraft(as('dr.okafor'), patientIdOf('diabetes-a1c-9-4'), note(), turnId);
    const context = as('dr.okafor');
    const submitted = await drafts.submit(context, draft.id);
    expect(submitted).toMatchObject({ status: 'pending', submittedAt: expect.any(String), currentVersion: 1 });
    expect(Date.parse(submitted.expiresAt) - Date.now()).toBeGreaterThan(6 * 24 * 3_600_000); // add_care_note waits 7 days
    expect(await auditOf(context.correlationId)).toEqual([{ action: 'proposal.submit', outcome: 'success', rowCount: 1 }]);
    expect((await sql<{ job: string }>(`SELECT job FROM proposal_outbox WHERE proposal_id = $1 ORDER BY job`, [draft.id])).map((row) => row.job)).toEqual(['expire', 'expire_draft']);
    // The draft's own expiry job, when it fires, finds a pending proposal with a later deadline: nothing happens.
    expect(await proposals.expireIfDue(draft.id, new Date(Date.now() + 31 * 60_000))).toBe(false);
    expect((await proposals.list(as('rev.santos'), { status: ProposalStatus.Pending, limit: 100 })).items.map((item) => item.id)).toContain(draft.id);
    expect((await proposals.approve(as('rev.santos'), draft.id, { version: 1 })).status).toBe('approved');
    const results = await Promise.all([executor.execute(draft.id), executor.execute(draft.id), executor.execute(draft.id)]);
    expect(results.sort()).toEqual(['applied', 'noop', 'noop']);
    expect((await sql(`SELECT count(*)::int AS n FROM care_notes WHERE proposal_id = $1`, [draft.id]))[0]).toEqual({ n: 1 });
  });

  it('re-checks a draft at submit: a cited row deleted meanwhile is refused (409 draft_invalid), and it stays a draft', async () => {
    const key = 'hypertension-uncontrolled';
    const draft = await proposals.createDraft(as('dr.okafor'), patientIdOf(key), note(key, [obsOf(key, 0)]), turnId);
    await sql(`DELETE FROM observations WHERE id = $1`, [obsOf(key, 0).slice(4)]);
    await expect(drafts.submit(as('dr.okafor'), draft.id)).rejects.toMatchObject({ status: 409, code: 'draft_invalid', errors: [expect.objectContaining({ field: 'citations', reason: 'unknownCitation' })] });
    expect(await statusOf(draft.id)).toBe('draft');
  });

  it('re-checks a care gap at submit: closed meanwhile by a new result, it is refused (care_gap_not_open) and stays a draft', async () => {
    const key = 'diabetes-a1c-stale';
    const draft = await proposals.createDraft(as('dr.okafor'), patientIdOf(key), closeGap(key), turnId);
    // A well-controlled HbA1c drawn last week closes CMS122.
    await sql(
      `INSERT INTO observations (patient_id, category, status, code, display, value_numeric, unit, effective_at)
       VALUES ($1, 'laboratory', 'final', '4548-4', 'Hemoglobin A1c', 6.8, '%', $2::timestamptz - interval '7 days')`,
      [patientIdOf(key), `${TEST_ANCHOR_DATE}T09:00:00Z`],
    );
    await expect(drafts.submit(as('dr.okafor'), draft.id)).rejects.toMatchObject({ status: 409, code: 'care_gap_not_open' });
    expect(await statusOf(draft.id)).toBe('draft');
    // And a new closure of that measure is refused at the door, as a draft and over REST alike.
    await expect(proposals.create(as('dr.lindqvist'), patientIdOf(key), closeGap(key))).rejects.toMatchObject({ status: 409, code: 'care_gap_not_open' });
    await expect(proposals.createDraft(as('dr.lindqvist'), patientIdOf(key), closeGap(key), turnId)).rejects.toMatchObject({ status: 409, code: 'care_gap_not_open' });
  });

  describe('duplicates', () => {
    const key = 'diabetes-a1c-8-1';
    const same = note(key, []);
    const refusal = { status: 409, code: 'duplicate_proposal' };

    it.each([
      ['a draft of the same author, naming it', 'dr.okafor', 'draft', 'draft', true],
      ['a draft of another clinician, without naming it', 'dr.lindqvist', 'draft', 'draft', false],
      ['a draft, over REST, without naming another clinician’s draft', 'dr.lindqvist', 'draft', 'pending', false],
      ['a draft, over REST, naming the author’s own draft', 'dr.okafor', 'draft', 'pending', true],
      ['a pending proposal, as a draft, naming it', 'dr.lindqvist', 'pending', 'draft', true],
      ['a pending proposal, over REST, naming it', 'cc.mensah', 'pending', 'pending', true],
    ] as const)('refuses a proposal duplicating %s', async (_name, second, firstIs, secondIs, named) => {
      const fileAs = (user: User, status: string) =>
        status === 'draft' ? proposals.createDraft(as(user), patientIdOf(key), same, turnId) : proposals.create(as(user), patientIdOf(key), same);
      const first = await fileAs('dr.okafor', firstIs);
      const attempt = fileAs(second, secondIs);
      await expect(attempt).rejects.toMatchObject(refusal);
      const detail = ((await attempt.catch((error: { detail: string }) => error)) as { detail: string }).detail;
      expect(detail.includes(first.id)).toBe(named);
      // Once the first is no longer live, the same content may be filed again.
      if (firstIs === 'draft') await drafts.discard(as('dr.okafor'), first.id);
      else await proposals.cancel(as('dr.okafor'), first.id, { version: 1, reason: 'Filed again below' });
      const again = await fileAs(second, secondIs);
      if (secondIs === 'draft') await drafts.discard(as(second), again.id);
      else await proposals.cancel(as(second), again.id, { version: 1, reason: 'Scenario over' });
    });

    it('counts an approved, not yet executed proposal as live; an identity is per kind (another note text is no duplicate)', async () => {
      const pending = await proposals.create(as('dr.okafor'), patientIdOf(key), same);
      await proposals.approve(as('rev.santos'), pending.id, { version: 1 });
      await expect(proposals.createDraft(as('dr.okafor'), patientIdOf(key), same, turnId)).rejects.toMatchObject(refusal);
      const other = await proposals.createDraft(as('dr.okafor'), patientIdOf(key), note(key, []), turnId);
      await drafts.discard(as('dr.okafor'), other.id);
      await executor.execute(pending.id);
      const after = await proposals.createDraft(as('dr.okafor'), patientIdOf(key), same, turnId);
      await drafts.discard(as('dr.okafor'), after.id);
    });

    it('refuses a reviewer’s edit that would make a proposal the duplicate of another live one, and changes nothing', async () => {
      const kept = await proposals.create(as('dr.okafor'), patientIdOf(key), same);
      const other = await proposals.create(as('dr.okafor'), patientIdOf(key), note(key, []));
      const edit = proposals.editAndApprove(as('rev.santos'), other.id, { version: 1, content: same.content });
      await expect(edit).rejects.toMatchObject({ ...refusal, detail: expect.stringContaining(kept.id) });
      expect(await sql(`SELECT current_version AS version, status FROM proposals WHERE id = $1`, [other.id])).toEqual([{ version: 1, status: 'pending' }]);
      // An edit to content no live proposal has goes through, and the identity moves with it: the edited text is now taken.
      await proposals.editAndApprove(as('rev.santos'), other.id, { version: 1, content: { noteType: 'follow-up', text: 'Edited into a note of its own.' } });
      const refiled = await proposals.createDraft(as('dr.okafor'), patientIdOf(key), { ...same, content: { noteType: 'care-plan', text: 'Edited into a note of its own.' } }, turnId).catch((error: { code: string }) => error);
      expect(refiled).toMatchObject({ code: 'duplicate_proposal' });
      for (const id of [kept.id, other.id]) await proposals.cancel(as('dr.okafor'), id, { version: id === kept.id ? 1 : 2, reason: 'Scenario over' });
    });

    it('refuses to submit a draft that a proposal filed since would duplicate (it stays a draft)', async () => {
      const draft = await proposals.createDraft(as('dr.okafor'), patientIdOf(key), same, turnId);
      // Filed before identities existed (NULL never collides): the draft's identity is set back to it afterwards.
      await sql(`UPDATE proposals SET identity_key = NULL WHERE id = $1`, [draft.id]);
      const pending = await proposals.create(as('dr.lindqvist'), patientIdOf(key), same);
      const [{ identity }] = await sql<{ identity: string }>(`SELECT identity_key AS identity FROM proposals WHERE id = $1`, [pending.id]);
      await expect(drafts.submit(as('dr.okafor'), draft.id)).rejects.toMatchObject({ ...refusal, detail: expect.stringContaining(pending.id) });
      expect(await statusOf(draft.id)).toBe('draft');
      expect(identity).toMatch(/^note:[0-9a-f]{64}$/);
      await proposals.cancel(as('dr.lindqvist'), pending.id, { version: 1, reason: 'Scenario over' });
      await drafts.discard(as('dr.okafor'), draft.id);
    });
  });

  it('expires a draft past its deadline: expired, nothing executed, audited as proposal.draft_expire; then it can be neither submitted nor discarded', async () => {
    const draft = await proposals.createDraft(as('dr.okafor'), patientIdOf('diabetes-a1c-9-4'), note(), turnId);
    expect(await proposals.expireIfDue(draft.id, new Date())).toBe(false);
    // Past the deadline, not yet swept: submitting is refused already.
    await sql(`UPDATE proposals SET expires_at = now() - interval '1 second' WHERE id = $1`, [draft.id]);
    await expect(drafts.submit(as('dr.okafor'), draft.id)).rejects.toMatchObject({ status: 409, code: 'illegal_transition' });
    expect(await proposals.overdueProposalIds(new Date(), 1000)).toContain(draft.id);
    expect(await proposals.expireIfDue(draft.id)).toBe(true);
    expect(await statusOf(draft.id)).toBe('expired');
    expect(await executor.execute(draft.id)).toBe('noop');
    expect((await sql(`SELECT count(*)::int AS n FROM care_notes WHERE proposal_id = $1`, [draft.id]))[0]).toEqual({ n: 0 });
    const [expiry] = await sql(`SELECT action, actor_role AS "actorRole", fields FROM audit_events WHERE action = 'proposal.draft_expire' AND fields @> $1::text[]`, [[`proposal:${draft.id}`]]);
    expect(expiry).toEqual({ action: 'proposal.draft_expire', actorRole: 'system', fields: [`proposal:${draft.id}`] });
    await expect(drafts.submit(as('dr.okafor'), draft.id)).rejects.toMatchObject({ status: 409, code: 'illegal_transition' });
    await expect(drafts.discard(as('dr.okafor'), draft.id)).rejects.toMatchObject({ status: 409, code: 'illegal_transition' });
  });

  it('discards a draft for good, audited; only its author may, and only once', async () => {
    const draft = await proposals.createDraft(as('dr.okafor'), patientIdOf('diabetes-a1c-9-4'), note(), turnId);
    await expect(drafts.discard(as('dr.lindqvist'), draft.id)).rejects.toMatchObject({ status: 404, code: 'proposal_not_found' });
    const context = as('dr.okafor');
    expect((await drafts.discard(context, draft.id)).status).toBe('discarded');
    expect(await auditOf(context.correlationId)).toEqual([{ action: 'proposal.discard', outcome: 'success', rowCount: 1 }]);
    await expect(drafts.discard(as('dr.okafor'), draft.id)).rejects.toMatchObject({ status: 409, code: 'illegal_transition' });
    await expect(drafts.submit(as('dr.okafor'), draft.id)).rejects.toMatchObject({ status: 409, code: 'illegal_transition' });
    // Someone else's pending proposal is not theirs to submit or discard: visible, so 403.
    const pending = await proposals.create(as('dr.lindqvist'), patientIdOf('diabetes-a1c-9-4'), note());
    await expect(drafts.submit(as('dr.okafor'), pending.id)).rejects.toMatchObject({ status: 403 });
    await expect(drafts.discard(as('dr.okafor'), pending.id)).rejects.toMatchObject({ status: 403 });
    await expect(drafts.discard(as('dr.lindqvist'), pending.id)).rejects.toMatchObject({ status: 409, code: 'illegal_transition' });
    expect(await sealAndVerify(database().dataSource)).toMatchObject({ ok: true });
  });
});
