import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import request from 'supertest';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { dueInDays } from '../setup/due-dates';
import { baseUrlOf } from '../setup/event-stream';
import { signInByCode } from '../setup/oidc-code-flow';
import { OidcProvider, signingKey, startOidcProvider } from '../setup/oidc-provider';
import { checkScreen as checkScreenIn, CHROMIUM, CHROMIUM_ARGS, describeWithChromium, openReviewPage, problemsOf } from '../setup/review-page-browser';

const CLIENT = 'vigil-review';
const PATIENT = 'diabetes-a1c-stale';
const EDIT_REASON = 'The patient asked for a letter.';
/** This file's screenshots, apart from the other review page tests' (each clears its own folder). */
const SCREENSHOTS = join(__dirname, 'artifacts', 'review-acceptance');
const checkScreen = (page: Page, name: string) => checkScreenIn(page, name, SCREENSHOTS);

/** A port nothing listens on yet: Vigil must know the provider's issuer before either starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whole years between a birth date and today (UTC), as a person counts them. */
function ageOn(birthDate: string, today = new Date()): number {
  const [y, m, d] = birthDate.split('-').map(Number);
  const before = today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d);
  return today.getUTCFullYear() - y - (before ? 1 : 0);
}

/**
 * The review page's acceptance, end to end: two reviewers sign in at the organisation's identity
 * provider (authorization code + PKCE in Chromium, no development token anywhere), the first sees
 * who the patient and the proposer are in the queue and the detail and edits the proposal
 * (edit-and-approve), the second sees the field-by-field diff and approves it. Every screen is
 * checked with axe-core and photographed; the database holds the decisions and the audit trail.
 */
