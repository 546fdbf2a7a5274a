import { createServer } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ProposalEventStream } from '../../src/approvals/events/proposal-event-stream';
import { COMMANDS } from '../../src/cli/commands';
import { dataSourceOptions } from '../../src/data-source';
import { runMigrations } from '../../src/database/schema';
import { rowId } from '../../src/fhir-import/references';
import { createTestApp, TestApp } from '../setup/app';
import { useEmptyDatabase } from '../setup/database';
import { dueInDays } from '../setup/due-dates';
import { baseUrlOf, EventStreamClient, openEventStream } from '../setup/event-stream';
import { connectMcp, TestMcpClient } from '../setup/mcp-client';
import { signInByCode } from '../setup/oidc-code-flow';
import { OidcProvider, signingKey, startOidcProvider } from '../setup/oidc-provider';

const ORGANISATION = join(__dirname, '..', '..', 'fixtures', 'fhir-organisation');
const CLIENT = 'vigil-review';
const RIVERA = 'ana.rivera@example.org';
const CHEN = 'wei.chen@example.org';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on yet: Vigil must know the provider's issuer before either starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A new organisation's path, end to end, with none of the fixtures' staff: a migrated database that
 * was never seeded, the organisation's FHIR export imported by the import command (Practitioners,
 * PractitionerRoles, CareTeams, patients), Vigil matching the identity provider's sign-ins to the
 * imported staff by e-mail. The clinician signs in (code + PKCE), reads her team's patient, files a
 * proposal; an imported reviewer approves it and it executes. Then the admin command deactivates
 * her, and her open event stream and MCP session end within a second.
 */
