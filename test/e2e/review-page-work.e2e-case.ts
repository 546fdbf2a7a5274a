import { rmSync } from 'node:fs';
import { Browser, chromium, Page } from 'playwright-core';
import request from 'supertest';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, patients } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { dueInDays } from '../setup/due-dates';
import { baseUrlOf } from '../setup/event-stream';
import { checkScreen, CHROMIUM, CHROMIUM_ARGS, describeWithChromium, openReviewPage, problemsOf, SCREENSHOTS, signInWithToken } from '../setup/review-page-browser';

/** How the page names a colleague, and a fixture patient (name and MRN). */
const SANTOS = 'Lucía Santos, MD (reviewer)';
const nameOf = (key: string) => {
  const patient = patients.find((candidate) => candidate.key === key)!;
  return { name: `${patient.familyName}, ${patient.givenName}`, mrn: `MRN ${patient.mrn}` };
};
const EDIT_REASON = 'The patient asked for letters, not calls.';
/** The page's reads of the queue (not a proposal's own, nor the event stream). */
const QUEUE_READ = /\/proposals\?/;

/**
 * A reviewer works through the queue in the page: filters and sorts it by keyboard, edits a proposal
 * (edit-and-approve, with the form the API's schema describes), and a second reviewer sees what
 * changed and approves. Every screen is checked with axe-core and photographed.
 */
