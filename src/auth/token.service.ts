import { Inject, Injectable } from '@nestjs/common';
import { createRemoteJWKSet, JWTPayload, jwksCache, JWKSCacheInput, jwtVerify, SignJWT } from 'jose';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ConfigError } from '../config/load-config';
import { isSingleLineText } from '../common/validation/text';
import { loadOrCreateDevKey } from './dev-signing-key';
import { roleMapProblem, SignedInToken, TokenSource } from './identity-rule';
import { VerifiedTokenCache } from './verified-token-cache';

export const DEV_TOKEN_ALGORITHM = 'HS256';

export class InvalidTokenError extends Error {}

/** Signature algorithms accepted from the identity provider: asymmetric only, so a token HMAC-signed with a public key (alg confusion) or `none` never verifies. */
const PROVIDER_ALGORITHMS = ['RS256', 'ES256', 'PS256', 'EdDSA'];
/** Seconds of clock difference tolerated between Vigil and the issuer. */
const CLOCK_TOLERANCE_SECONDS = 5;

export interface VerifiedToken extends SignedInToken {
  /** The token's `sub`: the provider's name for the person (a username in development tokens); the rate limit's key. */
  subject: string;
  /** When the token stops being valid (ms since the epoch): sessions and streams end then. */
  expiresAt: number;
}

/**
 * Verifies bearer tokens: against the identity provider's JWKS, or in development against the
 * local signing key. Issuer, audience, signature and a bounded lifetime are checked (`exp` is
 * required, `exp` − `iat` at most AUTH_MAX_TOKEN_LIFETIME_SECONDS, no `iat` in the future). Which
 * staff member the claims name is the identity rule's to say (`identity-rule.ts`); roles and care
 * teams come from the database.
 */
