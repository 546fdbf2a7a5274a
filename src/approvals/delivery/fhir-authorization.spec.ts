import { Logger } from '@nestjs/common';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { DeliveryFailure } from '../enum';
import { FhirAuthorization } from './fhir-authorization';

const BASE = 'https://fhir.example.org/r4';
const TOKEN_URL = 'https://auth.example.org/token';

function keyFile(type: 'rsa' | 'ec-384' | 'ec-256', format: 'pem' | 'jwk' = 'pem') {
  const pair =
    type === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: type === 'ec-384' ? 'P-384' : 'P-256' });
  const file = join(mkdtempSync(join(tmpdir(), 'vigil-smart-')), 'key');
  writeFileSync(file, format === 'pem' ? pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) : JSON.stringify(pair.privateKey.export({ format: 'jwk' })));
  return { file, publicKey: pair.publicKey };
}

/** A token endpoint (and SMART configuration) answering as `answer` says; every call recorded. */
function server(answer: (url: string, body: URLSearchParams) => Response) {
  const calls: { url: string; body: URLSearchParams }[] = [];
  const fetchImpl = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const body = new URLSearchParams(String(init?.body ?? ''));
    calls.push({ url: String(url), body });
    return answer(String(url), body);
  }) as unknown as typeof fetch;
  return { calls, fetchImpl };
}
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe(FhirAuthorization.name, () => {
  it('sends nothing, or the configured bearer token', async () => {
    expect(await new FhirAuthorization({ kind: 'none' }, BASE, 1000).header()).toBeUndefined();
    expect(await new FhirAuthorization({ kind: 'bearer', token: 'abc12345' }, BASE, 1000).header()).toBe('Bearer abc12345');
  });

  it.each([
    ['rsa', 'pem', 'RS384'],
    ['ec-384', 'jwk', 'ES384'],
  ] as const)('SMART Backend Services with a %s key (%s): a client assertion the authorization server can verify, and a token kept until it nearly expires', async (type, format, alg) => {
    const { file, publicKey } = keyFile(type, format);
    const { calls, fetchImpl } = server((url) => (url.endsWith('smart-configuration') ? json({ token_endpoint: TOKEN_URL }) : json({ access_token: `token-${calls.length}`, expires_in: 300, token_type: 'bearer' })));
    let now = Date.parse('2026-06-30T12:00:00Z');
    const sut = new FhirAuthorization({ kind: 'smart', clientId: 'vigil-client', privateKeyFile: file, keyId: 'k1', scopes: 'system/ServiceRequest.crs' }, BASE, 1000, fetchImpl, () => now);

    expect(await sut.header()).toBe('Bearer token-2');
    expect(calls.map((call) => call.url)).toEqual([`${BASE}/.well-known/smart-configuration`, TOKEN_URL]);
    const form = calls[1].body;
    expect(Object.fromEntries(form)).toMatchObject({ grant_type: 'client_credentials', scope: 'system/ServiceRequest.crs', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' });
    const assertion = form.get('client_assertion') ?? '';
    expect(decodeProtectedHeader(assertion)).toMatchObject({ alg, kid: 'k1', typ: 'JWT' });
    const { payload } = await jwtVerify(assertion, publicKey, { issuer: 'vigil-client', subject: 'vigil-client', audience: TOKEN_URL, currentDate: new Date(now), algorithms: [alg] });
    // Both from the same clock: an assertion issued now, valid for five minutes at most.
    expect([payload.iat, payload.exp! - payload.iat!]).toEqual([Math.floor(now / 1000), 300]);
    expect(typeof payload.jti).toBe('string');

    now += 200_000;
    expect(await sut.header()).toBe('Bearer token-2');
    now += 80_000; // within 30 s of expiry: renewed
    expect(await sut.header()).toBe('Bearer token-3');
    // A refusal of an older token keeps the current one; a refusal of the current one drops it.
    sut.invalidate('Bearer token-2');
    expect(await sut.header()).toBe('Bearer token-3');
    sut.invalidate('Bearer token-3');
    expect(await sut.header()).toBe('Bearer token-4');
    expect(calls.filter((call) => call.url === TOKEN_URL)).toHaveLength(3);
    expect(sut.renewable).toBe(true);
    expect(new FhirAuthorization({ kind: 'bearer', token: 'abc12345' }, BASE, 1000).renewable).toBe(false);
  });

  it('never takes a plain-HTTP token endpoint from an https server’s discovery document', async () => {
    const { file } = keyFile('rsa');
    const { calls, fetchImpl } = server((url) => (url.endsWith('smart-configuration') ? json({ token_endpoint: 'http://auth.example.org/token' }) : json({ access_token: 't' })));
    await expect(new FhirAuthorization({ kind: 'smart', clientId: 'c', privateKeyFile: file, scopes: 's' }, BASE, 1000, fetchImpl).header()).rejects.toMatchObject({ reason: DeliveryFailure.AuthFailed });
    expect(calls.map((call) => call.url)).toEqual([`${BASE}/.well-known/smart-configuration`]);
  });

  it('a refusing token endpoint or a key SMART does not allow is `auth_failed`', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { file } = keyFile('rsa');
    const refusing = server(() => json({ error: 'invalid_client', error_description: 'free text the server wrote' }, 401));
    await expect(new FhirAuthorization({ kind: 'smart', clientId: 'c', privateKeyFile: file, tokenUrl: `${TOKEN_URL}?tenant=t1`, scopes: 's' }, BASE, 1000, refusing.fetchImpl).header()).rejects.toMatchObject({
      reason: DeliveryFailure.AuthFailed,
      permanent: false,
      httpStatus: 401,
    });
    // The operator reads why (the OAuth error code), and nothing of the assertion, the query or the server's free text.
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toEqual({ tokenEndpoint: TOKEN_URL, clientId: 'c', httpStatus: 401, error: 'invalid_client' });
    expect(JSON.stringify(warn.mock.calls)).not.toMatch(/free text|tenant|eyJ/);
    warn.mockRestore();
    const p256 = keyFile('ec-256');
    const fine = server(() => json({ access_token: 't' }));
    await expect(new FhirAuthorization({ kind: 'smart', clientId: 'c', privateKeyFile: p256.file, tokenUrl: TOKEN_URL, scopes: 's' }, BASE, 1000, fine.fetchImpl).header()).rejects.toMatchObject({
      reason: DeliveryFailure.AuthFailed,
      permanent: true,
    });
    expect(fine.calls).toHaveLength(0);
  });
});
