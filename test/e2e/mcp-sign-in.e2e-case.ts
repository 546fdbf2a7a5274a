import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { baseUrlOf } from '../setup/event-stream';
import { OidcProvider, signingKey, startOidcProvider } from '../setup/oidc-provider';
import { optionFor, optionsOf, waitFor } from '../setup/mcp-picker';
import { connectSignedIn, followSignIn, TestSignIn } from '../setup/mcp-sign-in';

const ROOT = join(__dirname, '..', '..');
const NO_STAY = 'complete-record';
const WITH_STAY = 'readmission-high-utilizer';
/** Short-lived access tokens, so the tests see them expire and be refreshed. */
const TOKEN_TTL_SECONDS = 3;
/** How long past `exp` Vigil still accepts a token (the token service's clock tolerance), and a margin. */
const PAST_TOLERANCE_MS = 5_000 + 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const expiryOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { exp: number }).exp * 1000;
/** Waits until Vigil refuses `token` as expired. */
const outlive = (token: string) => sleep(Math.max(0, expiryOf(token) + PAST_TOLERANCE_MS - Date.now()));

/**
 * MCP authorization against a real OpenID provider (the certified `oidc-provider` package, issuing
 * access tokens that live three seconds, with refresh tokens): the SDK's own OAuth client discovers
 * it from Vigil's `401`, registers, signs the person in and refreshes, and its MCP session outlives
 * each token; and the README's desktop configurations, read from the README and run as written.
 */
