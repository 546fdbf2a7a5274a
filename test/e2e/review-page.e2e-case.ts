import { Browser, chromium, Page } from 'playwright-core';
import request from 'supertest';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createTestApp, TestApp } from '../setup/app';
import { sealAndVerify } from '../setup/audit-seal';
import { patientIdOf, patients } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { dueInDays } from '../setup/due-dates';
import { baseUrlOf } from '../setup/event-stream';
import { CHROMIUM, CHROMIUM_ARGS, describeWithChromium } from '../setup/review-page-browser';

/** Markup in a rationale must show as text: the page never renders data as HTML. */
const HOSTILE_RATIONALE = 'Recheck due. <img src=x onerror="document.title=\'pwned\'"><script>document.title="pwned"</script>';
const REASON = 'Already discussed at the last visit; not needed.';
/** How the page names a colleague, and a fixture patient (two identifiers: name and MRN). */
const SANTOS = 'Lucía Santos, MD (reviewer)';
const OKAFOR = 'Adaeze Okafor, MD (clinician)';
const nameOf = (key: string) => {
  const patient = patients.find((candidate) => candidate.key === key)!;
  return { name: `${patient.familyName}, ${patient.givenName}`, mrn: `MRN ${patient.mrn}` };
};

type Filed = { id: string };