describeWithChromium('review acceptance: OIDC sign-in, who and what, edit, diff and approval, in headless Chromium', () => {
  const database = useSeededDatabase();
  let provider: OidcProvider;
  let sut: TestApp;
  let base: string;
  let browser: Browser;
  const problems: string[][] = [];
  let proposalId: string;
  /** The patient and proposer as the database has them, what the page must show. */
  let expected: { name: string; mrn: string; age: string; proposer: string };

  beforeAll(async () => {
    rmSync(SCREENSHOTS, { recursive: true, force: true }); // each run's screenshots are that run's alone
    const db = database().dataSource;
    for (const [username, subject] of [['rev.santos', 'idp-santos'], ['rev.nakamura', 'idp-nakamura'], ['dr.okafor', 'idp-okafor']]) {
      await db.query(`UPDATE staff_users SET identity_subject = $2 WHERE username = $1`, [username, subject]);
    }
    const issuer = `http://127.0.0.1:${await freePort()}`;
    sut = await createTestApp({
      databaseUrl: database().url,
      env: { AUTH_DEV_MODE: 'false', AUTH_JWKS_URL: `${issuer}/jwks`, AUTH_ISSUER: issuer, AUTH_AUDIENCE: 'vigil', AUTH_IDENTITY_CLAIM: 'sub', OIDC_CLIENT_ID: CLIENT },
    });
    await sut.app.listen(0, '127.0.0.1');
    base = baseUrlOf(sut.app.getHttpServer());
    provider = await startOidcProvider({
      keys: [await signingKey('key-a')],
      clients: [],
      port: Number(new URL(issuer).port),
      publicClients: [{ client_id: CLIENT, redirect_uris: [`${base}/review`] }],
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

    // Dr Okafor files the proposal with the provider's token for her (code + PKCE over HTTP).
    const { access_token: token } = await signInByCode(provider.issuer, { clientId: CLIENT, redirectUri: `${base}/review`, login: 'idp-okafor' });
    const res = await request(sut.app.getHttpServer())
      .post(`/patients/${patientIdOf(PATIENT)}/proposals`)
      .set('authorization', `Bearer ${token}`)
      .send({
        kind: 'schedule_outreach',
        content: { channel: 'phone', dueDate: dueInDays(30), reason: 'Book an HbA1c recheck' },
        rationale: 'Last HbA1c is older than 12 months.',
        citations: [`obs:${fixtureId('patient', PATIENT, 'observation', '0')}`],
      })
      .expect(201);
    proposalId = (res.body as { id: string }).id;
    const [patient] = await db.query(`SELECT family_name, given_name, mrn, birth_date::text AS birth FROM patients WHERE id = $1`, [patientIdOf(PATIENT)]);
    const [proposer] = await db.query(`SELECT display_name FROM staff_users WHERE username = 'dr.okafor'`);
    expected = { name: `${patient.family_name}, ${patient.given_name}`, mrn: `MRN ${patient.mrn}`, age: `${ageOn(patient.birth)} y`, proposer: `${proposer.display_name} (clinician)` };
  }, 60_000);
  afterAll(async () => {
    await browser?.close(); // first: the pages hold event streams open
    await sut?.close();
    await provider?.stop();
  });

  /** A tab of its own (its own cookies, so its own provider session) signed in at the provider as `login`. */
  const signIn = async (login: string, screen?: string): Promise<Page> => {
    const page = await openReviewPage(browser, base);
    // Vigil's page only: the provider's development pages load web fonts this machine cannot reach.
    const pageProblems = problemsOf(page);
    problems.push(pageProblems);
    const button = page.getByRole('button', { name: 'Sign in with your organisation' });
    await button.waitFor();
    if (screen) await checkScreen(page, screen);
    await button.click();
    await page.waitForURL(`${provider.issuer}/**`);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#workspace').waitFor({ timeout: 15_000 });
    expect(page.url()).toBe(`${base}/review`);
    pageProblems.length = 0; // what the provider's pages logged is not Vigil's
    return page;
  };
  const row = (page: Page, id: string) => page.locator(`tr[data-proposal-id="${id}"]`);
  /** The queue re-renders on live events: a click may land on a row being replaced, so try again (at most three times). */
  const open = async (page: Page, name: RegExp) => {
    for (let attempt = 1; ; attempt += 1) {
      await row(page, proposalId).getByRole('button').click();
      try {
        return await page.getByRole('heading', { name }).waitFor({ timeout: 5_000 });
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  };
  const facts = async (page: Page) =>
    Object.fromEntries(await page.locator('#detail-summary dt').evaluateAll((terms) => terms.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])));
  let santos: Page;

  it('the first reviewer signs in through OIDC and sees the patient’s name, MRN and age and the proposer’s name in the queue and the detail', async () => {
    santos = await signIn('idp-santos', '1-signed-out');
    const queued = row(santos, proposalId);
    await queued.waitFor();
    expect(await queued.locator('.patient-name').textContent()).toBe(expected.name);
    const patientFacts = (await queued.locator('.patient-facts').textContent()) ?? '';
    expect(patientFacts).toContain(expected.mrn);
    expect(patientFacts).toContain(expected.age);
    expect(await queued.textContent()).toContain(expected.proposer);
    await checkScreen(santos, '2-queue');

    await open(santos, new RegExp(`Schedule outreach for ${expected.name}, ${expected.mrn}: pending`));
    expect(await facts(santos)).toMatchObject({ Patient: expected.name, MRN: expected.mrn.replace('MRN ', ''), 'Age, sex': expect.stringContaining(expected.age), 'Proposed by': expected.proposer });
    await checkScreen(santos, '3-detail');
  }, 60_000);

  it('edits the proposal in the page (edit-and-approve)', async () => {
    await santos.getByRole('button', { name: 'Edit and approve…' }).click();
    await santos.getByRole('form', { name: 'Edit and approve' }).waitFor();
    await checkScreen(santos, '4-edit-form');
    await santos.getByLabel('Channel (required)').selectOption('letter');
    await santos.getByLabel('Due date (required)').fill(dueInDays(14));
    await santos.getByLabel('Reason for the edit (optional)').fill(EDIT_REASON);
    await santos.getByRole('button', { name: 'Save as a new version and approve it' }).click();
    await santos.locator('#announcer', { hasText: `Edited and approved: version 2 of Schedule outreach for ${expected.name}` }).waitFor();
    await santos.locator('#detail-summary', { hasText: 'Approvals0 of 1 for version 2' }).waitFor();
    await checkScreen(santos, '5-edited');
  }, 60_000);

  it('a second reviewer, signed in through OIDC, sees the diff and approves it; the database holds the decisions and the audit trail', async () => {
    const nakamura = await signIn('idp-nakamura');
    await open(nakamura, new RegExp(`Schedule outreach for ${expected.name}, ${expected.mrn}: pending`));
    expect(await facts(nakamura)).toMatchObject({ Patient: expected.name, 'Proposed by': expected.proposer });
    await nakamura.getByRole('heading', { name: /Changes from version 1 to version 2 \(2 fields changed\)/ }).waitFor();
    const changes = Object.fromEntries(
      await nakamura.locator('#changes-rows tr').evaluateAll((rows) => rows.map((tr) => [tr.querySelector('th')?.textContent, [...tr.querySelectorAll('td')].map((td) => td.textContent)])),
    );
    expect(changes).toMatchObject({ Channel: ['phone', 'letter', 'changed'], 'Due date': [dueInDays(30), dueInDays(14), 'changed'], Reason: ['Book an HbA1c recheck', 'Book an HbA1c recheck', 'unchanged'] });
    await checkScreen(nakamura, '6-diff');

    await nakamura.getByRole('button', { name: 'Approve version 2' }).click();
    await nakamura.locator('#announcer', { hasText: `Approved: Schedule outreach for ${expected.name}, ${expected.mrn} is now` }).waitFor();
    await row(nakamura, proposalId).waitFor({ state: 'detached' });
    await checkScreen(nakamura, '7-after-decision');

    const sql = (text: string) => database().dataSource.query(text, [proposalId]);
    const [{ status, current_version: version }] = await sql(`SELECT status, current_version FROM proposals WHERE id = $1`);
    expect(version).toBe(2);
    expect(['approved', 'executing', 'executed']).toContain(status); // a queue worker may already have run it
    expect(
      await sql(`SELECT d.version, d.decision, s.username, d.reason FROM proposal_decisions d JOIN staff_users s ON s.id = d.actor_id WHERE d.proposal_id = $1
                 ORDER BY d.created_at, array_position(ARRAY['edit', 'approve'], d.decision)`),
    ).toEqual([
      { version: 2, decision: 'edit', username: 'rev.santos', reason: EDIT_REASON },
      { version: 2, decision: 'approve', username: 'rev.santos', reason: EDIT_REASON }, // the edit's reason, on the editor's own approval too
      { version: 2, decision: 'approve', username: 'rev.nakamura', reason: null },
    ]);
    const [v2] = await sql(`SELECT content FROM proposal_versions WHERE proposal_id = $1 AND version = 2`);
    expect(v2.content).toEqual({ channel: 'letter', dueDate: dueInDays(14), reason: 'Book an HbA1c recheck' });
    // The audit trail: each person by their staff id, through the API, for this proposal.
    const audited = await sql(
      `SELECT a.action, s.username FROM audit_events a JOIN staff_users s ON s.id = a.actor_id
       WHERE 'proposal:' || $1::text = ANY (a.fields) ORDER BY a.id`,
    );
    expect(audited).toEqual(
      expect.arrayContaining([
        { action: 'proposal.create', username: 'dr.okafor' },
        { action: 'proposal.edit_and_approve', username: 'rev.santos' },
        { action: 'proposal.approve', username: 'rev.nakamura' },
      ]),
    );
    expect(problems.flat()).toEqual([]);
  }, 60_000);
});