describe('MCP sign-in at the identity provider', () => {
  const database = useSeededDatabase();
  let provider: OidcProvider;
  let sut: TestApp;
  let baseUrl: string;
  const open: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    // A public client only switches the provider's login pages on; MCP clients register their own.
    provider = await startOidcProvider({ keys: [await signingKey('key-a')], clients: [], publicClients: [{ client_id: 'unused', redirect_uris: ['http://127.0.0.1:9/unused'] }], accessTokenTtlSeconds: TOKEN_TTL_SECONDS });
    sut = await createTestApp({
      databaseUrl: database().url,
      env: { AUTH_DEV_MODE: 'false', AUTH_JWKS_URL: provider.jwksUrl, AUTH_ISSUER: provider.issuer, AUTH_AUDIENCE: 'vigil' },
    });
    await sut.app.listen(0, '127.0.0.1');
    baseUrl = baseUrlOf(sut.app.getHttpServer());
  }, 60_000);
  afterAll(async () => {
    await Promise.all(open.map((client) => client.close().catch(() => undefined)));
    await sut?.close();
    await provider?.stop();
  });

  const call = (client: Client, name: string) => client.callTool({ name, arguments: {} }) as Promise<CallToolResult>;
  const readsOfSession = async (sessionId: string) =>
    ((await database().dataSource.query(`SELECT count(*)::int AS n FROM audit_events WHERE $1 = ANY(fields) AND action = 'missing_data_check'`, [`session:${sessionId}`])) as { n: number }[])[0].n;

  it('is discovered from the 401, signs the person in, and keeps its MCP session across token refreshes', async () => {
    const signIn = new TestSignIn('dr.okafor');
    const mcp = await connectSignedIn(new URL(`${baseUrl}/mcp/patients/${patientIdOf(NO_STAY)}`), signIn);
    open.push(mcp.client);
    expect(mcp.challenged).toBe(true);
    // Registered dynamically, then one token set from the code: a refresh token with it.
    expect(signIn.clientInformation()).toMatchObject({ client_id: expect.any(String) });
    expect(signIn.saved).toHaveLength(1);
    expect(signIn.saved[0].refresh_token).toEqual(expect.any(String));
    const sessionId = mcp.transport.sessionId as string;
    expect((await call(mcp.client, 'missing_data_check')).isError).toBeUndefined();

    for (let refresh = 1; refresh <= 2; refresh += 1) {
      const expired = signIn.tokens()!.access_token;
      await outlive(expired);
      const refused = await request(sut.app.getHttpServer()).get(`/patients/${patientIdOf(NO_STAY)}/labs`).set('authorization', `Bearer ${expired}`);
      expect(refused.status).toBe(401);
      // Vigil answers 401; the SDK refreshes and sends again, on the same session.
      expect((await call(mcp.client, 'missing_data_check')).isError).toBeUndefined();
      expect(signIn.saved).toHaveLength(1 + refresh);
      expect(signIn.tokens()!.access_token).not.toBe(expired);
      expect(mcp.transport.sessionId).toBe(sessionId);
    }
    expect(await readsOfSession(sessionId)).toBe(3);
    expect(await database().dataSource.query(`SELECT count(*)::int AS n FROM mcp_sessions WHERE id = $1`, [sessionId])).toEqual([{ n: 1 }]);
  }, 60_000);

  it('refuses another person\'s token on the session, which goes on for its own person', async () => {
    const okafor = await connectSignedIn(new URL(`${baseUrl}/mcp/patients/${patientIdOf(NO_STAY)}`), new TestSignIn('dr.okafor'));
    open.push(okafor.client);
    const sessionId = okafor.transport.sessionId as string;
    // Same team, same patient, signed in properly: still not their session.
    const lindqvist = await connectSignedIn(new URL(`${baseUrl}/mcp/patients/${patientIdOf(NO_STAY)}`), new TestSignIn('dr.lindqvist'));
    open.push(lindqvist.client);
    const intruder = new Client({ name: 'intruder', version: '1.0.0' });
    await intruder.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp/patients/${patientIdOf(NO_STAY)}`), { authProvider: lindqvist.signIn, sessionId }));
    await expect(call(intruder, 'missing_data_check')).rejects.toMatchObject({ code: 404 });
    const [refusal] = await database().dataSource.query(`SELECT action, outcome FROM audit_events WHERE action = 'mcp.session' ORDER BY id DESC LIMIT 1`);
    expect(refusal).toEqual({ action: 'mcp.session', outcome: 'not_found' });
    expect((await call(okafor.client, 'missing_data_check')).isError).toBeUndefined();
  }, 30_000);

  describe('the README\'s desktop configurations, as written', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n### MCP\n'), readme.indexOf('\n## ', readme.indexOf('\n### MCP\n')));
    const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map(([, json]) => JSON.parse(json) as Record<string, Record<string, Record<string, unknown>>>);
    const local = (text: string) => text.replaceAll('/path/to/vigil', ROOT).replaceAll('https://vigil.example.org', baseUrl);
    const stdio = blocks.flatMap((block) => Object.values(block.mcpServers ?? {}));
    const http = blocks.flatMap((block) => Object.values(block.servers ?? {}));

    it('has a stdio bridge block and a Streamable HTTP block', () => {
      expect(stdio).toEqual([{ command: 'node', args: expect.arrayContaining(['mcp', '--url']) }]);
      expect(http).toEqual([{ type: 'http', url: 'https://vigil.example.org/mcp' }]);
      expect(existsSync(local((stdio[0].args as string[])[0]))).toBe(true);
    });

    it('runs the Claude Desktop block: the bridge signs in in the browser, shows the patient page, refreshes, and signs in once for good', async () => {
      const home = mkdtempSync(join(tmpdir(), 'vigil-desktop-'));
      const start = async () => {
        const transport = new StdioClientTransport({
          command: stdio[0].command as string,
          args: (stdio[0].args as string[]).map(local),
          env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), VIGIL_BROWSER: 'none' },
          stderr: 'pipe',
        });
        const stderr: string[] = [];
        transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
        // Claude Desktop declares no elicitation: the bridge shows the form itself.
        const client = new Client({ name: 'claude-desktop-like', version: '1.0.0' });
        open.push(client);
        const opened = (pattern: RegExp) => waitFor(() => [...stderr.join('').matchAll(/open (\S+) in your browser/g)].map(([, url]) => url).find((url) => pattern.test(url)));
        return { client, connecting: client.connect(transport), opened, stderr };
      };

      const first = await start();
      const signInUrl = await first.opened(new RegExp(`^${provider.issuer}/`));
      const back = await followSignIn(signInUrl, 'dr.okafor', new URL(signInUrl).searchParams.get('redirect_uri')!);
      expect(await (await fetch(back)).text()).toMatch(/Signed in/);
      await first.connecting;
      const listed = first.client.listTools();
      const formUrl = await first.opened(/\/form\//);
      const html = await (await fetch(formUrl)).text();
      const options = [...html.matchAll(/<option value="(\d+)">([^<]+)<\/option>/g)].map(([, value, title]) => ({ value, title }));
      await fetch(`${formUrl}?action=accept&f.patient=${optionFor(options, WITH_STAY)}`);
      expect((await listed).tools.map((tool) => tool.name)).toContain('feature_attribution');

      const credentials = join(home, '.config', 'vigil', 'mcp-credentials.json');
      expect(statSync(credentials).mode & 0o777).toBe(0o600);
      const stored = () => (JSON.parse(readFileSync(credentials, 'utf8')) as { servers: Record<string, { tokens: { access_token: string; refresh_token: string } }> }).servers[baseUrl].tokens;
      const before = stored();
      expect(before.refresh_token).toEqual(expect.any(String));
      await outlive(before.access_token);
      expect((await call(first.client, 'missing_data_check')).isError).toBeUndefined();
      expect(stored().access_token).not.toBe(before.access_token);
      // One session throughout: its calls are audited under one session id.
      const sessions = await database().dataSource.query(`SELECT DISTINCT f AS session FROM audit_events, unnest(fields) f WHERE action = 'missing_data_check' AND f LIKE 'session:%' AND patient_id = $1`, [patientIdOf(WITH_STAY)]);
      expect(sessions).toHaveLength(1);
      await first.client.close();

      // Started again by the desktop client: the stored sign-in serves (refreshed), no browser page.
      const second = await start();
      await second.connecting;
      const again = second.client.listTools();
      const secondForm = await second.opened(/\/form\//);
      const secondOptions = [...(await (await fetch(secondForm)).text()).matchAll(/<option value="(\d+)">([^<]+)<\/option>/g)].map(([, value, title]) => ({ value, title }));
      await fetch(`${secondForm}?action=accept&f.patient=${optionFor(secondOptions, NO_STAY)}`);
      expect((await again).tools.map((tool) => tool.name)).not.toContain('feature_attribution');
      expect(second.stderr.join('')).not.toContain(provider.issuer);
    }, 90_000);

    it('runs the Streamable HTTP block: an MCP client at that URL signs in, the person chooses in its form, and it lists tools', async () => {
      const mcp = await connectSignedIn(new URL(local(http[0].url as string)), new TestSignIn('dr.okafor'), {
        capabilities: { elicitation: {} },
        onClient: (client) => client.setRequestHandler(ElicitRequestSchema, (elicit) => ({ action: 'accept', content: { patient: optionFor(optionsOf(elicit.params), WITH_STAY) } })),
      });
      open.push(mcp.client);
      expect(mcp.challenged).toBe(true);
      expect((await mcp.client.listTools()).tools.map((tool) => tool.name)).toContain('feature_attribution');
      expect((await call(mcp.client, 'missing_data_check')).structuredContent).toMatchObject({ tool: 'missing_data_check' });
    }, 30_000);
  });
});