describeWithChromium('the review page, in headless Chromium against the running service', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let base: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const filed: Record<'approve' | 'reject' | 'live', Filed> = {} as never;

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    await sut.app.listen(0, '127.0.0.1');
    base = baseUrlOf(sut.app.getHttpServer());
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000); // starting Chromium takes seconds, many on a busy machine
  afterAll(async () => {
    await browser?.close(); // first: the page holds the event stream open
    await sut?.close();
  });

  const file = async (patient: string, kind: string, content: object, rationale: string): Promise<Filed> => {
    const citations = [`obs:${fixtureId('patient', patient, 'observation', '0')}`];
    const res = await request(sut.app.getHttpServer())
      .post(`/patients/${patientIdOf(patient)}/proposals`)
      .set('authorization', `Bearer ${await sut.tokenFor('dr.okafor')}`)
      .send({ kind, content, rationale, citations })
      .expect(201);
    return res.body as Filed;
  };
  const row = (id: string) => page.locator(`tr[data-proposal-id="${id}"]`);
  const heading = (name: RegExp) => page.getByRole('heading', { name }).waitFor();
  /**
   * Opens a proposal from the queue. The queue re-renders on every live event, so a click can land on
   * a row that is being replaced: click again (at most three times) until its detail heading shows.
   */
  const open = async (id: string, name: RegExp) => {
    for (let attempt = 1; ; attempt += 1) {
      await row(id).getByRole('button').click();
      try {
        return await page.getByRole('heading', { name }).waitFor({ timeout: 10_000 });
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  };

  it('signs in with a pasted token, updates live, approves one proposal and rejects another', async () => {
    filed.approve = await file('diabetes-a1c-stale', 'schedule_outreach', { channel: 'phone', dueDate: dueInDays(30), reason: 'Book an HbA1c recheck' }, 'Last HbA1c is older than 12 months.');
    filed.reject = await file('diabetes-a1c-9-4', 'add_care_note', { noteType: 'care-plan', text: 'Discussed insulin titration.' }, HOSTILE_RATIONALE);

    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // The browser asks for /favicon.ico on its own; the page has none.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) problems.push(message.text());
    });
    const response = await page.goto(`${base}/review`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");

    // Keyboard only: type the token into its labelled field and press Enter.
    await page.getByLabel('Access token').fill(await sut.tokenFor('rev.santos'));
    await page.getByLabel('Access token').press('Enter');
    await row(filed.approve.id).waitFor();
    await row(filed.reject.id).waitFor();
    // Whose proposal, by two identifiers, and who filed it, by name and role; the proposal's age is "Waiting".
    const whitaker = nameOf('diabetes-a1c-stale');
    const cells = await row(filed.approve.id).locator('td').allTextContents();
    expect(cells[1]).toContain(whitaker.name);
    expect(cells[1]).toContain(whitaker.mrn);
    expect(cells[1]).toMatch(/\d+ y, male/);
    expect(cells[2]).toBe(OKAFOR);
    expect(cells[3]).toBe('primary-care-north'); // the care team whose queue it is in
    expect(await page.locator('#queue-table th').allTextContents()).toEqual(['Kind', 'Patient', 'Proposed by', 'Care team', 'Waiting', 'Approvals', 'Open']);
    await row(filed.approve.id).getByRole('button', { name: `Review Schedule outreach for ${whitaker.name}, ${whitaker.mrn}` }).waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(1); // the token, in this tab only
    expect(page.url()).toBe(`${base}/review`); // the token never went into a URL

    // Live: a proposal filed now appears without a reload, and is announced.
    await page.getByText('Live updates on').waitFor();
    filed.live = await file('hypertension-uncontrolled', 'add_care_note', { noteType: 'follow-up', text: 'Call about home BP readings.' }, 'Home readings were not reviewed.');
    await row(filed.live.id).waitFor({ timeout: 10_000 });
    // The event names no patient; the page names them from the queue it re-reads.
    const fitzwilliam = nameOf('hypertension-uncontrolled');
    await page.locator('#announcer', { hasText: `New proposal: Add care note for ${fitzwilliam.name}, ${fitzwilliam.mrn}.` }).waitFor();

    // Approve, with the keyboard.
    await open(filed.approve.id, /Schedule outreach for .+: pending/);
    const facts = await page.locator('#detail-summary').textContent();
    for (const text of [whitaker.name, whitaker.mrn.replace('MRN ', ''), `Proposed by${OKAFOR}`]) expect(facts).toContain(text);
    // The cited HbA1c row is shown with its value, so the reviewer decides on the evidence.
    await page.locator('#detail-citations li', { hasText: 'Hemoglobin A1c' }).waitFor();
    await page.getByRole('button', { name: 'Approve version 1' }).press('Enter');
    // The approval wakes the outbox relay, so the worker may already be running it by the time the page shows it.
    await heading(/Schedule outreach for .+: (approved|executing|executed)/);
    await row(filed.approve.id).waitFor({ state: 'detached' });

    // Reject: the data shows as text, and a reason is required.
    await open(filed.reject.id, /Add care note for .+: pending/);
    expect(await page.locator('#detail-rationale').textContent()).toBe(HOSTILE_RATIONALE);
    expect(await page.locator('#detail img, #detail script').count()).toBe(0);
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('The reason is required. Say why you reject it.').waitFor();
    expect(await page.getByLabel('Reason for rejecting (required)').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Reason for rejecting (required)').fill(REASON);
    await page.getByRole('button', { name: 'Reject' }).click();
    await heading(/Add care note for .+: rejected/);
    await page.getByText(`Rejected version 1 by ${SANTOS}: “${REASON}”`).waitFor();
    await row(filed.reject.id).waitFor({ state: 'detached' });

    expect(await page.title()).not.toBe('pwned');
    expect(problems).toEqual([]);
  }, 60_000);

  it('left both decisions in the database and the audit trail, made by rev.santos', async () => {
    const db = database().dataSource;
    const [santos] = await db.query(`SELECT id FROM staff_users WHERE username = 'rev.santos'`);
    const ids = [filed.approve.id, filed.reject.id];

    const statuses = Object.fromEntries((await db.query(`SELECT id, status FROM proposals WHERE id = ANY($1)`, [ids])).map((r: { id: string; status: string }) => [r.id, r.status]));
    expect(['approved', 'executing', 'executed']).toContain(statuses[filed.approve.id]); // a queue worker may already have run it
    expect(statuses[filed.reject.id]).toBe('rejected');

    const decisions = await db.query(`SELECT proposal_id, decision, actor_id, actor_role, reason, version FROM proposal_decisions WHERE proposal_id = ANY($1) ORDER BY created_at`, [ids]);
    expect(decisions).toEqual([
      { proposal_id: filed.approve.id, decision: 'approve', actor_id: santos.id, actor_role: 'reviewer', reason: null, version: 1 },
      { proposal_id: filed.reject.id, decision: 'reject', actor_id: santos.id, actor_role: 'reviewer', reason: REASON, version: 1 },
    ]);

    const audited = await db.query(
      `SELECT action, actor_id, actor_role, patient_id, outcome FROM audit_events WHERE action IN ('proposal.approve', 'proposal.reject') AND fields && $1::text[] ORDER BY id`,
      [ids.map((id) => `proposal:${id}`)],
    );
    expect(audited).toEqual([
      { action: 'proposal.approve', actor_id: santos.id, actor_role: 'reviewer', patient_id: patientIdOf('diabetes-a1c-stale'), outcome: 'success' },
      { action: 'proposal.reject', actor_id: santos.id, actor_role: 'reviewer', patient_id: patientIdOf('diabetes-a1c-9-4'), outcome: 'success' },
    ]);
    expect(await sealAndVerify(db)).toMatchObject({ ok: true });
  });

  it('offers "Withdraw my approval" only to a reviewer who has approved, and withdraws it', async () => {
    const orderLab = await file('diabetes-a1c-9-4', 'order_lab', { loincCode: '9318-7', priority: 'routine', reason: 'Kidney health evaluation needs a uACR' }, 'No uACR this year.');
    await row(orderLab.id).waitFor({ timeout: 10_000 });
    await open(orderLab.id, /Order lab for .+: pending/);
    const withdraw = page.getByRole('button', { name: 'Withdraw my approval' });
    const approve = page.getByRole('button', { name: 'Approve version 1' });
    expect(await withdraw.isVisible()).toBe(false); // nothing of theirs to withdraw yet
    await approve.click();
    await page.getByText(`Approved version 1 by ${SANTOS}`).waitFor();
    await heading(/Order lab for .+: pending/); // one of the two approvals it needs
    await page.locator('#detail-summary', { hasText: 'Approvals1 of 2 for version 1' }).waitFor();
    expect(await approve.isVisible()).toBe(false); // a second approval must come from someone else
    await withdraw.click();
    await page.getByText(`Approval withdrawn version 1 by ${SANTOS}`).waitFor();
    const decisions = await database().dataSource.query(`SELECT decision FROM proposal_decisions WHERE proposal_id = $1 ORDER BY created_at, id`, [orderLab.id]);
    expect(decisions.map((d: { decision: string }) => d.decision)).toEqual(['approve', 'withdraw']);
    // Withdrawn is withdrawn: neither a second withdrawal nor the approval again is offered; rejecting still is.
    await page.locator('#detail-summary', { hasText: 'Approvals0 of 2 for version 1' }).waitFor();
    expect(await withdraw.isVisible()).toBe(false);
    expect(await approve.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Reject' }).isVisible()).toBe(true);
    await page.getByText(`${SANTOS} withdrew their approval of version 1.`, { exact: false }).waitFor();
    expect(problems).toEqual([]);
  }, 60_000);
});
