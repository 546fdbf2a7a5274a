import { auth, discoverOAuthProtectedResourceMetadata, OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { LocalPages, openInBrowser } from './mcp-bridge-pages';

/** What the credentials file keeps per Vigil origin: the client the bridge registered (if it did) and the person's tokens. */
interface Stored {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
}

/** Vigil names no identity provider to sign in at (it takes development tokens). */
export class NoIdentityProvider extends Error {
  constructor(origin: string) {
    super(`${origin} names no identity provider to sign in at (it accepts development tokens): set VIGIL_TOKEN to one (npm run -s token -- <username>).`);
  }
}

/** Where the bridge keeps sign-ins by default: the user's configuration folder, readable by them alone. */
export function defaultCredentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || (process.platform === 'win32' && env.APPDATA ? env.APPDATA : join(env.HOME || homedir(), '.config'));
  return join(base, 'vigil', 'mcp-credentials.json');
}

/**
 * The bridge's sign-in at Vigil's identity provider, as the MCP SDK's OAuth client drives it
 * (`OAuthClientProvider`): discovery from Vigil's protected resource metadata, the authorization
 * code grant with PKCE through the person's browser and a loopback redirect (RFC 8252), a client
 * registered dynamically unless `--client-id` names one, and the refresh token used whenever Vigil
 * refuses an expired access token. Tokens live in a credentials file (mode 0600) keyed by Vigil's
 * origin, read on every use, so bridges of several desktop clients share one sign-in.
 */
export class BridgeSignIn implements OAuthClientProvider {
  private verifier?: string;
  private expectedState?: string;
  private pending?: Promise<string>;
  private providerNamed = false;

  constructor(
    private readonly options: { origin: string; file: string; clientId?: string; scope?: string },
    private readonly pages: LocalPages,
  ) {}

  get redirectUrl(): string {
    return this.pages.callbackUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Vigil MCP bridge',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.options.scope ? { scope: this.options.scope } : {}),
      // A native application: the provider lets its loopback redirect change port from run to run (RFC 8252 §7.3).
      application_type: 'native',
    } as OAuthClientMetadata;
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('base64url');
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const stored = this.read().client;
    if (!this.options.clientId) return stored;
    return stored?.client_id === this.options.clientId ? stored : { client_id: this.options.clientId };
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.write({ ...this.read(), client });
  }

  tokens(): OAuthTokens | undefined {
    return this.read().tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    const previous = this.read();
    // A provider that does not rotate refresh tokens answers a refresh without one: the old one stays good.
    this.write({ ...previous, tokens: { ...tokens, refresh_token: tokens.refresh_token ?? previous.tokens?.refresh_token } });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    const state = this.expectedState ?? '';
    this.pending = this.pages.awaitCallback(state);
    // Not unhandled while nobody awaits it yet.
    this.pending.catch(() => undefined);
    openInBrowser(authorizationUrl.toString());
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no sign-in in progress');
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    const stored = this.read();
    if (scope === 'all' || scope === 'client') delete stored.client;
    if (scope === 'all' || scope === 'tokens') delete stored.tokens;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    this.write(stored);
  }

  /** The authorization code of the sign-in the SDK started (the person's browser comes back with it); undefined when none was started. */
  takePendingCode(): Promise<string> | undefined {
    const pending = this.pending;
    this.pending = undefined;
    return pending;
  }

  /** Throws NoIdentityProvider when Vigil's protected resource metadata names no authorization server (asked once). */
  async requireProvider(serverUrl: URL): Promise<void> {
    if (this.providerNamed) return;
    const metadata = await discoverOAuthProtectedResourceMetadata(serverUrl);
    if (!metadata.authorization_servers?.length) throw new NoIdentityProvider(this.options.origin);
    this.providerNamed = true;
  }

  /** Signs in now (the browser, unless a stored refresh token still works), as `--sign-in` does. */
  async signIn(serverUrl: URL): Promise<void> {
    await this.requireProvider(serverUrl);
    if ((await auth(this, { serverUrl })) === 'AUTHORIZED') return;
    const code = await this.takePendingCode();
    if (code === undefined) throw new Error('the sign-in did not start');
    await auth(this, { serverUrl, authorizationCode: code });
  }

  private read(): Stored {
    try {
      const all = JSON.parse(readFileSync(this.options.file, 'utf8')) as { servers?: Record<string, Stored> };
      return { ...all.servers?.[this.options.origin] };
    } catch {
      return {};
    }
  }

  /** Replaces this origin's entry; written to a new file and renamed over the old one, so a reader never sees half of it. */
  private write(entry: Stored): void {
    let all: { servers: Record<string, Stored> } = { servers: {} };
    try {
      all = { servers: {}, ...(JSON.parse(readFileSync(this.options.file, 'utf8')) as object) } as typeof all;
    } catch {
      // No file yet, or an unreadable one: start afresh.
    }
    all.servers[this.options.origin] = entry;
    mkdirSync(dirname(this.options.file), { recursive: true, mode: 0o700 });
    const next = `${this.options.file}.${process.pid}.tmp`;
    writeFileSync(next, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
    chmodSync(next, 0o600);
    renameSync(next, this.options.file);
  }
}
