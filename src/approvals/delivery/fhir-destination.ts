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

  /** The longest an attempt can take: the token's discovery and request, the search, the transaction. */
  get attemptBudgetMs(): number {
    return 4 * this.config.timeoutMs;
  }

  async deliver(effect: DeliveredEffect): Promise<FhirReceipt> {
    const patient = await this.findPatient(effect.mrn);
    const bundle = effectTransaction(effect, { identifierBase: this.identifierBase, patient });
    const { status, body } = await this.request('POST', this.config.baseUrl, bundle);
    const entries = (body as Bundle | null)?.entry ?? [];
    const resource = created(entries[0], RESOURCE_TYPE_OF_KIND[effect.kind]);
    if (!resource) throw new DeliveryError(DeliveryFailure.InvalidResponse, false, status);
    return { httpStatus: status, resource, provenanceId: created(entries[1], 'Provenance')?.id ?? null };
  }

  private async findPatient(mrn: string): Promise<Reference<Patient>> {
    const sourceId = /^fhir:([A-Za-z0-9\-.]{1,64})$/.exec(mrn)?.[1];
    const query = sourceId ? `_id=${encodeURIComponent(sourceId)}` : `identifier=${encodeURIComponent(`${this.config.patientIdentifierSystem}|${mrn}`)}`;
    const { body } = await this.request('GET', `${this.config.baseUrl}/Patient?${query}&_count=2&_elements=id`);
    const matches = ((body as Bundle | null)?.entry ?? []).filter((entry) => entry.resource?.resourceType === 'Patient' && entry.resource.id);
    if (matches.length === 0) throw new DeliveryError(DeliveryFailure.PatientNotFound, false);
    if (matches.length > 1) throw new DeliveryError(DeliveryFailure.PatientAmbiguous, true);
    return { reference: `Patient/${matches[0].resource?.id}` };
  }

  private async request(method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; body: unknown }> {
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
    let answer: unknown;
    try {
      answer = await response.json();
    } catch (error) {
      // The body did not arrive in time (the server may have committed), or is not JSON.
      if (!response.ok) throw httpFailure(response.status, response.headers.get('retry-after'));
      if ((error as { name?: string }).name === 'TimeoutError' || (error as { name?: string }).name === 'AbortError') throw transportFailure(error);
      throw new DeliveryError(DeliveryFailure.InvalidResponse, false, response.status);
    }
    if (response.status === 401) this.authorization.invalidate();
    if (!response.ok) throw httpFailure(response.status, response.headers.get('retry-after'));
    return { status: response.status, body: answer };
  }
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
