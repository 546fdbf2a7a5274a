import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { useSeededDatabase } from '../setup/database';
import { signInByCode } from '../setup/oidc-code-flow';
import { OidcProvider, signingKey, startOidcProvider } from '../setup/oidc-provider';

const CLIENT = 'vigil-api-test';
/** Never fetched: the helper stops at the redirect and exchanges the code itself. */
const REDIRECT = 'http://127.0.0.1:9/callback';

/**
 * Who a person signed in at the organisation's identity provider is in Vigil: the provider (the
 * certified `oidc-provider`, started by the test) signs people in by the authorization code grant
 * with PKCE and issues their access tokens; Vigil matches each token to a staff member by the
 * configured claim, refuses everyone else with the one 401 (audited as a refused sign-in with its
 * reason), and creates no one.
 */
describe('signing in with the identity provider’s tokens: identity matching', () => {
  const database = useSeededDatabase();
  let provider: OidcProvider;
  const apps: Record<string, TestApp> = {};

  /** Accounts at the provider (the login is the `sub`), with the claims their access tokens carry. */
  const accounts = {
    'rev.santos': {},
    'idp-santos': { email: 'Lucia.Santos@Example.ORG', email_verified: true, npi: '1234567893', groups: ['staff', 'vigil-reviewers'] },
    // The same person (by e-mail and NPI) signed in with groups that grant another role only.
    'idp-santos-clinician': { email: 'lucia.santos@example.org', npi: '1234567893', groups: ['vigil-clinicians'] },
    'idp-santos-unverified': { email: 'lucia.santos@example.org', email_verified: false },
    'idp-santos-no-role': { email: 'lucia.santos@example.org', groups: ['staff'] },
    'idp-vance': { email: 'harold.vance@example.org', npi: '1111111112', groups: ['vigil-clinicians'] },
    'idp-stranger': { email: 'stranger@example.org', npi: '1999999991', groups: ['vigil-reviewers'] },
    'idp-bare': {},
  };

  beforeAll(async () => {
    const db = database().dataSource;
    // rev.santos is active, dr.vance deactivated (fixtures); the provider knows them by these identifiers.
    await db.query(`UPDATE staff_users SET identity_subject = 'idp-santos', email = 'lucia.santos@example.org', npi = '1234567893' WHERE username = 'rev.santos'`);
    await db.query(`UPDATE staff_users SET identity_subject = 'idp-vance', email = 'harold.vance@example.org', npi = '1111111112' WHERE username = 'dr.vance'`);
    provider = await startOidcProvider({ keys: [await signingKey('key-a')], clients: [], publicClients: [{ client_id: CLIENT, redirect_uris: [REDIRECT] }], accounts });
    const env = { AUTH_DEV_MODE: 'false', AUTH_JWKS_URL: provider.jwksUrl, AUTH_ISSUER: provider.issuer, AUTH_AUDIENCE: 'vigil' };
    for (const [name, extra] of Object.entries<Record<string, string>>({
      username: {},
      sub: { AUTH_IDENTITY_CLAIM: 'sub' },
      email: { AUTH_IDENTITY_CLAIM: 'email' },
      npi: { AUTH_IDENTITY_CLAIM: 'npi' },
      'sub+groups': { AUTH_IDENTITY_CLAIM: 'sub', AUTH_ROLE_CLAIM: 'groups', AUTH_ROLE_MAP: 'vigil-clinicians=clinician,vigil-reviewers=reviewer' },
      'email+groups': { AUTH_IDENTITY_CLAIM: 'email', AUTH_ROLE_CLAIM: 'groups', AUTH_ROLE_MAP: 'vigil-clinicians=clinician,vigil-reviewers=reviewer' },
    })) {
      apps[name] = await createTestApp({ databaseUrl: database().url, env: { ...env, ...extra } });
    }
  }, 90_000);
  afterAll(async () => {
    for (const app of Object.values(apps)) await app.close();
    await provider?.stop();
  });

  const tokens = new Map<string, Promise<string>>();
  /** An access token the provider issued to `login` after a real code + PKCE sign-in (one per login). */
  const tokenOf = (login: keyof typeof accounts) => {
    if (!tokens.has(login)) tokens.set(login, signInByCode(provider.issuer, { clientId: CLIENT, redirectUri: REDIRECT, login }).then((t) => t.access_token));
    return tokens.get(login)!;
  };

  /** Who `login`'s token signs in as on app `name` (GET /proposals, the review queue), and what the audit trail says. */
  const attempt = async (name: string, login: keyof typeof accounts) => {
    const res = await request(apps[name].app.getHttpServer()).get('/proposals').set('authorization', `Bearer ${await tokenOf(login)}`);
    const audited = await database().dataSource.query(`SELECT action, outcome, fields, actor_id AS "actorId" FROM audit_events WHERE correlation_id = $1`, [res.headers['x-correlation-id']]);
    return { status: res.status, body: res.body as { code?: string }, audited };
  };
  const staffId = async (username: string) => (await database().dataSource.query(`SELECT id FROM staff_users WHERE username = $1`, [username]))[0].id as string;

  it.each<[string, keyof typeof accounts, string]>([
    // AUTH_IDENTITY_CLAIM unset: `sub` is the username, as for development tokens.
    ['username', 'rev.santos', 'admitted'],
    ['username', 'idp-santos', 'unknown_identity'],
    ['sub', 'idp-santos', 'admitted'],
    ['sub', 'rev.santos', 'unknown_identity'],
    ['sub', 'idp-stranger', 'unknown_identity'],
    ['sub', 'idp-vance', 'inactive'],
    // Mixed case in the token, lower case in the row: one address.
    ['email', 'idp-santos', 'admitted'],
    ['email', 'idp-santos-clinician', 'admitted'],
    ['email', 'idp-stranger', 'unknown_identity'],
    ['email', 'idp-vance', 'inactive'],
    ['email', 'idp-bare', 'no_identity_claim'],
    ['email', 'idp-santos-unverified', 'no_identity_claim'],
    ['npi', 'idp-santos', 'admitted'],
    ['npi', 'idp-stranger', 'unknown_identity'],
    ['npi', 'idp-vance', 'inactive'],
    ['npi', 'idp-bare', 'no_identity_claim'],
    // The provider's groups must grant the staff row's role as well.
    ['sub+groups', 'idp-santos', 'admitted'],
    ['sub+groups', 'idp-vance', 'inactive'],
    ['email+groups', 'idp-santos-clinician', 'group_role_mismatch'],
    ['email+groups', 'idp-santos-no-role', 'no_group_role'],
    ['email+groups', 'idp-santos-unverified', 'no_identity_claim'],
    ['email+groups', 'idp-santos', 'admitted'],
  ])('AUTH_IDENTITY_CLAIM=%s: the provider’s token for %s → %s', async (name, login, expected) => {
    const result = await attempt(name, login);
    if (expected === 'admitted') {
      expect(result.status).toBe(200);
      // The queue read is audited as rev.santos's own, and no sign-in was refused.
      const santos = await staffId('rev.santos');
      expect(result.audited.map((row: { action: string; actorId: string }) => [row.action, row.actorId])).toEqual(result.audited.map((row: { action: string }) => [row.action, santos]));
      expect(result.audited.map((row: { action: string }) => row.action)).not.toContain('sign_in');
      return;
    }
    expect({ status: result.status, code: result.body.code }).toEqual({ status: 401, code: 'unauthenticated' });
    const actor = expected === 'inactive' ? await staffId('dr.vance') : ['group_role_mismatch', 'no_group_role'].includes(expected) ? await staffId('rev.santos') : null;
    expect(result.audited).toEqual([{ action: 'sign_in', outcome: 'unauthenticated', fields: [`reason:${expected}`], actorId: actor }]);
  });

  it('a groups claim without the staff member’s role refuses even a token that names them by subject', async () => {
    await database().dataSource.query(`UPDATE staff_users SET identity_subject = 'idp-santos-clinician' WHERE username = 'rev.nakamura'`);
    const result = await attempt('sub+groups', 'idp-santos-clinician');
    expect(result.status).toBe(401);
    expect(result.audited).toEqual([{ action: 'sign_in', outcome: 'unauthenticated', fields: ['reason:group_role_mismatch'], actorId: await staffId('rev.nakamura') }]);
  });

  it('never creates a staff member for an identity it does not know', async () => {
    const count = async () => Number((await database().dataSource.query(`SELECT count(*) AS n FROM staff_users`))[0].n);
    const before = await count();
    for (const name of ['sub', 'email', 'npi']) expect((await attempt(name, 'idp-stranger')).status).toBe(401);
    expect(await count()).toBe(before);
  });
});
