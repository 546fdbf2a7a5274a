// @ts-check
/**
 * Sign-in with the organisation's identity provider: OpenID Connect, authorization code with PKCE,
 * as a public client (no secret can be kept in a page). Configured by the server
 * (`/review/sign-in.json`: OIDC_ISSUER, OIDC_CLIENT_ID, …); endpoints come from the issuer's discovery
 * document. The protocol's checks are oauth4webapi's (panva's certified client, served beside this
 * file as it is published): state, nonce, the issuer of the response, the ID token's claims.
 *
 * Tokens live in this tab only (session storage: a reload keeps the session) and never in a URL: the
 * code and state are stripped from the address as soon as the provider sends the browser back. The
 * access token is refreshed before it expires (refresh token grant; one refresh at a time, since a
 * rotated refresh token used twice ends the whole grant); signing out revokes the refresh token and
 * ends the session at the provider (its end_session_endpoint).
 */
import * as oauth from './oauth4webapi.js';
import { el, showError } from './dom.js';
import { isSignedIn, onSignedOut, replaceToken, signIn, signOut } from './session.js';

/** What the page sent the browser to the provider with, kept across the redirect. */
const PENDING_KEY = 'vigil.review.oidc.pending';
/** The signed-in session's tokens. */
const SESSION_KEY = 'vigil.review.oidc.session';
/** Set when Vigil refused the last identity: the next sign-in asks the provider to let the person choose again. */
const REFUSED_KEY = 'vigil.review.oidc.refused';
const REFUSED = 'You signed in with your organisation, but Vigil does not know that account as an active staff member with its role. Ask your Vigil administrator.';
const ENDED = 'Your session with your organisation has ended. Sign in again.';

/**
 * @typedef {{ issuer: string, clientId: string, redirectUri: string | null, scope: string, resource: string | null }} ProviderConfig
 * @typedef {{ accessToken: string, refreshToken: string | null, idToken: string | null, obtainedAt: number, expiresAt: number }} Tokens
 */

/** @type {{ as: oauth.AuthorizationServer, client: oauth.Client, config: ProviderConfig, redirectUri: string, options: Record<symbol, boolean> } | null} */
let provider = null;
/** @type {Tokens | null} */
let tokens = null;
/** @type {number | undefined} */
let refreshTimer;
/** @type {Promise<string | null> | null} */
let refreshing = null;

/** Reads the sign-in configuration, shows the ways in it allows, and finishes or resumes a provider sign-in. */
export async function startProviderSignIn() {
  /** @type {{ developmentTokens: boolean, provider: ProviderConfig | null }} */
  const config = await fetch('/review/sign-in.json', { cache: 'no-store' }).then((response) => response.json());
  // Pasted tokens are for trying Vigil out (development mode), or the only way in when no provider is
  // configured; the form stays hidden until the server has said which (no paste box flashes up in production).
  el('sign-in-form').hidden = !config.developmentTokens && config.provider !== null;
  if (!config.provider) return;
  el('provider-sign-in').hidden = false;
  el('provider-host').textContent = new URL(config.provider.issuer).host;
  el('provider-sign-in-button').addEventListener('click', () => void begin().catch(failed));
  onSignedOut((reason) => end(reason));

  const issuer = new URL(config.provider.issuer);
  // Clear-text issuers are refused by the server's configuration in production; elsewhere (a local provider) allowed.
  const options = { [oauth.allowInsecureRequests]: issuer.protocol === 'http:' };
  try {
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...options }));
    const redirectUri = config.provider.redirectUri ?? `${location.origin}/review`;
    provider = { as, client: { client_id: config.provider.clientId }, config: config.provider, redirectUri, options };
  } catch {
    return showError('Your organisation’s sign-in service cannot be reached. Try again later.');
  }

  const here = new URL(location.href);
  if (here.searchParams.has('state') || here.searchParams.has('code') || here.searchParams.has('error')) {
    // Back from the provider: the code and state leave the address (and the history) at once.
    history.replaceState(null, '', here.pathname);
    await finish(here).catch(failed);
  } else {
    const saved = sessionStorage.getItem(SESSION_KEY);
    if (saved) await resume(JSON.parse(saved)).catch(failed);
  }
}

/** Sends the browser to the provider's authorization endpoint with a fresh PKCE verifier, state and nonce. */
async function begin() {
  if (!provider) return;
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state, nonce }));
  const url = new URL(/** @type {string} */ (provider.as.authorization_endpoint));
  const params = {
    client_id: provider.client.client_id,
    redirect_uri: provider.redirectUri,
    response_type: 'code',
    scope: provider.config.scope,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (provider.config.resource) url.searchParams.set('resource', provider.config.resource);
  if (sessionStorage.getItem(REFUSED_KEY)) url.searchParams.set('prompt', 'login');
  location.assign(url.href);
}

/** The provider sent the browser back: check the response against what this tab sent, then redeem the code. @param {URL} callback */
async function finish(callback) {
  if (!provider) return;
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null');
  sessionStorage.removeItem(PENDING_KEY); // one use, whatever happens
  if (!pending) return showError('That sign-in was not started in this tab, or was already used. Sign in again.');
  const params = oauth.validateAuthResponse(provider.as, provider.client, callback, pending.state);
  const response = await oauth.authorizationCodeGrantRequest(provider.as, provider.client, oauth.None(), params, provider.redirectUri, pending.verifier, {
    ...provider.options,
    additionalParameters: resourceParameter(),
  });
  const result = await oauth.processAuthorizationCodeResponse(provider.as, provider.client, response, { expectedNonce: pending.nonce, requireIdToken: true });
  await start(keep(result, null));
}

