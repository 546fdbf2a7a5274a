// @ts-check
/**
 * Calls to Vigil's API with the session's token. A refusal arrives as an RFC 9457 problem: its
 * detail is what the page says, and its per-field errors (`errors`: [{ field, message }]) are kept
 * for the form that sent them.
 */
import { accessToken, refused } from './session.js';

export class ApiError extends Error {
  /** @param {number} status @param {any} problem */
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `The request failed (${status}).`);
    this.status = status;
    /** @type {string | undefined} */
    this.type = problem?.type;
    /** @type {Array<{ field: string, message: string }>} */
    this.errors = Array.isArray(problem?.errors) ? problem.errors : [];
  }
}

/** @param {string} path @param {{ method?: string, body?: unknown }} [options] */
export async function api(path, options = {}) {
  for (let attempt = 1; ; attempt += 1) {
    /** @type {Record<string, string>} */
    const headers = { Accept: 'application/json', Authorization: `Bearer ${await accessToken()}` };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      cache: 'no-store',
    });
    const body = await response.json().catch(() => null);
    // A refused token may be renewed once (a sign-in with refresh); otherwise the session ends.
    if (response.status === 401 && attempt === 1 && (await refused())) continue;
    if (!response.ok) throw new ApiError(response.status, body);
    return body;
  }
}

/** @type {Promise<any> | null} */
let openapi = null;
/**
 * The service's OpenAPI document (public, read once per page load): the forms read their fields and
 * rules from it (`schema-form.js`). A failed read is tried again next time.
 */
export function openApiDocument() {
  openapi ??= fetch('/docs-json', { headers: { Accept: 'application/json' }, cache: 'no-store' }).then((response) => {
    if (!response.ok) throw new Error(`The API description could not be read (${response.status}).`);
    return response.json();
  });
  openapi.catch(() => (openapi = null));
  return openapi;
}
