import { createHmac } from 'node:crypto';
import type { DeliveryConfig } from '../../config/app-config';
import { closureMeasureCanonical, DeliveredEffect, effectIdentifierValue, identifierSystems } from './delivered-effect';
import { httpFailure, transportFailure } from './delivery-failure';

type Fetch = typeof fetch;

/** The event type of an applied effect, the same for every kind (`data.kind` says which). */
export const EFFECT_EVENT_TYPE = 'proposal.effect.applied';

/** A webhook's `webhook-id`: the delivery's own id, the same on every attempt, so a receiver drops a repeat. */
export const webhookMessageId = (deliveryId: string) => `msg_${deliveryId}`;

/**
 * The event body: Standard Webhooks' envelope (`type`, `timestamp`, `data`) around the effect as
 * approved and executed. Built from the stored rows, so every attempt sends the same bytes.
 */
export function webhookBody(effect: DeliveredEffect, identifierBase: string): string {
  const person = (p: DeliveredEffect['proposer']) => ({ staffId: p.staffId, name: p.name, role: p.role, npi: p.npi, fhirPractitionerId: p.fhirPractitionerId });
  return JSON.stringify({
    type: EFFECT_EVENT_TYPE,
    timestamp: effect.executedAt,
    data: {
      identifier: { system: identifierSystems(identifierBase).proposal, value: effectIdentifierValue(effect) },
      proposalId: effect.proposalId,
      version: effect.version,
      contentHash: effect.contentHash,
      kind: effect.kind,
      content: effect.content,
      rationale: effect.rationale,
      citations: effect.citations,
      executedAt: effect.executedAt,
      measurementPeriod: effect.measurementPeriod ?? null,
      measure: closureMeasureCanonical(effect),
      patient: { id: effect.patientId, mrn: effect.mrn },
      proposer: person(effect.proposer),
      approvers: effect.approvers.map((approver) => ({ ...person(approver), approvedAt: approver.approvedAt })),
    },
  });
}

/**
 * `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` under the secret's bytes (the base64 after
 * `whsec_`): the Standard Webhooks signature, which its reference libraries verify.
 */
export function webhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/**
 * A receiver's URL as a destination: one signed POST per attempt. Any 2xx is delivery; 408, 429 and
 * 5xx are retried (honouring `Retry-After`); another 4xx, a receiver that refuses the event itself
 * (410 Gone included, which the specification uses to say "stop sending"), is dead-lettered.
 */
export class WebhookDestination {
  constructor(
    private readonly config: NonNullable<DeliveryConfig['webhook']>,
    private readonly identifierBase: string,
    private readonly fetchImpl: Fetch = fetch,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  get attemptBudgetMs(): number {
    return this.config.timeoutMs;
  }

  async deliver(deliveryId: string, effect: DeliveredEffect): Promise<{ httpStatus: number; messageId: string }> {
    const id = webhookMessageId(deliveryId);
    const body = webhookBody(effect, this.identifierBase);
    const timestamp = this.nowSeconds();
    let response: Response;
    try {
      response = await this.fetchImpl(this.config.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': webhookSignature(this.config.secret, id, timestamp, body),
        },
        body,
        signal: AbortSignal.timeout(this.config.timeoutMs),
        redirect: 'error',
      });
      // Read (and drop) the answer within the same timeout: the receiver's body is not Vigil's to keep.
      await response.arrayBuffer();
    } catch (error) {
      throw transportFailure(error);
    }
    if (!response.ok) throw httpFailure(response.status, response.headers.get('retry-after'));
    return { httpStatus: response.status, messageId: id };
  }
}
