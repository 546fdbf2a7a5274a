import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { DeliveryFailure, ProposalKind } from '../enum';
import { DeliveredEffect } from './delivered-effect';
import { DeliveryError } from './delivery-failure';
import { EFFECT_EVENT_TYPE, webhookBody, WebhookDestination, webhookSignature } from './webhook-destination';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const DELIVERY = '7a0c7c8e-1f0b-4b9e-8d5b-0c1f2e3d4c5b';
const EFFECT: DeliveredEffect = {
  proposalId: '0b5e7a52-6c1d-4f3a-9a61-5f0c2b7d8e14',
  version: 1,
  contentHash: 'b'.repeat(64),
  kind: ProposalKind.AddCareNote,
  content: { noteType: 'follow-up', text: 'A note' },
  rationale: 'Why',
  citations: [],
  executedAt: '2026-06-30T12:00:00.000000Z',
  measurementPeriod: null,
  patientId: 'p',
  mrn: 'MRN-1',
  proposer: { staffId: 's1', name: 'Dr Okafor', role: 'clinician', npi: null, fhirPractitionerId: null },
  approvers: [{ staffId: 's2', name: 'Rev Santos', role: 'reviewer', npi: null, fhirPractitionerId: null, approvedAt: '2026-06-30T11:00:00.000000Z' }],
};

function rig(status: number, headers: Record<string, string> = {}) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchImpl = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return new Response(null, { status, headers });
  }) as unknown as typeof fetch;
  let now = 1_782_820_800;
  const sut = new WebhookDestination({ url: 'https://hooks.example.org/vigil', secret: SECRET, timeoutMs: 1000 }, 'https://vigil.example.org/fhir', fetchImpl, () => (now += 7));
  return { sut, calls };
}

describe(WebhookDestination.name, () => {
  it('signs each event so the Standard Webhooks reference library verifies it, with the same id on every attempt', async () => {
    const { sut, calls } = rig(204);
    await sut.deliver(DELIVERY, EFFECT);
    await sut.deliver(DELIVERY, EFFECT);
    const verifier = new Webhook(SECRET);
    for (const { init } of calls) {
      const headers = init.headers as Record<string, string>;
      // The library refuses timestamps more than five minutes from its clock: check at the signing time.
      jest.useFakeTimers({ now: Number(headers['webhook-timestamp']) * 1000 });
      try {
        expect(verifier.verify(String(init.body), headers)).toMatchObject({ type: EFFECT_EVENT_TYPE, data: { proposalId: EFFECT.proposalId, kind: 'add_care_note' } });
      } finally {
        jest.useRealTimers();
      }
      expect(headers['webhook-id']).toBe(`msg_${DELIVERY}`);
    }
    const [first, second] = calls.map(({ init }) => init.headers as Record<string, string>);
    expect(first['webhook-timestamp']).not.toBe(second['webhook-timestamp']);
    expect(calls[0].init.body).toBe(calls[1].init.body);
  });

  it('carries a closure’s stored measurement period, and null for the other kinds', () => {
    const closure: DeliveredEffect = { ...EFFECT, kind: ProposalKind.CloseCareGap, content: { measureId: 'CMS122' }, measurementPeriod: { start: '2025-01-01', end: '2025-12-31' } };
    const dataOf = (effect: DeliveredEffect) => (JSON.parse(webhookBody(effect, 'https://vigil.example.org/fhir')) as { data: Record<string, unknown> }).data;
    expect(dataOf(closure).measurementPeriod).toEqual({ start: '2025-01-01', end: '2025-12-31' });
    expect(dataOf(EFFECT).measurementPeriod).toBeNull();
  });

  it('names the closed measure by its canonical: a loaded measure’s stored edition, a built-in one’s library, none for the other kinds', () => {
    const dataOf = (effect: DeliveredEffect) => (JSON.parse(webhookBody(effect, 'https://vigil.example.org/fhir')) as { data: Record<string, unknown> }).data;
    const closure = (measureId: string, measureCanonical: string | null): DeliveredEffect => ({
      ...EFFECT, kind: ProposalKind.CloseCareGap, content: { measureId }, measurementPeriod: { start: '2025-01-01', end: '2025-12-31' }, measureCanonical,
    });
    expect(dataOf(closure('CMS139', 'https://madie.cms.gov/Measure/CMS139FHIRFallsScreening|0.3.000')).measure).toBe('https://madie.cms.gov/Measure/CMS139FHIRFallsScreening|0.3.000');
    expect(dataOf(closure('CMS122', null)).measure).toMatch(/^https:\/\/madie\.cms\.gov\/Measure\/.+\|.+$/);
    expect(dataOf(EFFECT).measure).toBeNull();
  });

  it('is refused by the library when the body, the id or the secret differ', () => {
    const body = webhookBody(EFFECT, 'https://vigil.example.org/fhir');
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': webhookSignature(SECRET, 'msg_1', timestamp, body) };
    const verifier = new Webhook(SECRET);
    expect(() => verifier.verify(body, headers)).not.toThrow();
    expect(() => verifier.verify(body.replace('A note', 'B note'), headers)).toThrow();
    expect(() => verifier.verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow();
    expect(() => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(body, headers)).toThrow();
  });

  it.each([
    [503, { 'retry-after': '3' }, DeliveryFailure.ServerError, false, 3000],
    [429, {}, DeliveryFailure.ServerError, false, null],
    [410, {}, DeliveryFailure.Rejected, true, null],
    [400, {}, DeliveryFailure.Rejected, true, null],
  ])('an answer %i is %s (permanent: %s)', async (status, headers, reason, permanent, retryAfterMs) => {
    const { sut } = rig(status, headers);
    await expect(sut.deliver(DELIVERY, EFFECT)).rejects.toEqual(expect.objectContaining({ reason, permanent, httpStatus: status, retryAfterMs }));
  });

  it('a receiver that never answers is a timeout, never its message', async () => {
    const fetchImpl = jest.fn(async () => {
      throw Object.assign(new Error('The operation was aborted due to timeout at https://hooks.example.org'), { name: 'TimeoutError' });
    }) as unknown as typeof fetch;
    const sut = new WebhookDestination({ url: 'https://hooks.example.org/vigil', secret: SECRET, timeoutMs: 10 }, 'https://vigil.example.org/fhir', fetchImpl);
    const failure = await sut.deliver(DELIVERY, EFFECT).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DeliveryError);
    expect(failure).toMatchObject({ reason: DeliveryFailure.Timeout, permanent: false });
    expect((failure as Error).message).not.toContain('hooks.example.org');
  });
});