@Injectable()
export class TokenService {
  private readonly jwks?: ReturnType<typeof createRemoteJWKSet>;
  private readonly devKey?: Uint8Array;
  /** The JWKS as last fetched (jose writes each fetch here): a new object each fetch, so its identity is the key set's generation. */
  private readonly fetchedKeys: JWKSCacheInput = {} as JWKSCacheInput;
  /** Each request's verified token (`verifyForRequest`); dropped with the request. */
  private readonly verifiedByRequest = new WeakMap<object, { token: string; verified: Promise<VerifiedToken> }>();
  /** Tokens verified by earlier requests (AUTH_TOKEN_CACHE); null: every request checks its token. */
  private readonly verifiedTokens: VerifiedTokenCache<VerifiedToken> | null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const problem = roleMapProblem(config.auth.identity);
    if (problem) throw new ConfigError([problem]);
    if (config.auth.jwksUrl) {
      // The JWKS is refetched after AUTH_JWKS_CACHE_SECONDS, so a key the provider removed stops verifying within it.
      const cacheMaxAge = config.auth.jwksCacheSeconds * 1000;
      this.jwks = createRemoteJWKSet(new URL(config.auth.jwksUrl), {
        cacheMaxAge,
        cooldownDuration: Math.min(cacheMaxAge, 30_000),
        timeoutDuration: 5000,
        [jwksCache]: this.fetchedKeys,
      });
    }
    if (config.auth.devMode) this.devKey = loadOrCreateDevKey(config.auth.devKeyFile);
    this.verifiedTokens = config.auth.tokenCache ? new VerifiedTokenCache<VerifiedToken>(() => this.keyGeneration()) : null;
  }

  /**
   * Which keys verify tokens now. The development key is the process's for its whole life; the
   * provider's keys are those of the JWKS fetched last, and only while it is fresh: once it is due
   * for refetching (AUTH_JWKS_CACHE_SECONDS) no earlier verification counts (a fresh object each
   * call equals nothing), so a key the provider removed stops verifying exactly when it did without
   * the cache: at the refetch. An unknown `kid` refetches too, which voids every earlier entry.
   */
  private keyGeneration(): unknown {
    if (!this.jwks) return this.devKey;
    return this.jwks.fresh ? this.fetchedKeys.jwks : {};
  }

  /**
   * `verify`, once per request: the rate limiter (before routing) and the auth guard both need the
   * token's subject, and a signature check costs CPU on every request. The same token on the same
   * request object gets the first answer, a refusal included.
   */
  verifyForRequest(request: object, token: string, now = Date.now()): Promise<VerifiedToken> {
    // Middleware sees the node request, guards Fastify's request around it: one key for both.
    const key = (request as { raw?: object }).raw ?? request;
    const seen = this.verifiedByRequest.get(key);
    if (seen?.token === token) return seen.verified;
    const verified = this.verifyOnce(token, now);
    this.verifiedByRequest.set(key, { token, verified });
    return verified;
  }

  /** `verify`, answered from the tokens verified before (`VerifiedTokenCache`) when the cache is on. */
  private verifyOnce(token: string, now: number): Promise<VerifiedToken> {
    const cache = this.verifiedTokens;
    if (!cache) return this.verify(token, now);
    const hit = cache.get(token, now);
    if (hit) return Promise.resolve(hit);
    // The generation before the check: keys rotated while it ran void the result for later requests.
    const keys = cache.currentKeys();
    return this.verify(token, now).then((verified) => {
      cache.put(token, verified, verified.expiresAt, keys);
      return verified;
    });
  }

  /** The token's subject and expiry; throws InvalidTokenError for any defect. */
  async verify(token: string, now = Date.now()): Promise<VerifiedToken> {
    const options = {
      issuer: this.config.auth.issuer,
      audience: this.config.auth.audience,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp', 'sub'],
      currentDate: new Date(now),
    };
    let payload: JWTPayload | undefined;
    const source: TokenSource = this.devKey && isHmacToken(token) ? 'development' : 'provider';
    try {
      if (this.devKey && source === 'development') {
        payload = (await jwtVerify(token, this.devKey, { ...options, algorithms: [DEV_TOKEN_ALGORITHM] })).payload;
      } else if (this.jwks) {
        payload = (await jwtVerify(token, this.jwks, { ...options, algorithms: PROVIDER_ALGORITHMS })).payload;
      }
    } catch {
      throw new InvalidTokenError();
    }
    // A subject with a control character (NUL above all, which Postgres cannot even compare) names
    // no user: refused as any other bad token, before it reaches a query.
    if (!payload || typeof payload.sub !== 'string' || payload.sub.length === 0 || !isSingleLineText(payload.sub) || typeof payload.exp !== 'number') {
      throw new InvalidTokenError();
    }
    if (!this.lifetimeIsBounded(payload, Math.floor(now / 1000))) throw new InvalidTokenError();
    return { subject: payload.sub, expiresAt: payload.exp * 1000, source, claims: payload };
  }

  /** A token may not live longer than the configured maximum, counted from `iat` (or from now without one). */
  private lifetimeIsBounded(payload: JWTPayload, nowSeconds: number): boolean {
    const { exp, iat } = payload as { exp: number; iat?: number };
    if (iat !== undefined && iat > nowSeconds + CLOCK_TOLERANCE_SECONDS) return false;
    const start = iat ?? nowSeconds;
    return exp - start <= this.config.auth.maxTokenLifetimeSeconds + CLOCK_TOLERANCE_SECONDS;
  }
}

/** Mints a development token for a staff username (the CLI and the tests use this). */
export async function mintDevToken(
  key: Uint8Array,
  username: string,
  options: { issuer: string; audience: string; ttlSeconds?: number; now?: number },
): Promise<string> {
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: DEV_TOKEN_ALGORITHM, typ: 'JWT' })
    .setSubject(username)
    .setIssuer(options.issuer)
    .setAudience(options.audience)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.ttlSeconds ?? 3600))
    .sign(key);
}

function isHmacToken(token: string): boolean {
  try {
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as { alg?: unknown };
    return header.alg === DEV_TOKEN_ALGORITHM;
  } catch {
    return false;
  }
}
