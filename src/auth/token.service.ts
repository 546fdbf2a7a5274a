import { Inject, Injectable } from '@nestjs/common';
import { createRemoteJWKSet, JWTPayload, jwtVerify, SignJWT } from 'jose';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { isSingleLineText } from '../common/validation/text';
import { loadOrCreateDevKey } from './dev-signing-key';

export const DEV_TOKEN_ALGORITHM = 'HS256';

export class InvalidTokenError extends Error {}

/**
 * Verifies bearer tokens: against the identity provider's JWKS, or in development against the
 * local signing key. Issuer, audience, expiry and signature are all checked; only the subject is
 * used, since roles and care teams come from the database.
 */
@Injectable()
export class TokenService {
  private readonly jwks?: ReturnType<typeof createRemoteJWKSet>;
  private readonly devKey?: Uint8Array;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    if (config.auth.jwksUrl) this.jwks = createRemoteJWKSet(new URL(config.auth.jwksUrl));
    if (config.auth.devMode) this.devKey = loadOrCreateDevKey(config.auth.devKeyFile);
  }

  /** The token's subject (a staff username); throws InvalidTokenError for any defect. */
  async subjectOf(token: string): Promise<string> {
    const options = { issuer: this.config.auth.issuer, audience: this.config.auth.audience, clockTolerance: 5 };
    let payload: JWTPayload | undefined;
    try {
      if (this.devKey && isHmacToken(token)) {
        payload = (await jwtVerify(token, this.devKey, { ...options, algorithms: [DEV_TOKEN_ALGORITHM] })).payload;
      } else if (this.jwks) {
        payload = (await jwtVerify(token, this.jwks, { ...options, algorithms: ['RS256', 'ES256', 'PS256', 'EdDSA'] })).payload;
      }
    } catch {
      throw new InvalidTokenError();
    }
    // A subject with a control character (NUL above all, which Postgres cannot even compare) names
    // no user: refused as any other bad token, before it reaches a query.
    if (!payload || typeof payload.sub !== 'string' || payload.sub.length === 0 || !isSingleLineText(payload.sub)) throw new InvalidTokenError();
    return payload.sub;
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