describe('an organisation from an empty database to an executed proposal, and a deactivation', () => {
  const database = useEmptyDatabase();
  let db: DataSource;
  let provider: OidcProvider;
  let sut: TestApp;
  let base: string;
  const tokens: Record<string, string> = {};
  let stream: EventStreamClient | undefined;
  let mcp: TestMcpClient | undefined;
  const patientId = rowId('Patient/pat-org-1');

  beforeAll(async () => {
    db = new DataSource(dataSourceOptions({ url: database().url, poolSize: 2 }));
    await db.initialize();
    await runMigrations(db);
    expect(await db.query(`SELECT (SELECT count(*) FROM staff_users)::int AS staff, (SELECT count(*) FROM care_teams)::int AS teams, (SELECT count(*) FROM patients)::int AS patients`)).toEqual([
      { staff: 0, teams: 0, patients: 0 },
    ]);
    // The import command, as `npm run import:fhir -- fixtures/fhir-organisation` runs it: no --care-team.
    const lines: string[] = [];
    expect(await COMMANDS['import-fhir'].run(db, [ORGANISATION], (line) => lines.push(line))).toBe(0);
    expect(lines.join('\n')).toMatch(/CareTeam\s+2\s+0\s+0\s+0/);

    const issuer = `http://127.0.0.1:${await freePort()}`;
    sut = await createTestApp({
      databaseUrl: database().url,
      env: { AUTH_DEV_MODE: 'false', AUTH_JWKS_URL: `${issuer}/jwks`, AUTH_ISSUER: issuer, AUTH_AUDIENCE: 'vigil', AUTH_IDENTITY_CLAIM: 'email', OIDC_CLIENT_ID: CLIENT },
    });
    await sut.app.listen(0, '127.0.0.1');
    base = baseUrlOf(sut.app.getHttpServer());
    // Only the notification can end a stream within a second: its own check waits a minute here.
    (sut.app.get(ProposalEventStream) as unknown as { settings: { pollMs: number } }).settings.pollMs = 60_000;
    // The provider's accounts are its own ids; their e-mail addresses are what Vigil imported (in another case).
    provider = await startOidcProvider({
      keys: [await signingKey('key-a')],
      clients: [],
      port: Number(new URL(issuer).port),
      publicClients: [{ client_id: CLIENT, redirect_uris: [`${base}/review`] }],
      accounts: { 'idp-rivera': { email: 'Ana.Rivera@example.org', email_verified: true }, 'idp-chen': { email: CHEN, email_verified: true }, 'idp-stranger': { email: 'someone@example.org' } },
    });
    for (const login of ['idp-rivera', 'idp-chen', 'idp-stranger']) {
      tokens[login] = (await signInByCode(provider.issuer, { clientId: CLIENT, redirectUri: `${base}/review`, login })).access_token;
    }
  }, 60_000);
  afterAll(async () => {
    stream?.close();
    await mcp?.client.close().catch(() => undefined);
    await sut?.close();
    await provider?.stop();
    await db?.destroy();
  });

  const api = (login: string) => {
    const http = request(sut.app.getHttpServer());
    const auth = { authorization: `Bearer ${tokens[login]}` };
    return { get: (path: string) => http.get(path).set(auth), post: (path: string, body: object) => http.post(path).set(auth).send(body) };
  };
  const statusOf = async (id: string) => (await db.query(`SELECT status FROM proposals WHERE id = $1`, [id]))[0].status as string;

  it('the clinician signs in through OIDC, reads her team’s patient, files a proposal; an imported reviewer approves; it executes', async () => {
    // Nobody is created from a token: an identity the import did not provision is refused.
    await api('idp-stranger').get('/patients?mrn=ORG-0001').expect(401);

    const found = await api('idp-rivera').get('/patients?mrn=ORG-0001').expect(200);
    const handle = (found.body as { patients: Array<{ handle: string }> }).patients[0].handle;
    const labs = await api('idp-rivera').get(`/patients/${handle}/labs?code=4548-4`).expect(200);
    const [hba1c] = (labs.body as { rows: Array<{ citation: string }> }).rows;
    expect(hba1c.citation).toEqual(expect.stringMatching(/^obs:/));

    const filed = await api('idp-rivera')
      .post(`/patients/${handle}/proposals`, {
        kind: 'schedule_outreach',
        content: { channel: 'phone', dueDate: dueInDays(14), reason: 'Book an HbA1c recheck' },
        rationale: 'HbA1c 8.6 % in March; recheck in three months.',
        citations: [hba1c.citation],
      })
      .expect(201);
    const id = (filed.body as { id: string }).id;
    const approved = await api('idp-chen').post(`/proposals/${id}/approve`, { version: 1 }).expect(200);
    expect(approved.body).toMatchObject({ status: 'approved', currentVersion: 1 });
    let status = await statusOf(id);
    for (let waited = 0; waited < 10_000 && status !== 'executed'; waited += 100) {
      await sleep(100);
      status = await statusOf(id);
    }
    expect(status).toBe('executed');

    // Who did what, as the imported staff.
    expect(
      await db.query(
        `SELECT p.patient_id AS "patientId", s.username AS proposer, (SELECT array_agg(a.username ORDER BY a.username) FROM proposal_decisions d JOIN staff_users a ON a.id = d.actor_id WHERE d.proposal_id = p.id AND d.decision = 'approve') AS approvers
         FROM proposals p JOIN staff_users s ON s.id = p.proposer_id WHERE p.id = $1`,
        [id],
      ),
    ).toEqual([{ patientId, proposer: RIVERA, approvers: [CHEN] }]);
  }, 30_000);

  it('deactivating her by the admin command ends her open event stream and MCP session within a second', async () => {
    stream = await openEventStream(base, '/proposals/events', tokens['idp-rivera']);
    expect(stream.status).toBe(200);
    mcp = await connectMcp(base, patientId, () => tokens['idp-rivera']);
    await mcp.client.listTools();
    // The API's notification connection listens (it opens with the first stream), so what is told now is heard.
    for (let attempt = 0; ; attempt += 1) {
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'vigil-notifications' AND query LIKE 'LISTEN%'`);
      if (n > 0) break;
      if (attempt === 100) throw new Error('the API never listened for notifications');
      await sleep(50);
    }

    const ended = stream.ended.then(() => Date.now());
    const lines: string[] = [];
    expect(await COMMANDS.admin.run(db, ['staff', 'deactivate', '--username', RIVERA], (line) => lines.push(line))).toBe(0);
    const committedAt = Date.now();
    expect(lines[1]).toMatch(/^Cut off: 1 MCP session ended/);

    const at = await Promise.race([ended, sleep(1_500).then(() => null)]);
    expect(at === null ? 'still open' : at - committedAt).toBeLessThan(1_000);
    expect(stream.comments.at(-1)).toBe('access ended');
    await expect(mcp.client.listTools()).rejects.toMatchObject({ code: 401 });
    expect(await db.query(`SELECT count(*)::int AS n FROM mcp_sessions WHERE patient_id = $1`, [patientId])).toEqual([{ n: 0 }]);
    // Her still-valid provider token is refused from the next request on.
    await api('idp-rivera').get('/patients?mrn=ORG-0001').expect(401);
  }, 30_000);
});
