import { exportJWK, generateKeyPair, JWK, KeyLike, SignJWT } from 'jose';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/load-config';
import { loadOrCreateDevKey } from './dev-signing-key';
import { InvalidTokenError, mintDevToken, TokenService } from './token.service';

describe('TokenService.verifyForRequest', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-token-'));
  const config = loadConfig({ NODE_ENV: 'test', AUTH_DEV_MODE: 'true', AUTH_DEV_KEY_FILE: join(dir, 'dev-signing-key') });
  const mint = (username: string) => mintDevToken(loadOrCreateDevKey(config.auth.devKeyFile), username, { issuer: config.auth.issuer, audience: config.auth.audience, ttlSeconds: 600 });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('checks a request\'s token once, however often the request asks (the rate limiter, then the guard)', async () => {
    const sut = new TokenService(config);
    const verify = jest.spyOn(sut, 'verify');
    const token = await mint('dr.okafor');
    const request = {};
    await expect(sut.verifyForRequest(request, token)).resolves.toMatchObject({ subject: 'dr.okafor' });
    await expect(sut.verifyForRequest(request, token)).resolves.toMatchObject({ subject: 'dr.okafor' });
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('checks again for another request, or another token on the same request (without the cache of verified tokens)', async () => {
    const sut = new TokenService({ ...config, auth: { ...config.auth, tokenCache: false } });
    const verify = jest.spyOn(sut, 'verify');
    const request = {};
    await sut.verifyForRequest(request, await mint('dr.okafor'));
    await sut.verifyForRequest({}, await mint('dr.okafor'));
    await expect(sut.verifyForRequest(request, await mint('cc.lindqvist'))).resolves.toMatchObject({ subject: 'cc.lindqvist' });
    expect(verify).toHaveBeenCalledTimes(3);
  });

  it('refuses a bad token every time it is asked, having checked it once', async () => {
    const sut = new TokenService(config);
    const verify = jest.spyOn(sut, 'verify');
    const request = {};
    const forged = `${(await mint('dr.okafor')).slice(0, -2)}xx`;
    await expect(sut.verifyForRequest(request, forged)).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(sut.verifyForRequest(request, forged)).rejects.toBeInstanceOf(InvalidTokenError);
    expect(verify).toHaveBeenCalledTimes(1);
  });
});

describe('TokenService at start-up', () => {
  it('refuses a groups mapping to a role Vigil does not have, naming the variable (the configuration only parses the map)', () => {
    const config = loadConfig({ NODE_ENV: 'test', AUTH_JWKS_URL: 'https://idp.example.org/jwks', AUTH_ROLE_CLAIM: 'groups', AUTH_ROLE_MAP: 'vigil-reviewers=reviewer,vigil-admins=admin' });
    expect(() => new TokenService(config)).toThrow(/AUTH_ROLE_MAP: each role must be one of clinician, care_coordinator, reviewer, analyst, privacy_officer/);
    expect(() => new TokenService({ ...config, auth: { ...config.auth, identity: { ...config.auth.identity, roleMap: { 'vigil-reviewers': 'reviewer' } } } })).not.toThrow();
  });
});

describe('TokenService: the verified-token cache (AUTH_TOKEN_CACHE)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-token-cache-'));
  const config = loadConfig({ NODE_ENV: 'test', AUTH_DEV_MODE: 'true', AUTH_DEV_KEY_FILE: join(dir, 'dev-signing-key') });
  const key = () => loadOrCreateDevKey(config.auth.devKeyFile);
  const mint = (username: string, now = Date.now(), ttlSeconds = 600) => mintDevToken(key(), username, { issuer: config.auth.issuer, audience: config.auth.audience, ttlSeconds, now });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('checks a token once for all the requests that send it', async () => {
    const sut = new TokenService(config);
    const verify = jest.spyOn(sut, 'verify');
    const token = await mint('dr.okafor');
    for (let request = 0; request < 3; request += 1) await expect(sut.verifyForRequest({}, token)).resolves.toMatchObject({ subject: 'dr.okafor' });
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('checks every request when AUTH_TOKEN_CACHE=false', async () => {
    const sut = new TokenService({ ...config, auth: { ...config.auth, tokenCache: false } });
    const verify = jest.spyOn(sut, 'verify');
    const token = await mint('dr.okafor');
    await sut.verifyForRequest({}, token);
    await sut.verifyForRequest({}, token);
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('never answers for a token at or past its exp, even within the clock tolerance a full check allows; past that, refuses it', async () => {
    const sut = new TokenService(config);
    const verify = jest.spyOn(sut, 'verify');
    const now = Date.now();
    const token = await mint('dr.okafor', now, 60);
    await sut.verifyForRequest({}, token, now);
    // At exp itself the cache does not answer: the full check does (and accepts, within its tolerance).
    await expect(sut.verifyForRequest({}, token, now + 60_000)).resolves.toMatchObject({ subject: 'dr.okafor' });
    expect(verify).toHaveBeenCalledTimes(2);
    await expect(sut.verifyForRequest({}, token, now + 70_000)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('keeps no refusal: a bad token is checked, and refused, on every request', async () => {
    const sut = new TokenService(config);
    const verify = jest.spyOn(sut, 'verify');
    const forged = `${(await mint('dr.okafor')).slice(0, -2)}xx`;
    await expect(sut.verifyForRequest({}, forged)).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(sut.verifyForRequest({}, forged)).rejects.toBeInstanceOf(InvalidTokenError);
    expect(verify).toHaveBeenCalledTimes(2);
  });

  describe('with an identity provider that rotates its keys', () => {
    let server: Server;
    let published: JWK[] = [];
    let jwksUrl = '';
    beforeAll(async () => {
      server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: published })));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    const keyPair = async (kid: string) => {
      const { privateKey, publicKey } = await generateKeyPair('ES256');
      return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
    };
    const sign = (pair: { kid: string; privateKey: KeyLike }, issuer: string, audience: string) =>
      new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid: pair.kid }).setSubject('dr.okafor').setIssuer(issuer).setAudience(audience).setIssuedAt().setExpirationTime('10m').sign(pair.privateKey);

    it('refuses a cached token once its key is retired, at the JWKS refetch, as without the cache', async () => {
      const provider = loadConfig({ NODE_ENV: 'test', AUTH_JWKS_URL: jwksUrl, AUTH_JWKS_CACHE_SECONDS: '1', AUTH_ISSUER: 'https://idp.test', AUTH_AUDIENCE: 'vigil' });
      const [retiring, next] = [await keyPair('k1'), await keyPair('k2')];
      published = [retiring.jwk];
      const sut = new TokenService(provider);
      const verify = jest.spyOn(sut, 'verify');
      const token = await sign(retiring, 'https://idp.test', 'vigil');
      // The first check fetches the JWKS (a key set first seen during a check is not trusted for later ones); the second is kept.
      for (let request = 0; request < 3; request += 1) await sut.verifyForRequest({}, token);
      expect(verify).toHaveBeenCalledTimes(2);

      published = [next.jwk];
      // The JWKS is kept AUTH_JWKS_CACHE_SECONDS; after that the next check fetches it again.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await expect(sut.verifyForRequest({}, token)).rejects.toBeInstanceOf(InvalidTokenError);
      await expect(sut.verifyForRequest({}, await sign(next, 'https://idp.test', 'vigil'))).resolves.toMatchObject({ subject: 'dr.okafor' });
    });
  });
});
