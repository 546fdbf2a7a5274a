import { mkdtempSync, rmSync } from 'node:fs';
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

  it('checks again for another request, or another token on the same request', async () => {
    const sut = new TokenService(config);
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
