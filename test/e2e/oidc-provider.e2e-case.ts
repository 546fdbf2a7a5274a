import { KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { OidcProvider, SigningKey, signingKey, startOidcProvider } from '../setup/oidc-provider';

const ROUTE = `/patients/${patientIdOf('diabetes-a1c-8-1')}/labs`;
const USER = 'dr.okafor';
const MAX_LIFETIME = 900;
const CACHE_SECONDS = 1;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Authentication against a real OpenID Connect provider (the certified `oidc-provider` package,
 * started by the test): its JWKS, key rotation and revocation, and every kind of forged or
 * over-long token signed with its own keys.
 */
describe('authentication with an OpenID Connect provider (JWKS)', () => {
  const database = useSeededDatabase();
  let provider: OidcProvider;
  let sut: TestApp;
  let keyA: SigningKey;
  let keyB: SigningKey;
  let keyC: SigningKey;

  beforeAll(async () => {
    [keyA, keyB, keyC] = await Promise.all([signingKey('key-a'), signingKey('key-b'), signingKey('key-c')]);
    provider = await startOidcProvider({ keys: [keyA, keyB], clients: [USER, 'dr.nobody'] });
    sut = await createTestApp({
      databaseUrl: database().url,
      env: {
        AUTH_DEV_MODE: 'false',
        AUTH_JWKS_URL: provider.jwksUrl,
        AUTH_ISSUER: provider.issuer,
        AUTH_AUDIENCE: 'vigil',
        AUTH_MAX_TOKEN_LIFETIME_SECONDS: String(MAX_LIFETIME),
        AUTH_JWKS_CACHE_SECONDS: String(CACHE_SECONDS),
      },
    });
  }, 60_000);
  afterAll(async () => {
    await sut?.close();
    await provider?.stop();
  });

  const statusWith = async (token: string) =>
    (await request(sut.app.getHttpServer()).get(ROUTE).set('authorization', `Bearer ${token}`)).status;

  type Claims = { sub?: string; iss?: string; aud?: string; iat?: number; nbf?: number; exp?: number };
  const now = () => Math.floor(Date.now() / 1000);
  const good = (): Claims => ({ sub: USER, iss: provider.issuer, aud: 'vigil', iat: now(), exp: now() + 300 });
  const sign = (claims: Claims, key: SigningKey = keyA, kid = key.kid) => {
    const { sub, iss, aud, iat, nbf, exp, ...rest } = claims;
    let jwt = new SignJWT(rest).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid });
    if (sub !== undefined) jwt = jwt.setSubject(sub);
    if (iss !== undefined) jwt = jwt.setIssuer(iss);
    if (aud !== undefined) jwt = jwt.setAudience(aud);
    if (iat !== undefined) jwt = jwt.setIssuedAt(iat);
    if (nbf !== undefined) jwt = jwt.setNotBefore(nbf);
    if (exp !== undefined) jwt = jwt.setExpirationTime(exp);
    return jwt.sign(key.privateKey);
  };
  const without = (claim: keyof Claims): Claims => {
    const claims = good();
    delete claims[claim];
    return claims;
  };

  it('accepts an access token the provider issued (RFC 9068 JWT, kid of its first key)', async () => {
    const token = await provider.accessToken(USER);
    expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString())).toMatchObject({ kid: 'key-a', alg: 'RS256' });
    expect(await statusWith(token)).toBe(200);
  });

  it.each<[string, number, () => Promise<string>]>([
    ['signed with the first published key', 200, () => sign(good(), keyA)],
    ['signed with the second published key (rotation: both kids are live)', 200, () => sign(good(), keyB)],
    ['without iat, exp within the maximum lifetime', 200, () => sign(without('iat'))],
    ['issued by the provider to a user Vigil does not know', 401, async () => provider.accessToken('dr.nobody')],
    ['signed with a key the provider does not publish', 401, () => sign(good(), keyC)],
    ['signed with an unpublished key under a published kid', 401, () => sign(good(), keyC, 'key-a')],
    ['with another issuer', 401, () => sign({ ...good(), iss: 'https://idp.example.org' })],
    ['with another audience', 401, () => sign({ ...good(), aud: 'another-api' })],
    ['without exp', 401, () => sign(without('exp'))],
    ['without sub', 401, () => sign(without('sub'))],
    ['expired', 401, () => sign({ ...good(), iat: now() - 600, exp: now() - 60 })],
    ['living longer than AUTH_MAX_TOKEN_LIFETIME_SECONDS', 401, () => sign({ ...good(), exp: now() + MAX_LIFETIME + 60 })],
    ['without iat, expiring beyond the maximum lifetime from now', 401, () => sign({ ...without('iat'), exp: now() + MAX_LIFETIME + 60 })],
    ['issued in the future', 401, () => sign({ ...good(), iat: now() + 120, exp: now() + 300 })],
    ['not valid before a future time (nbf)', 401, () => sign({ ...good(), nbf: now() + 120 })],
    ['HS256-signed with the provider’s public key (alg confusion)', 401, () => hmacWithPublicKey(good(), keyA)],
    ['alg none', 401, async () => unsigned(good())],
  ])('a token %s answers %i', async (_name, status, token) => {
    expect(await statusWith(await token())).toBe(status);
  });

  it('stops accepting a key the provider removed (revocation) once the cached JWKS ages out, and keeps the other', async () => {
    const byA = await sign(good(), keyA);
    const byB = await sign(good(), keyB);
    expect([await statusWith(byA), await statusWith(byB)]).toEqual([200, 200]);
    // The provider restarts on the same address publishing key B only.
    const port = provider.port;
    await provider.stop();
    provider = await startOidcProvider({ keys: [keyB], clients: [USER], port });
    await sleep(CACHE_SECONDS * 1000 + 500);
    expect(await statusWith(byA)).toBe(401);
    expect(await statusWith(byB)).toBe(200);
    const issuedNow = await provider.accessToken(USER);
    expect(JSON.parse(Buffer.from(issuedNow.split('.')[0], 'base64url').toString())).toMatchObject({ kid: 'key-b' });
    expect(await statusWith(issuedNow)).toBe(200);
  }, 30_000);
});

/** The classic alg-confusion forgery: an HMAC whose secret is the RSA public key as published (PEM). */
function hmacWithPublicKey(claims: { sub?: string; iss?: string; aud?: string; iat?: number; exp?: number }, key: SigningKey) {
  const pem = (key.publicKey as KeyObject).export({ type: 'spki', format: 'pem' });
  return new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: key.kid }).sign(new TextEncoder().encode(String(pem)));
}

function unsigned(claims: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  // An unsecured JWT (RFC 7519 §6) with a non-empty junk signature, so it reaches the verifier.
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.AAAA`;
}
