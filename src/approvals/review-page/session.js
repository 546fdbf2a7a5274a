// @ts-check
/**
 * Who is signed in: the bearer token every API call sends, how it is obtained (a pasted development
 * token, or a sign-in module that hands one over), and signing out. Nothing else in the page keeps a
 * token. The small API:
 *   accessToken()            the current token, or null (await it: a renewer may fetch a fresh one)
 *   signIn(token, options)   start a session; options.renew (async, returns a new token or null)
 *                            is called once when the API refuses the token; options.remember keeps
 *                            the token in this tab's session storage (a reload keeps you signed in)
 *   replaceToken(token)      a fresh token for the running session (a sign-in module's refresh)
 *   signOut(reason)          end it; `reason` is shown on the sign-in screen
 *   onSignedIn(cb)           cb() after a token is accepted (it may throw: the sign-in is then undone)
 *   onSignedOut(cb)          cb(reason) when the session ends, e.g. to end a provider's session too
 */
import { el, showError } from './dom.js';

const TOKEN_KEY = 'vigil.review.token';
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
export const REFUSED = 'Your token was refused or has expired. Sign in again.';

/** @type {{ token: string, renew?: () => Promise<string | null>, remember: boolean } | null} */
let session = null;
/** @type {Array<() => Promise<void> | void>} */
const signedIn = [];
/** @type {Array<(reason: string | undefined) => Promise<void> | void>} */
const signedOut = [];

/** @returns {Promise<string | null>} */
export async function accessToken() {
  return session?.token ?? null;
}

export const isSignedIn = () => session !== null;

/** @param {() => Promise<void> | void} callback */
export const onSignedIn = (callback) => void signedIn.push(callback);
/** @param {(reason: string | undefined) => Promise<void> | void} callback */
export const onSignedOut = (callback) => void signedOut.push(callback);

/**
 * Starts a session with `token` once the API accepts it (the first signed-in callback reads the queue).
 * @param {string} token @param {{ renew?: () => Promise<string | null>, remember?: boolean }} [options]
 * @returns {Promise<boolean>} whether the session started
 */
export async function signIn(token, options = {}) {
  showError(null);
  if (!JWT.test(token)) {
    showError('That does not look like a token: paste the whole bearer token.');
    return false;
  }
  session = { token, renew: options.renew, remember: options.remember ?? true };
  try {
    for (const callback of signedIn) await callback();
  } catch (error) {
    const refused = /** @type {{ status?: number }} */ (error).status === 401;
    session = null;
    showError(refused ? REFUSED : /** @type {Error} */ (error).message);
    return false;
  }
  if (session?.remember) sessionStorage.setItem(TOKEN_KEY, token);
  /** @type {HTMLInputElement} */ (el('token')).value = '';
  el('sign-in').hidden = true;
  el('sign-out').hidden = false;
  return true;
}

/**
 * The API refused the token (401): a renewer, if the session has one, may supply a fresh token once;
 * otherwise the session ends. @returns {Promise<boolean>} whether a fresh token is now in place (retry)
 */
export async function refused() {
  const renew = session?.renew;
  const fresh = renew ? await renew().catch(() => null) : null;
  if (fresh && session) {
    session.token = fresh;
    if (session.remember) sessionStorage.setItem(TOKEN_KEY, fresh);
    return true;
  }
  if (session) signOut(REFUSED);
  return false;
}

/** A fresh token for the running session, e.g. refreshed before the old one expires (no new sign-in). @param {string} token */
export function replaceToken(token) {
  if (!session) return;
  session.token = token;
  if (session.remember) sessionStorage.setItem(TOKEN_KEY, token);
}

/** @param {string} [reason] */
export function signOut(reason) {
  session = null;
  sessionStorage.removeItem(TOKEN_KEY);
  for (const callback of signedOut) void Promise.resolve().then(() => callback(reason)).catch(() => undefined);
  el('sign-out').hidden = true;
  el('sign-in').hidden = false;
  showError(reason ?? null);
  el('token').focus();
}

/** Wires the sign-in form and the sign-out button, and resumes a session this tab already had. */
export function startSession() {
  el('sign-in-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void signIn(/** @type {HTMLInputElement} */ (el('token')).value.trim());
  });
  el('sign-out').addEventListener('click', () => signOut());
  const saved = sessionStorage.getItem(TOKEN_KEY);
  if (saved) void signIn(saved);
}