/** A session this tab already had: refreshed first if its access token is (nearly) spent. @param {Tokens} saved */
async function resume(saved) {
  tokens = saved;
  if (Date.now() >= refreshAt(saved)) {
    if (!(await refresh())) return;
  }
  await start(/** @type {Tokens} */ (tokens));
}

/** @param {Tokens} current */
async function start(current) {
  tokens = current;
  if (await signIn(current.accessToken, { renew: refresh, remember: false })) {
    sessionStorage.removeItem(REFUSED_KEY);
    schedule();
    return;
  }
  // Vigil refused the identity (or could not read the queue with it): end what the provider gave.
  const refused = tokens;
  tokens = null;
  sessionStorage.removeItem(SESSION_KEY);
  sessionStorage.setItem(REFUSED_KEY, '1');
  await revoke(refused);
  showError(REFUSED);
}

/** The token response, kept in this tab. @param {oauth.TokenEndpointResponse} result @param {string | null} previousRefresh */
function keep(result, previousRefresh) {
  const obtainedAt = Date.now();
  /** @type {Tokens} */
  const kept = {
    accessToken: result.access_token,
    // A provider that does not rotate refresh tokens answers without one: the old one stays good.
    refreshToken: result.refresh_token ?? previousRefresh,
    idToken: result.id_token ?? tokens?.idToken ?? null,
    obtainedAt,
    expiresAt: obtainedAt + (result.expires_in ?? 300) * 1000,
  };
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(kept));
  return kept;
}

/** When to refresh: a minute before expiry, or a quarter of the lifetime for short-lived tokens. @param {Tokens} current */
const refreshAt = (current) => current.expiresAt - Math.min(60_000, (current.expiresAt - current.obtainedAt) / 4);

function schedule() {
  window.clearTimeout(refreshTimer);
  if (!tokens?.refreshToken) return;
  refreshTimer = window.setTimeout(() => void refresh(), Math.max(0, refreshAt(tokens) - Date.now()));
}

/**
 * A fresh access token by the refresh token grant, or null when the session cannot go on. One at a
 * time: the timer and a refused API call may ask together, and a rotated refresh token must be
 * redeemed once. @returns {Promise<string | null>}
 */
function refresh() {
  refreshing ??= (async () => {
    const current = tokens;
    if (!provider || !current?.refreshToken) return null;
    try {
      const response = await oauth.refreshTokenGrantRequest(provider.as, provider.client, oauth.None(), current.refreshToken, {
        ...provider.options,
        additionalParameters: resourceParameter(),
      });
      tokens = keep(await oauth.processRefreshTokenResponse(provider.as, provider.client, response), current.refreshToken);
      replaceToken(tokens.accessToken);
      schedule();
      return tokens.accessToken;
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError) {
        // The provider ended the grant (signed out elsewhere, revoked, expired): this session is over.
        tokens = null;
        sessionStorage.removeItem(SESSION_KEY);
        if (isSignedIn()) signOut(ENDED);
        else showError(ENDED);
        return null;
      }
      // The provider is unreachable: try again shortly; the access token may still be good.
      window.clearTimeout(refreshTimer);
      refreshTimer = window.setTimeout(() => void refresh(), 10_000);
      return null;
    }
  })().finally(() => (refreshing = null));
  return refreshing;
}

/**
 * The page's session ended (`session.js` calls this): forget the tokens, revoke the refresh token,
 * and, when the reviewer chose to sign out, end the session at the provider too.
 * @param {string | undefined} reason why the session ended; undefined when the reviewer signed out
 */
async function end(reason) {
  window.clearTimeout(refreshTimer);
  const ending = tokens;
  tokens = null;
  sessionStorage.removeItem(SESSION_KEY);
  if (!ending || !provider) return;
  await revoke(ending);
  const endSession = provider.as.end_session_endpoint;
  if (reason !== undefined || !endSession) return;
  const url = new URL(endSession);
  url.searchParams.set('client_id', provider.client.client_id);
  url.searchParams.set('post_logout_redirect_uri', provider.redirectUri);
  if (ending.idToken) url.searchParams.set('id_token_hint', ending.idToken);
  location.assign(url.href);
}

/** Revokes the refresh token (RFC 7009), so it is useless even if it was copied. @param {Tokens | null} ending */
async function revoke(ending) {
  if (!provider || !ending?.refreshToken || !provider.as.revocation_endpoint) return;
  try {
    const response = await oauth.revocationRequest(provider.as, provider.client, oauth.None(), ending.refreshToken, {
      ...provider.options,
      additionalParameters: { token_type_hint: 'refresh_token' },
    });
    await oauth.processRevocationResponse(response);
  } catch {
    // Nothing more the page can do; the token still expires, and the provider's session ends below.
  }
}

/** @returns {Record<string, string>} */
const resourceParameter = () => (provider?.config.resource ? { resource: provider.config.resource } : {});

/** @param {unknown} error */
function failed(error) {
  sessionStorage.removeItem(PENDING_KEY);
  if (error instanceof oauth.AuthorizationResponseError) {
    return showError(error.error === 'access_denied' ? 'Sign-in was cancelled.' : `Your organisation refused the sign-in (${error.error}).`);
  }
  showError('The sign-in with your organisation could not be completed. Sign in again.');
}
