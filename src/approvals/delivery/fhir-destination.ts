import type { Bundle, BundleEntry, Patient, Reference } from '@medplum/fhirtypes';
import type { DeliveryConfig } from '../../config/app-config';
import { DeliveryFailure } from '../enum';
import { DeliveredEffect } from './delivered-effect';
import { DeliveryError, httpFailure, transportFailure } from './delivery-failure';
import { effectTransaction, RESOURCE_TYPE_OF_KIND } from './fhir-resources';
import { FhirAuthorization } from './fhir-authorization';

type Fetch = typeof fetch;
const FHIR_JSON = 'application/fhir+json';
/** `Type/id` or `…/Type/id/_history/version`, as servers write `Bundle.entry.response.location`. */
const LOCATION = /(?:^|\/)([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/([A-Za-z0-9\-.]{1,64}))?\/?$/;

/** What the server made (or found, on a redelivery): the effect's resource and its Provenance. */
export interface FhirReceipt {
  httpStatus: number;
  resource: { type: string; id: string; version: string | null };
  provenanceId: string | null;
}

/**
 * The organisation's FHIR R4 server as a destination. Each attempt finds the patient's Patient by
 * MRN (`Patient?identifier=<system>|<mrn>`; an MRN Vigil made from a FHIR id, `fhir:<id>`, by
 * `_id`), then posts one transaction: the resource, created only if none carries its identifier,
 * and its Provenance, created only if none targets it. Whatever happened to an earlier attempt
 * (the server committed and the answer was lost), the next one answers the same resource.
 */
export class FhirDestination {
  constructor(
    private readonly config: NonNullable<DeliveryConfig['fhir']>,
    private readonly identifierBase: string,
    private readonly authorization: FhirAuthorization,
    private readonly fetchImpl: Fetch = fetch,
  ) {}

  /**
   * The longest an attempt can take: the token's discovery and request, the search, the
   * transaction, and once a refused token's renewal and the refused request again.
   */
  get attemptBudgetMs(): number {
    return 6 * this.config.timeoutMs;
  }

  async deliver(effect: DeliveredEffect): Promise<FhirReceipt> {
    const attempt: Attempt = { renewed: false };
    const patient = await this.findPatient(effect.mrn, attempt);
    const bundle = effectTransaction(effect, { identifierBase: this.identifierBase, patient });
    const { status, body } = await this.request(attempt, 'POST', this.config.baseUrl, bundle);
    const entries = (body as Bundle | null)?.entry ?? [];
    const resource = created(entries[0], RESOURCE_TYPE_OF_KIND[effect.kind]);
    if (!resource) throw new DeliveryError(DeliveryFailure.InvalidResponse, false, status);
    return { httpStatus: status, resource, provenanceId: created(entries[1], 'Provenance')?.id ?? null };
  }

  private async findPatient(mrn: string, attempt: Attempt): Promise<Reference<Patient>> {
    const sourceId = /^fhir:([A-Za-z0-9\-.]{1,64})$/.exec(mrn)?.[1];
    const query = sourceId ? `_id=${encodeURIComponent(sourceId)}` : `identifier=${encodeURIComponent(`${this.config.patientIdentifierSystem}|${mrn}`)}`;
    const { body } = await this.request(attempt, 'GET', `${this.config.baseUrl}/Patient?${query}&_count=2&_elements=id`);
    const matches = ((body as Bundle | null)?.entry ?? []).filter((entry) => entry.resource?.resourceType === 'Patient' && entry.resource.id);
    if (matches.length === 0) throw new DeliveryError(DeliveryFailure.PatientNotFound, false);
    if (matches.length > 1) throw new DeliveryError(DeliveryFailure.PatientAmbiguous, true);
    return { reference: `Patient/${matches[0].resource?.id}` };
  }

  /**
   * One request. A 401 drops the token it carried whatever the body says (many servers answer it
   * with none, or HTML); with SMART the request is then sent once more with a new token, since the
   * server may have revoked a token that had not yet expired; a second 401 in the attempt fails it.
   * A 401 means nothing was done, so sending the transaction again cannot make it twice.
   */
  private async request(attempt: Attempt, method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const authorization = await this.authorization.header();
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers: {
          accept: FHIR_JSON,
          ...(body === undefined ? {} : { 'content-type': FHIR_JSON }),
          ...(authorization ? { authorization } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.config.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw transportFailure(error);
    }
    if (response.status === 401 && authorization) {
      await response.body?.cancel().catch(() => undefined);
      this.authorization.invalidate(authorization);
      if (this.authorization.renewable && !attempt.renewed) {
        attempt.renewed = true;
        return this.request(attempt, method, url, body);
      }
      throw httpFailure(response.status);
    }
    let answer: unknown;
    try {
      answer = await response.json();
    } catch (error) {
      // The body did not arrive in time (the server may have committed), or is not JSON.
      if (!response.ok) throw httpFailure(response.status, response.headers.get('retry-after'));
      if ((error as { name?: string }).name === 'TimeoutError' || (error as { name?: string }).name === 'AbortError') throw transportFailure(error);
      throw new DeliveryError(DeliveryFailure.InvalidResponse, false, response.status);
    }
    if (!response.ok) throw httpFailure(response.status, response.headers.get('retry-after'));
    return { status: response.status, body: answer };
  }
}

/** What one attempt has used up: the renewal of a refused token happens at most once. */
interface Attempt {
  renewed: boolean;
}

/** The id and version a transaction entry's answer names: its location, else its etag and resource. */
function created(entry: BundleEntry | undefined, type: string): FhirReceipt['resource'] | undefined {
  const status = Number.parseInt(entry?.response?.status ?? '', 10);
  if (!(status >= 200 && status < 300)) return undefined;
  const location = LOCATION.exec(entry?.response?.location ?? '');
  const id = location?.[1] === type ? location[2] : entry?.resource?.resourceType === type ? entry.resource.id : undefined;
  if (!id) return undefined;
  const etag = /^(?:W\/)?"([^"]{1,64})"$/.exec(entry?.response?.etag ?? '')?.[1];
  return { type, id, version: location?.[3] ?? etag ?? entry?.resource?.meta?.versionId ?? null };
}
