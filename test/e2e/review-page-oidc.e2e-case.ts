import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { Browser, chromium, Page } from 'playwright-core';
import request from 'supertest';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { baseUrlOf } from '../setup/event-stream';
import { refreshAt, signInByCode } from '../setup/oidc-code-flow';
import { OidcProvider, signingKey, startOidcProvider } from '../setup/oidc-provider';

/** Debian's Chromium, installed by .ci/run when missing; never a browser downloaded by Playwright. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const describeWithChromium = existsSync(CHROMIUM)
  ? describe
  : (name: string, body: () => void) => describe.skip(`${name} [skipped: ${CHROMIUM} is missing; install Debian's chromium, as .ci/run does]`, body);

const CLIENT = 'vigil-review';
/** Short-lived access tokens, so the page must refresh while the test watches. */
const ACCESS_TOKEN_TTL = 20;
const GROUPS = 'vigil-clinicians=clinician,vigil-reviewers=reviewer';

/** A port nothing listens on yet, for the provider: Vigil must know its issuer before it starts, and the provider Vigil's page address. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The review page signing in with the organisation's identity provider (the certified
 * `oidc-provider`, started by the test): authorization code with PKCE from the page, the provider's
 * own login and consent pages, the queue read with the provider's access token (matched to rev.santos
 * by `sub`, with the provider's groups granting the reviewer role), a refresh before the short-lived
 * token expires, and a sign-out that revokes the refresh token and ends the provider's session.
 */
