import { createHash, randomBytes } from 'node:crypto';

/**
 * A person signing in at the test OpenID provider (test/setup/oidc-provider-server.mjs) the way a
 * browser does, over plain HTTP: the authorization code grant with PKCE, through the provider's
 * development login and consent pages, then the token endpoint. For API-level tests that need the
 * provider's real tokens for a person, without a browser; the review page's own flow is tested in
 * Chromium.
 */

export interface ProviderTokens {
  access_token: string;
  refresh_token?: string;
  id_token: string;
  expires_in: number;
  scope?: string;
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint: string;
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

export async function discover(issuer: string): Promise<Discovery> {
  const res = await fetch(`${issuer}/.well-known/openid-configuration`);
  if (res.status !== 200) throw new Error(`discovery answered ${res.status}`);
  return (await res.json()) as Discovery;
}

/** Signs `login` in as the public client `clientId` and returns the provider's tokens. */
export async function signInByCode(issuer: string, options: { clientId: string; redirectUri: string; login: string; scope?: string }): Promise<ProviderTokens> {
  const endpoints = await discover(issuer);
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(16));
  const authorize = new URL(endpoints.authorization_endpoint);
  authorize.search = new URLSearchParams({
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: 'code',
    scope: options.scope ?? 'openid offline_access',
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
    state,
    nonce: base64url(randomBytes(16)),
  }).toString();

  return exchange(endpoints, options, await followSignIn(authorize.toString(), options.login, options.redirectUri), state, verifier);
}

/** Follows a browser from `authorizationUrl` through the provider's login (as `login`) and consent to the redirect; returns where it was sent back. */
export async function followSignIn(authorizationUrl: string, login: string, redirectPrefix: string): Promise<URL> {
  const cookies = new Map<string, string>();
  const send = async (url: string, form?: Record<string, string>) => {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  };
  let at = authorizationUrl;
  let res = await send(at);
  for (let step = 0; step < 20; step += 1) {
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, at);
      if (next.toString().startsWith(redirectPrefix)) return next;
      at = next.toString();
      res = await send(at);
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([a-z]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action || !prompt) throw new Error(`the provider answered ${res.status} without a form: ${html.slice(0, 300)}`);
    at = new URL(action, at).toString();
    res = await send(at, prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
  }
  throw new Error('the sign-in did not reach the redirect URI');
}

async function exchange(endpoints: Discovery, options: { clientId: string; redirectUri: string }, callback: URL, state: string, verifier: string): Promise<ProviderTokens> {
  if (callback.searchParams.get('state') !== state) throw new Error(`the callback carries another state (${callback.searchParams.get('error') ?? 'no error'})`);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${callback.searchParams.get('error_description') ?? callback.searchParams.get('error')}`);
  const res = await tokenRequest(endpoints.token_endpoint, { grant_type: 'authorization_code', code, redirect_uri: options.redirectUri, code_verifier: verifier, client_id: options.clientId });
  if (res.status !== 200) throw new Error(`token endpoint answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as ProviderTokens;
}

export function tokenRequest(endpoint: string, form: Record<string, string>): Promise<Response> {
  return fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
}

/** The refresh token grant for a public client: the raw answer (200 with new tokens, or 400 invalid_grant). */
export async function refreshAt(issuer: string, clientId: string, refreshToken: string): Promise<Response> {
  return tokenRequest((await discover(issuer)).token_endpoint, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
}
