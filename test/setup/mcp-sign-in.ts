import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { followSignIn } from './oidc-code-flow';

export { followSignIn };

/**
 * MCP clients signing in at the test OpenID provider (test/setup/oidc-provider-server.mjs) the way
 * the MCP authorization spec has them do it, with the SDK's own OAuth client: from Vigil's `401`
 * and protected resource metadata to the provider, dynamic registration, the authorization code
 * grant with PKCE, and refresh. The person's browser is `followSignIn` (oidc-code-flow.ts): it
 * walks the provider's development login and consent pages over plain HTTP.
 */

/** An MCP client application's sign-in state for one person, in memory; its "browser" signs in as `login`. */
export class TestSignIn implements OAuthClientProvider {
  readonly redirectUrl = 'http://127.0.0.1:9/callback';
  /** Every token set saved: the first from the code, then one per refresh. */
  readonly saved: OAuthTokens[] = [];
  /** The authorization code of the sign-in in progress. */
  code?: Promise<string>;
  private client?: OAuthClientInformationMixed;
  private current?: OAuthTokens;
  private verifier = '';

  constructor(readonly login: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Vigil test client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    } as OAuthClientMetadata;
  }

  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client;
  }
  tokens() {
    return this.current;
  }
  saveTokens(tokens: OAuthTokens) {
    this.current = tokens;
    this.saved.push(tokens);
  }
  redirectToAuthorization(url: URL) {
    this.code = followSignIn(url.toString(), this.login, this.redirectUrl).then((back) => {
      const code = back.searchParams.get('code');
      if (!code) throw new Error(`no code: ${back.searchParams.get('error')}`);
      return code;
    });
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

export interface SignedInClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  signIn: TestSignIn;
  /** Whether the first attempt was refused and sent the client to sign in. */
  challenged: boolean;
}

/**
 * Connects an SDK `Client` to `url` as `signIn`'s person: the first attempt is answered `401`, the
 * SDK discovers the provider and the person signs in, and the client connects again signed in (the
 * SDK's documented flow: `finishAuth`, then a new transport). With `sessionId`, it resumes that session.
 */
export async function connectSignedIn(
  url: URL,
  signIn: TestSignIn,
  options: { capabilities?: ClientCapabilities; sessionId?: string; onClient?: (client: Client) => void } = {},
): Promise<SignedInClient> {
  const make = () => {
    const client = new Client({ name: 'vigil-sign-in-test', version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
    options.onClient?.(client);
    return { client, transport: new StreamableHTTPClientTransport(url, { authProvider: signIn, sessionId: options.sessionId }) };
  };
  let { client, transport } = make();
  let challenged = false;
  try {
    await client.connect(transport);
  } catch (error) {
    if (!(error instanceof UnauthorizedError) || !signIn.code) throw error;
    challenged = true;
    await transport.finishAuth(await signIn.code);
    ({ client, transport } = make());
    await client.connect(transport);
  }
  return { client, transport, signIn, challenged };
}