describeWithChromium('the review page as a workplace, in headless Chromium', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let base: string;
  let browser: Browser;
  let santos: Page;
  let nakamura: Page;
  const problems: string[][] = [];
  const filed: Record<'outreach' | 'note' | 'lab' | 'moving', { id: string }> = {} as never;

  beforeAll(async () => {
    rmSync(SCREENSHOTS, { recursive: true, force: true }); // each run's screenshots are that run's alone
    sut = await createTestApp({ databaseUrl: database().url });
    await sut.app.listen(0, '127.0.0.1');
    base = baseUrlOf(sut.app.getHttpServer());
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close(); // first: the pages hold event streams open
    await sut?.close();
  });

  const file = async (patient: string, kind: string, content: object, rationale: string) => {
    const res = await request(sut.app.getHttpServer())
      .post(`/patients/${patientIdOf(patient)}/proposals`)
      .set('authorization', `Bearer ${await sut.tokenFor('dr.okafor')}`)
      .send({ kind, content, rationale, citations: [`obs:${fixtureId('patient', patient, 'observation', '0')}`] })
      .expect(201);
    return res.body as { id: string };
  };
  const row = (page: Page, id: string) => page.locator(`tr[data-proposal-id="${id}"]`);
  const heading = (page: Page, name: RegExp) => page.getByRole('heading', { name }).waitFor();
  /** The queue re-renders on live events: a click may land on a row being replaced, so try again (at most three times). */
  const open = async (page: Page, id: string, name: RegExp) => {
    for (let attempt = 1; ; attempt += 1) {
      await row(page, id).getByRole('button').click();
      try {
        return await heading(page, name);
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  };
  const rowIds = (page: Page) => page.locator('#queue-rows tr').evaluateAll((rows) => rows.map((tr) => tr.getAttribute('data-proposal-id')));

  it('signed out, then the queue: filtered, sorted and walked by keyboard', async () => {
    filed.outreach = await file('diabetes-a1c-stale', 'schedule_outreach', { channel: 'phone', dueDate: dueInDays(30), reason: 'Book an HbA1c recheck' }, 'Last HbA1c is older than 12 months.');
    filed.note = await file('hypertension-uncontrolled', 'add_care_note', { noteType: 'follow-up', text: 'Call about home BP readings.' }, 'Home readings were not reviewed.');
    filed.lab = await file('diabetes-a1c-9-4', 'order_lab', { loincCode: '9318-7', priority: 'routine', reason: 'Kidney health evaluation needs a uACR' }, 'No uACR this year.');

    santos = await openReviewPage(browser, base);
    problems.push(problemsOf(santos));
    await checkScreen(santos, '1-signed-out');
    await signInWithToken(santos, await sut.tokenFor('rev.santos'));
    for (const { id } of [filed.outreach, filed.note, filed.lab]) await row(santos, id).waitFor();
    // Every announcement from here on: the live stream repeats the changes of the seconds before it
    // opened (the three filings), and a filing the queue lists already is no news to this reader.
    await santos.evaluate(`(() => {
      const announcer = document.getElementById('announcer');
      window.said = [];
      new MutationObserver(() => window.said.push(announcer.textContent)).observe(announcer, { childList: true, characterData: true, subtree: true });
    })()`);
    const listening = Date.now();
    await checkScreen(santos, '2-queue');

    // Filter by kind: the server filters, so every page is filtered; the change is announced.
    await santos.getByLabel('Kind').selectOption('order_lab');
    await santos.locator('#announcer', { hasText: 'filtered by Order lab' }).waitFor();
    expect(await rowIds(santos)).toEqual([filed.lab.id]);
    // By care team, by patient and by how long it has waited.
    await santos.getByLabel('Kind').selectOption('');
    await santos.getByLabel('Care team').selectOption('primary-care-north');
    await santos.locator('#announcer', { hasText: 'filtered by care team primary-care-north' }).waitFor();
    expect(await rowIds(santos)).toEqual(expect.arrayContaining([filed.outreach.id, filed.note.id, filed.lab.id]));
    const fitzwilliam = nameOf('hypertension-uncontrolled');
    await santos.getByLabel('Patient').selectOption({ label: `${fitzwilliam.name}, ${fitzwilliam.mrn}` });
    await santos.locator('#announcer', { hasText: `patient ${fitzwilliam.name}` }).waitFor();
    expect(await rowIds(santos)).toEqual([filed.note.id]);
    await santos.getByLabel('Waiting').selectOption({ label: '1 day or more' });
    await santos.getByText('Nothing waiting matches these filters.').waitFor();
    await santos.getByRole('button', { name: 'Clear filters' }).click();
    await santos.locator('#announcer', { hasText: 'Filters cleared.' }).waitFor();

    // Two filter changes whose reads answer out of order: the first answers after the second was sent,
    // and the page says nothing of it; only the newest read's rows are shown and announced.
    const held: (() => void)[] = [];
    let bothSent!: () => void;
    const sent = new Promise<void>((resolve) => (bothSent = resolve));
    await santos.route(QUEUE_READ, async (route) => {
      // Only the two filter changes' first reads are held: any other read (a live event's refresh on a
      // loaded machine) goes through, and the newest read still decides what is shown.
      const kind = new URL(route.request().url()).searchParams.get('kind');
      if (held.length >= 2 || (kind !== 'order_lab' && kind !== 'add_care_note')) return route.continue();
      await new Promise<void>((resolve) => {
        held.push(resolve);
        if (held.length === 2) bothSent();
      });
      await route.continue();
    });
    const announced = await santos.locator('#announcer').textContent();
    await santos.getByLabel('Kind').selectOption('order_lab');
    await santos.getByLabel('Kind').selectOption('add_care_note');
    await sent;
    const firstAnswered = santos.waitForResponse((response) => QUEUE_READ.test(response.url()) && response.url().includes('kind=order_lab'));
    held[0]();
    await firstAnswered;
    await santos.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200))); // the page handles the dropped answer
    expect(await santos.locator('#announcer').textContent()).toBe(announced);
    held[1]();
    await santos.locator('#announcer', { hasText: 'filtered by Add care note' }).waitFor();
    expect(await rowIds(santos)).toEqual([filed.note.id]);
    await santos.unroute(QUEUE_READ);
    await santos.getByRole('button', { name: 'Clear filters' }).click();
    await santos.locator('#announcer', { hasText: 'Filters cleared.' }).waitFor();

    // Sorted by patient (A–Z) among the rows loaded: the sorted column says so.
    await santos.getByLabel('Sort by').selectOption('patient');
    await santos.locator('th[aria-sort]', { hasText: 'Patient' }).waitFor();
    const names = await santos.locator('#queue-rows .patient-name').allTextContents();
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));

    // Keyboard: Tab reaches a row's Review button, the arrows move between rows, Enter opens one.
    await santos.locator('#queue-rows tr button').first().focus();
    await santos.keyboard.press('ArrowDown');
    const second = await santos.locator('#queue-rows tr').nth(1).getAttribute('data-proposal-id');
    expect(await santos.evaluate("document.activeElement?.closest('tr')?.getAttribute('data-proposal-id')")).toBe(second);
    await santos.keyboard.press('Enter');
    await santos.locator('#detail-title:focus').waitFor(); // focus moves to what was opened
    await santos.getByLabel('Sort by').selectOption('oldest');
    // By now the stream's first poll (2 s after it opened, before `listening`) has been heard and its reload announced.
    await santos.waitForTimeout(Math.max(0, 3_500 - (Date.now() - listening)));
    const said = (await santos.evaluate('window.said')) as string[];
    expect(said.filter((text) => text.includes('New proposal'))).toEqual([]);

    // A filter change whose own read a live refresh overtakes (a filing lands while it is in flight):
    // the refresh shows the filtered rows, and the change is still announced.
    let release: (() => void) | undefined;
    const filterReadHeld = new Promise<void>((resolve) =>
      santos.route(QUEUE_READ, async (route) => {
        if (release || new URL(route.request().url()).searchParams.get('kind') !== 'schedule_outreach') return route.continue();
        const released = new Promise<void>((go) => (release = go));
        resolve();
        await released;
        await route.continue();
      }),
    );
    await santos.getByLabel('Kind').selectOption('schedule_outreach');
    await filterReadHeld;
    const late = await file('diabetes-a1c-8-1', 'schedule_outreach', { channel: 'letter', dueDate: dueInDays(21), reason: 'Invite to the diabetes clinic' }, 'No visit this year.');
    await row(santos, late.id).waitFor();
    await santos.locator('#announcer', { hasText: 'filtered by Schedule outreach' }).waitFor();
    const heldAnswered = santos.waitForResponse((response) => QUEUE_READ.test(response.url()) && response.url().includes('kind=schedule_outreach'));
    release?.();
    await heldAnswered;
    await santos.unroute(QUEUE_READ);
    await santos.getByRole('button', { name: 'Clear filters' }).click();
    await santos.locator('#announcer', { hasText: 'Filters cleared.' }).waitFor();
  }, 90_000);

  it('a proposal opened: who and what, and a version that changes under the reader is said, then cleared', async () => {
    const whitaker = nameOf('diabetes-a1c-stale');
    await open(santos, filed.outreach.id, new RegExp(`Schedule outreach for ${whitaker.name}, ${whitaker.mrn}: pending`));
    await checkScreen(santos, '3-detail');
    // Another reviewer edits the note while Santos reads it: the page says so instead of deciding on it silently.
    filed.moving = filed.note;
    await open(santos, filed.note.id, /Add care note for .+: pending/);
    await request(sut.app.getHttpServer())
      .post(`/proposals/${filed.note.id}/edit-and-approve`)
      .set('authorization', `Bearer ${await sut.tokenFor('rev.nakamura')}`)
      .send({ version: 1, content: { noteType: 'follow-up', text: 'Call about home BP readings this week.' } })
      .expect(200);
    await santos.getByText('Version 2 arrived while you were reading version 1', { exact: false }).waitFor({ timeout: 10_000 });
    // The next selection starts clean: no stale error from the proposal before.
    await open(santos, filed.outreach.id, /Schedule outreach for .+: pending/);
    expect(await santos.locator('#error').isVisible()).toBe(false);
  }, 60_000);

  it('edits a proposal in the page (edit-and-approve), with the form the API’s schema describes', async () => {
    await santos.getByRole('button', { name: 'Edit and approve…' }).click();
    await santos.getByRole('form', { name: 'Edit and approve' }).waitFor();
    // Every field of the kind, each labelled required or optional with its rules.
    for (const label of ['Channel (required)', 'Due date (required)', 'Reason (required)', 'Rationale (optional)', 'Reason for the edit (optional)']) {
      await santos.getByLabel(label, { exact: true }).waitFor();
    }
    expect(await santos.evaluate('document.activeElement?.id')).toBe('edit-content-channel');
    await checkScreen(santos, '4-edit-form');

    // A due date in the past is refused beside its field, before anything is sent.
    await santos.getByLabel('Due date (required)').fill('2020-01-01');
    await santos.getByRole('button', { name: 'Save as a new version and approve it' }).click();
    await santos.locator('#edit-content-dueDate-error', { hasText: 'must be today' }).waitFor();
    expect(await santos.getByLabel('Due date (required)').getAttribute('aria-invalid')).toBe('true');
    expect(await santos.evaluate('document.activeElement?.id')).toBe('edit-content-dueDate');
    const [{ current_version: unchanged }] = await database().dataSource.query(`SELECT current_version FROM proposals WHERE id = $1`, [filed.outreach.id]);
    expect(unchanged).toBe(1);
    await checkScreen(santos, '5-edit-form-refused');

    await santos.getByLabel('Channel (required)').selectOption('letter');
    await santos.getByLabel('Due date (required)').fill(dueInDays(14));
    await santos.getByLabel('Reason for the edit (optional)').fill(EDIT_REASON);
    await santos.getByRole('button', { name: 'Save as a new version and approve it' }).click();
    await santos.locator('#announcer', { hasText: 'Edited and approved: version 2 of Schedule outreach for' }).waitFor();
    await santos.locator('#detail-title:focus').waitFor();

    // The history in order, explained: the edit, then the editor's own approval, which does not count.
    const history = await santos.locator('#detail-history li').allTextContents();
    const edited = history.findIndex((line) => line.includes(`Edited version 1 into version 2 by ${SANTOS}: “${EDIT_REASON}”`));
    const approved = history.findIndex((line) => line.includes(`Approved version 2 by ${SANTOS}, who wrote it: an author’s own approval does not count.`));
    expect(edited).toBeGreaterThan(0);
    expect(approved).toBe(edited + 1);
    await santos.locator('#detail-summary', { hasText: 'Approvals0 of 1 for version 2' }).waitFor();
    await santos.locator('#detail-approvals-note', { hasText: 'wrote version 2 (an edit), so their own approval of it does not count' }).waitFor();
    // Their approval is the one they may withdraw; approving again is not offered.
    expect(await santos.getByRole('button', { name: 'Withdraw my approval' }).isVisible()).toBe(true);
    expect(await santos.getByRole('button', { name: /^Approve version/ }).isVisible()).toBe(false);
  }, 60_000);

  it('a second reviewer sees what changed, field by field, and approves', async () => {
    nakamura = await openReviewPage(browser, base);
    problems.push(problemsOf(nakamura));
    await signInWithToken(nakamura, await sut.tokenFor('rev.nakamura'));
    await open(nakamura, filed.outreach.id, /Schedule outreach for .+: pending/);
    await nakamura.getByRole('heading', { name: /Changes from version 1 to version 2 \(2 fields changed\)/ }).waitFor();
    const changes = Object.fromEntries(
      await nakamura.locator('#changes-rows tr').evaluateAll((rows) => rows.map((tr) => [tr.querySelector('th')?.textContent, [...tr.querySelectorAll('td')].map((td) => td.textContent)])),
    );
    expect(changes.Channel).toEqual(['phone', 'letter', 'changed']);
    expect(changes['Due date']).toEqual([dueInDays(30), dueInDays(14), 'changed']);
    expect(changes.Reason).toEqual(['Book an HbA1c recheck', 'Book an HbA1c recheck', 'unchanged']);
    // Every version is there in full.
    expect(await nakamura.locator('#detail-versions details').count()).toBe(2);
    await checkScreen(nakamura, '6-diff');

    await nakamura.getByRole('button', { name: 'Approve version 2' }).click();
    const whitaker = nameOf('diabetes-a1c-stale');
    await nakamura.locator('#announcer', { hasText: `Approved: Schedule outreach for ${whitaker.name}, ${whitaker.mrn} is now` }).waitFor();
    await heading(nakamura, /Schedule outreach for .+: (approved|executing|executed)/);
    await nakamura.locator('#detail-title:focus').waitFor();
    await row(nakamura, filed.outreach.id).waitFor({ state: 'detached' });
    await checkScreen(nakamura, '7-after-decision');

    const decisions = await database().dataSource.query(
      `SELECT d.version, d.decision, s.username FROM proposal_decisions d JOIN staff_users s ON s.id = d.actor_id WHERE d.proposal_id = $1
       ORDER BY d.created_at, array_position(ARRAY['edit', 'approve'], d.decision)`,
      [filed.outreach.id],
    );
    expect(decisions).toEqual([
      { version: 2, decision: 'edit', username: 'rev.santos' },
      { version: 2, decision: 'approve', username: 'rev.santos' },
      { version: 2, decision: 'approve', username: 'rev.nakamura' },
    ]);
    const [version] = await database().dataSource.query(`SELECT content FROM proposal_versions WHERE proposal_id = $1 AND version = 2`, [filed.outreach.id]);
    expect(version.content).toEqual({ channel: 'letter', dueDate: dueInDays(14), reason: 'Book an HbA1c recheck' });
    expect(problems.flat()).toEqual([]);
  }, 60_000);
});