describeWithChromium('the review page signs in with OpenID Connect, in headless Chromium', () => {
  const database = useSeededDatabase();
  let provider: OidcProvider;
  let sut: TestApp;
  let base: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  /** Every URL the page asked Vigil for, and whether it was a navigation (the provider's redirect back is one). */
  const vigilRequests: Array<{ url: string; navigation: boolean }> = [];

  beforeAll(async () => {
    const db = database().dataSource;
    await db.query(`UPDATE staff_users SET identity_subject = 'idp-santos' WHERE username = 'rev.santos'`);
    await db.query(`UPDATE staff_users SET identity_subject = 'idp-okafor' WHERE username = 'dr.okafor'`);
    const providerPort = await freePort();
    const issuer = `http://127.0.0.1:${providerPort}`;
    sut = await createTestApp({
      databaseUrl: database().url,
      env: {
        AUTH_DEV_MODE: 'false',
        AUTH_JWKS_URL: `${issuer}/jwks`,
        AUTH_ISSUER: issuer,
        AUTH_AUDIENCE: 'vigil',
        AUTH_IDENTITY_CLAIM: 'sub',
        AUTH_ROLE_CLAIM: 'groups',
        AUTH_ROLE_MAP: GROUPS,
        OIDC_CLIENT_ID: CLIENT,
      },
    });
    await sut.app.listen(0, '127.0.0.1');
    base = baseUrlOf(sut.app.getHttpServer());
    provider = await startOidcProvider({
      keys: [await signingKey('key-a')],
      clients: [],
      port: providerPort,
      publicClients: [{ client_id: CLIENT, redirect_uris: [`${base}/review`] }],
      accounts: { 'idp-santos': { groups: ['vigil-reviewers'] }, 'idp-okafor': { groups: ['vigil-clinicians'] } },
      accessTokenTtlSeconds: ACCESS_TOKEN_TTL,
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close(); // first: the page holds the event stream open
    await sut?.close();
    await provider?.stop();
  });

  /** Dr Okafor files a proposal with the provider's token for them (a code + PKCE sign-in over HTTP). */
  const file = async (patient: string, text: string) => {
    const { access_token: token } = await signInByCode(provider.issuer, { clientId: CLIENT, redirectUri: `${base}/review`, login: 'idp-okafor' });
    const citations = [`obs:${fixtureId('patient', patient, 'observation', '0')}`];
    const res = await request(sut.app.getHttpServer())
      .post(`/patients/${patientIdOf(patient)}/proposals`)
      .set('authorization', `Bearer ${token}`)
      .send({ kind: 'add_care_note', content: { noteType: 'follow-up', text }, rationale: 'Home readings were not reviewed.', citations })
      .expect(201);
    return (res.body as { id: string }).id;
  };
  const row = (id: string) => page.locator(`tr[data-proposal-id="${id}"]`);
  const session = async () =>
    JSON.parse(((await page.evaluate(`sessionStorage.getItem('vigil.review.oidc.session')`)) as string | null) ?? 'null') as { accessToken: string; refreshToken: string; expiresAt: number } | null;
  const tokenRequests: string[] = [];

  it('redeems no forged callback, then signs in at the provider with code + PKCE, and comes back with no code or token in the address', async () => {
    const first = await file('hypertension-uncontrolled', 'Call about home BP readings.');
    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // Vigil's page only: the provider's development pages load web fonts this machine cannot reach.
      // The browser asks for /favicon.ico on its own; Vigil has none.
      if (message.type() === 'error' && page.url().startsWith(base) && !message.location().url.endsWith('/favicon.ico')) problems.push(message.text());
    });
    page.on('request', (sent) => {
      if (sent.url().startsWith(base)) vigilRequests.push({ url: sent.url(), navigation: sent.isNavigationRequest() });
      if (sent.url() === `${provider.issuer}/token`) tokenRequests.push(sent.postData() ?? '');
    });

    // A callback this tab did not start, then one whose state is not the one it sent: no code is redeemed.
    const forged = `${base}/review?code=forged-code&state=forged-state&iss=${encodeURIComponent(provider.issuer)}`;
    await page.goto(forged);
    await page.getByText('That sign-in was not started in this tab').waitFor();
    expect(page.url()).toBe(`${base}/review`);
    await page.getByRole('button', { name: 'Sign in with your organisation' }).click();
    await page.waitForURL(`${provider.issuer}/**`);
    await page.goto(forged);
    await page.getByText('The sign-in with your organisation could not be completed').waitFor();
    expect(tokenRequests).toEqual([]);
    vigilRequests.length = 0;

    const response = await page.goto(`${base}/review`);
    expect(response?.headers()['content-security-policy']).toContain(`connect-src 'self' ${provider.issuer}`);
    const button = page.getByRole('button', { name: 'Sign in with your organisation' });
    await button.waitFor();
    // Development mode is off: no token to paste.
    expect(await page.getByLabel('Access token').isVisible()).toBe(false);

    await button.click();
    // The provider's own pages: any password, the account is the login.
    await page.waitForURL(`${provider.issuer}/**`);
    await page.locator('input[name="login"]').fill('idp-santos');
    await page.locator('input[name="password"]').fill('any');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await row(first).waitFor({ timeout: 15_000 });
    expect(page.url()).toBe(`${base}/review`); // code, state and iss stripped from the address and the history
    const tokens = await session();
    expect(tokens?.refreshToken).toEqual(expect.any(String));
    expect(await page.evaluate('Object.keys(sessionStorage).sort()')).toEqual(['vigil.review.oidc.session']); // the PKCE verifier is gone
    // The code reached Vigil once, in the provider's redirect back; the token travels in the
    // Authorization header only, never in a URL the page asks for.
    expect(vigilRequests.filter(({ url }) => url.includes('code=')).map(({ navigation }) => navigation)).toEqual([true]);
    expect(vigilRequests.filter(({ url }) => url.includes(tokens!.accessToken))).toEqual([]);
    await page.getByText('Live updates on').waitFor();
  }, 60_000);

  it('refreshes the access token before it expires, and goes on working after the first one has', async () => {
    const before = (await session())!;
    await page.waitForRequest((sent) => sent.url() === `${provider.issuer}/token` && (sent.postData() ?? '').includes('grant_type=refresh_token'), { timeout: ACCESS_TOKEN_TTL * 1000 });
    expect(Date.now()).toBeLessThan(before.expiresAt); // before the token expired, not after a refusal
    // Polled from here: the page's CSP allows no string evaluation, which waitForFunction would need.
    let after = (await session())!;
    for (let tries = 0; after.accessToken === before.accessToken && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = (await session())!;
    }
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken); // rotated, as the provider does for public clients
    // Past the first token's expiry: the event stream ended with it and came back with the new one.
    // The page reckons the expiry from when the token reached it, so no earlier than its `exp`; two seconds more for a busy machine's timers.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, before.expiresAt + 2_000 - Date.now())));
    const late = await file('diabetes-a1c-9-4', 'Discuss the repeat HbA1c.');
    await row(late).waitFor({ timeout: 15_000 });
    expect(await page.locator('#error').isVisible()).toBe(false);
  }, 90_000);

  it('signs out: the page revokes the refresh token, then the provider’s session ends', async () => {
    const { refreshToken } = (await session())!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    // The provider asks to confirm the end of its session; by then the page has revoked the refresh token.
    const confirm = page.getByRole('button', { name: 'Yes, sign me out' });
    await confirm.waitFor();
    const reused = await refreshAt(provider.issuer, CLIENT, refreshToken);
    expect({ status: reused.status, error: ((await reused.json()) as { error: string }).error }).toEqual({ status: 400, error: 'invalid_grant' });
    await confirm.click();
    await page.waitForURL(`${base}/review`);
    await page.getByRole('button', { name: 'Sign in with your organisation' }).waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(problems).toEqual([]);
  }, 60_000);

  it('refuses an account Vigil does not know, says so, and asks the provider to sign in afresh next time', async () => {
    // The provider's session is gone: its login page again, not the queue.
    await page.getByRole('button', { name: 'Sign in with your organisation' }).click();
    await page.locator('input[name="login"]').fill('idp-stranger');
    await page.locator('input[name="password"]').fill('any');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Vigil does not know that account as an active staff member').waitFor();
    expect(await page.locator('#workspace').isVisible()).toBe(false);
    expect(await page.evaluate('Object.keys(sessionStorage)')).toEqual(['vigil.review.oidc.refused']);
    // The next attempt makes the provider ask who is signing in, though its session still knows the stranger.
    await page.getByRole('button', { name: 'Sign in with your organisation' }).click();
    await page.waitForURL(`${provider.issuer}/**`);
    await page.locator('input[name="login"]').waitFor();
    // Vigil answered 401 to the page's first read, and again once the page had refreshed the token: nothing else failed.
    expect(problems).toEqual(['Failed to load resource: the server responded with a status of 401 (Unauthorized)', 'Failed to load resource: the server responded with a status of 401 (Unauthorized)']);
  }, 60_000);
});
