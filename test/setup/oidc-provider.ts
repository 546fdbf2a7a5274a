import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, JWK, KeyLike } from 'jose';

const SERVER = join(__dirname, 'oidc-provider-server.mjs');

export interface SigningKey {
  kid: string;
  privateKey: KeyLike;
  publicKey: KeyLike;
  /** The private JWK the provider signs and publishes with (it publishes only the public part). */
  jwk: JWK;
}

export async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey, publicKey, jwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' } };
}

/** SMART Backend Services at the provider: which clients, and the access tokens they get for the FHIR server. */
export interface SmartBackendOptions {
  /** The FHIR server's base URL: the tokens' audience. */
  resource: string;
  /** The `system/…` scopes the provider may grant there (space-separated). */
  scope: string;
  ttlSeconds: number;
  /** Each client's registered public keys and the one algorithm its assertions are signed with. */
  clients: Array<{ client_id: string; jwks: { keys: JWK[] }; alg: 'RS384' | 'ES384' }>;
}

export interface OidcProvider {
  issuer: string;
  jwksUrl: string;
  tokenEndpoint: string;
  port: number;
  /** An access token for `clientId` (a staff username) by the client-credentials grant. */
  accessToken(clientId: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts the certified `oidc-provider` package (test/setup/oidc-provider-server.mjs) as a child
 * process, publishing `keys` (the first one signs) and knowing one client per username in `clients`.
 */
export async function startOidcProvider(options: {
  keys: SigningKey[];
  clients: string[];
  port?: number;
  /** Browser clients signing people in (authorization code + PKCE, refresh tokens). */
  publicClients?: Array<{ client_id: string; redirect_uris: string[] }>;
  /** Claims an account's access tokens carry besides `sub`, by account id (the login typed). */
  accounts?: Record<string, Record<string, unknown>>;
  accessTokenTtlSeconds?: number;
  smart?: SmartBackendOptions;
}): Promise<OidcProvider> {
  const child: ChildProcess = spawn(process.execPath, [SERVER], {
    env: {
      PATH: process.env.PATH ?? '',
      OIDC_JWKS: JSON.stringify({ keys: options.keys.map((key) => key.jwk) }),
      OIDC_CLIENTS: options.clients.join(','),
      OIDC_PUBLIC_CLIENTS: JSON.stringify(options.publicClients ?? []),
      OIDC_ACCOUNTS: JSON.stringify(options.accounts ?? {}),
      OIDC_TOKEN_TTL_SECONDS: String(options.accessTokenTtlSeconds ?? 300),
      OIDC_SMART: JSON.stringify(options.smart ?? null),
      OIDC_PORT: String(options.port ?? 0),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const issuer = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`oidc-provider exited with ${code}: ${err}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    tokenEndpoint: `${issuer}/token`,
    port: Number(new URL(issuer).port),
    async accessToken(clientId) {
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:test-secret`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials&scope=vigil',
      });
      if (res.status !== 200) throw new Error(`token endpoint answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { access_token: string }).access_token;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
