import { Logger } from '@nestjs/common';
import { createPrivateKey, KeyObject, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import type { FhirAuthConfig } from '../../config/app-config';
import { DeliveryFailure } from '../enum';
import { DeliveryError, httpFailure, transportFailure } from './delivery-failure';

/** A token is renewed this long before the server says it expires, so none lapses mid-request. */
const RENEW_BEFORE_MS = 30_000;
/** The client assertion's lifetime: SMART Backend Services allows at most five minutes. */
const ASSERTION_SECONDS = 300;

/** RFC 6749's error codes of a token endpoint (5.2) and RFC 8707's: the only ones logged, since an error's description is free text. */
const OAUTH_ERRORS = new Set(['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope', 'invalid_target']);

type Fetch = typeof fetch;

/**
 * The `Authorization` header of requests to the FHIR server: nothing, a configured static bearer
 * token, or an access token from SMART Backend Services (OAuth 2.0 client credentials with a
 * `private_key_jwt` client assertion signed RS384 or ES384, the algorithms SMART requires). The
 * token endpoint is configured or read from the server's `.well-known/smart-configuration`; the
 * token is kept until shortly before it expires, and dropped when the FHIR server refuses it (401).
 */
export class FhirAuthorization {
  private readonly logger = new Logger(FhirAuthorization.name);
  private token: { value: string; renewAt: number } | undefined;
  private pending: Promise<string> | undefined;
  private signingKey: { key: KeyObject; alg: 'RS384' | 'ES384' } | undefined;
  private discoveredTokenUrl: string | undefined;

  constructor(
    private readonly config: FhirAuthConfig,
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly fetchImpl: Fetch = fetch,
    private readonly now: () => number = Date.now,
  ) {}

  async header(): Promise<string | undefined> {
    if (this.config.kind === 'none') return undefined;
    if (this.config.kind === 'bearer') return `Bearer ${this.config.token}`;
    if (this.token && this.token.renewAt > this.now()) return `Bearer ${this.token.value}`;
    // One token request at a time: concurrent deliveries share it.
    this.pending ??= this.fetchToken(this.config).finally(() => {
      this.pending = undefined;
    });
    return `Bearer ${await this.pending}`;
  }

  /** Whether a refused token can be replaced by another (SMART); a static token cannot. */
  get renewable(): boolean {
    return this.config.kind === 'smart';
  }

  /**
   * The FHIR server refused `header` (401): the next request fetches a new token. Only that token is
   * dropped: a request refused with an older one must not throw away a token fetched since.
   */
  invalidate(header: string): void {
    if (this.token && header === `Bearer ${this.token.value}`) this.token = undefined;
  }

  private async fetchToken(config: Extract<FhirAuthConfig, { kind: 'smart' }>): Promise<string> {
    const tokenUrl = config.tokenUrl ?? (this.discoveredTokenUrl ??= await this.discoverTokenUrl());
    const { key, alg } = this.key(config);
    const issuedAt = Math.floor(this.now() / 1000);
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg, typ: 'JWT', ...(config.keyId ? { kid: config.keyId } : {}) })
      .setIssuer(config.clientId)
      .setSubject(config.clientId)
      .setAudience(tokenUrl)
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ASSERTION_SECONDS)
      .sign(key);
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      scope: config.scopes,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
    });
    const answer = await this.call(tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body }, (status, refusal) => {
      // Said once per refusal, for the operator: a key not (or no longer) registered is `invalid_client`.
      const error = typeof refusal?.error === 'string' && OAUTH_ERRORS.has(refusal.error) ? refusal.error : 'unknown';
      this.logger.warn({ tokenEndpoint: withoutQuery(tokenUrl), clientId: config.clientId, httpStatus: status, error }, 'The FHIR server’s authorization server refused the token request: check the client id, the public key registered for it and the scopes');
    });
    const token = answer as { access_token?: unknown; expires_in?: unknown };
    if (typeof token.access_token !== 'string' || token.access_token.length === 0) throw new DeliveryError(DeliveryFailure.AuthFailed, false);
    const lifetimeMs = typeof token.expires_in === 'number' && token.expires_in > 0 ? token.expires_in * 1000 : 300_000;
    this.token = { value: token.access_token, renewAt: this.now() + Math.max(lifetimeMs - RENEW_BEFORE_MS, lifetimeMs / 2) };
    return token.access_token;
  }

  /**
   * SMART's discovery. The token endpoint it names receives the client assertion, so an `https`
   * FHIR server's must be `https` too: a document cannot move the assertion onto plain HTTP.
   */
  private async discoverTokenUrl(): Promise<string> {
    const document = (await this.call(`${this.baseUrl}/.well-known/smart-configuration`, { method: 'GET', headers: { accept: 'application/json' } })) as { token_endpoint?: unknown };
    const scheme = this.baseUrl.startsWith('https://') ? /^https:\/\// : /^https?:\/\//;
    if (typeof document.token_endpoint !== 'string' || !scheme.test(document.token_endpoint)) throw new DeliveryError(DeliveryFailure.AuthFailed, false);
    return document.token_endpoint;
  }

  /** A failure here is the authorization server's, never the content's: always retried, as `auth_failed`. */
  private async call(url: string, init: RequestInit, onRefused?: (status: number, answer: { error?: unknown } | null) => void): Promise<unknown> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs), redirect: 'error' });
    } catch (error) {
      throw transportFailure(error);
    }
    const answer = (await response.json().catch(() => null)) as { error?: unknown } | null;
    if (!response.ok) onRefused?.(response.status, typeof answer === 'object' ? answer : null);
    if (!response.ok || answer === null || typeof answer !== 'object') {
      throw new DeliveryError(DeliveryFailure.AuthFailed, false, response.ok ? null : httpFailure(response.status).httpStatus);
    }
    return answer;
  }

  /** The private key, PKCS#8 PEM or a private JWK, read once; RSA signs RS384 and EC P-384 ES384. */
  private key(config: Extract<FhirAuthConfig, { kind: 'smart' }>): { key: KeyObject; alg: 'RS384' | 'ES384' } {
    if (this.signingKey) return this.signingKey;
    const text = readFileSync(config.privateKeyFile, 'utf8').trim();
    const key = text.startsWith('{') ? createPrivateKey({ key: JSON.parse(text) as never, format: 'jwk' }) : createPrivateKey(text);
    const alg = key.asymmetricKeyType === 'rsa' ? 'RS384' : key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'secp384r1' ? 'ES384' : undefined;
    if (!alg) throw new DeliveryError(DeliveryFailure.AuthFailed, true);
    this.signingKey = { key, alg };
    return this.signingKey;
  }
}

/** A URL as a log may show it: no query, no credentials. */
function withoutQuery(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}
