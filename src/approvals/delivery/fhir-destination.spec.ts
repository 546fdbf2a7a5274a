import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeliveryConfig } from '../../config/app-config';
import { DeliveryFailure, ProposalKind } from '../enum';
import { DeliveredEffect } from './delivered-effect';
import { FhirAuthorization } from './fhir-authorization';
import { FhirDestination } from './fhir-destination';

const BASE = 'https://fhir.example.org/r4';
const TOKEN_URL = 'https://auth.example.org/token';
const EFFECT: DeliveredEffect = {
  proposalId: '0b5e7a52-6c1d-4f3a-9a61-5f0c2b7d8e14',
  version: 1,
  contentHash: 'b'.repeat(64),
  kind: ProposalKind.AddCareNote,
  content: { noteType: 'follow-up', text: 'A note' },
  rationale: 'Why',
  citations: [],
  executedAt: '2026-06-30T12:00:00.000000Z',
  patientId: 'p',
  mrn: 'MRN-1',
  proposer: { staffId: 's1', name: 'Dr Okafor', role: 'clinician', npi: null, fhirPractitionerId: null },
  approvers: [{ staffId: 's2', name: 'Rev Santos', role: 'reviewer', npi: null, fhirPractitionerId: null, approvedAt: '2026-06-30T11:00:00.000000Z' }],
};
const fhir = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/fhir+json' } });
/** A 401 as gateways and many servers send it: no FHIR body at all. */
const bareRefusal = () => new Response('<html>Unauthorized</html>', { status: 401, headers: { 'content-type': 'text/html' } });
const TRANSACTION_ANSWER = {
  resourceType: 'Bundle',
  type: 'transaction-response',
  entry: [
    { response: { status: '201 Created', location: 'DocumentReference/d1/_history/1' } },
    { response: { status: '201 Created', location: 'Provenance/p1/_history/1' } },
  ],
};

/**
 * A SMART server whose FHIR side refuses the tokens named in `refused` (401 without a body), and
 * answers the patient search and the transaction otherwise; every request recorded with its token.
 */
function rig(refused: (token: string) => boolean) {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyFile = join(mkdtempSync(join(tmpdir(), 'vigil-smart-')), 'key');
  writeFileSync(keyFile, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const requests: string[] = [];
  let issued = 0;
  const fetchImpl = (async (url: string | URL | Request, init?: RequestInit) => {
    const target = String(url);
    if (target === TOKEN_URL) {
      issued += 1;
      requests.push('token');
      return new Response(JSON.stringify({ access_token: `token-${issued}`, expires_in: 300 }), { status: 200, headers: { 'content-type': 'application/json' } });
    }
    const token = String((init?.headers as Record<string, string>).authorization).replace('Bearer ', '');
    requests.push(`${init?.method} ${target.replace(BASE, '').split('?')[0] || '/'} ${token}`);
    if (refused(token)) return bareRefusal();
    return target.includes('/Patient?') ? fhir({ resourceType: 'Bundle', type: 'searchset', entry: [{ resource: { resourceType: 'Patient', id: 'pt1' } }] }) : fhir(TRANSACTION_ANSWER);
  }) as typeof fetch;
  const config: NonNullable<DeliveryConfig['fhir']> = {
    baseUrl: BASE,
    patientIdentifierSystem: 'urn:oid:1.2.3',
    timeoutMs: 1000,
    auth: { kind: 'smart', clientId: 'vigil', privateKeyFile: keyFile, tokenUrl: TOKEN_URL, scopes: 'system/DocumentReference.cs' },
  };
  const sut = new FhirDestination(config, 'https://vigil.example.org/fhir', new FhirAuthorization(config.auth, BASE, 1000, fetchImpl), fetchImpl);
  return { sut, requests };
}

describe(FhirDestination.name, () => {
  it('a token the server refuses (401, no body) is dropped and replaced once, within the attempt', async () => {
    const revoked = new Set<string>();
    const { sut, requests } = rig((token) => revoked.has(token));
    await sut.deliver(EFFECT);
    // The server revokes the token it holds: the next attempt renews it on the first 401 and goes on.
    revoked.add('token-1');
    expect(await sut.deliver(EFFECT)).toMatchObject({ resource: { type: 'DocumentReference', id: 'd1' } });
    expect(requests).toEqual(['token', 'GET /Patient token-1', 'POST / token-1', 'GET /Patient token-1', 'token', 'GET /Patient token-2', 'POST / token-2']);
  });

  it('a second 401 in one attempt fails it as `auth_failed` (retried later), without a third token', async () => {
    const { sut, requests } = rig(() => true);
    await expect(sut.deliver(EFFECT)).rejects.toMatchObject({ reason: DeliveryFailure.AuthFailed, permanent: false, httpStatus: 401 });
    expect(requests).toEqual(['token', 'GET /Patient token-1', 'token', 'GET /Patient token-2']);
    // The next attempt does not reuse the refused token.
    await expect(sut.deliver(EFFECT)).rejects.toMatchObject({ reason: DeliveryFailure.AuthFailed });
    expect(requests.slice(4)).toEqual(['token', 'GET /Patient token-3', 'token', 'GET /Patient token-4']);
  });
});
