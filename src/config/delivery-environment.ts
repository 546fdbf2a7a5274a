import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import type { DeliveryConfig } from './app-config';
import { emptyToUndefined, toInt } from './transforms';

const HTTP_URL = /^https?:\/\/\S+$/;
const HTTP_URL_MESSAGE = { message: 'must be an http(s) URL' };
/** A Standard Webhooks secret: `whsec_` and the base64 of 24 to 64 random bytes. */
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

/**
 * Where approved effects are delivered, and how hard Vigil tries: the organisation's FHIR server,
 * a signed webhook, or both (docs/delivery.md). Part of the one schema (`QueueEnvironmentVariables`
 * extends this); `deliveryConfig` reads it. Nothing is delivered while neither is configured.
 */
export class DeliveryEnvironmentVariables {
  /**
   * The base of Vigil's identifier systems, a URL the organisation controls: delivered effects carry
   * `<base>/proposal` with the proposal id and approved version as the value, cited rows
   * `<base>/citation`, staff without an NPI `<base>/staff`. Required with either destination.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(HTTP_URL, { message: 'must be an http(s) URL (the base of Vigil\'s identifier systems)' })
  DELIVERY_IDENTIFIER_SYSTEM?: string;

  /** Attempts per destination before a delivery is dead-lettered (`failed`; `deliveries-retry` starts it again). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  DELIVERY_MAX_ATTEMPTS = 8;

  /** The first retry's delay; each next one doubles, up to DELIVERY_BACKOFF_MAX_MS, with full jitter. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(3_600_000)
  DELIVERY_BACKOFF_BASE_MS = 5000;

  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(86_400_000)
  DELIVERY_BACKOFF_MAX_MS = 3_600_000;

  /**
   * Readiness reports `degraded` once an open delivery has waited longer than this. The default is
   * above what the default eight attempts take at worst (their backoff and timeouts, about a quarter
   * of an hour), so it is reached by a delivery nobody attempts (no worker running), not by retries.
   */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(30 * 86_400)
  DELIVERY_BACKLOG_MAX_AGE_SECONDS = 1800;

  /** The organisation's FHIR R4 server (its base URL); unset: effects are not delivered as FHIR. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(HTTP_URL, HTTP_URL_MESSAGE)
  FHIR_BASE_URL?: string;

  /** The system of the patients' MRNs on that server, searched to find the Patient a resource is about. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  FHIR_PATIENT_IDENTIFIER_SYSTEM?: string;

  /** A static bearer token for the FHIR server (instead of SMART Backend Services). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[\x21-\x7e]{8,4096}$/, { message: 'must be 8-4096 printable characters without spaces' })
  FHIR_BEARER_TOKEN?: string;

  /** SMART Backend Services: Vigil's client id at the FHIR server's authorization server. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  FHIR_CLIENT_ID?: string;

  /** SMART Backend Services: the private key (PKCS#8 PEM, or a private JWK as JSON) that signs the client assertion. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  FHIR_PRIVATE_KEY_FILE?: string;

  /** The `kid` of that key in the JWKS registered with the authorization server. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  FHIR_PRIVATE_KEY_ID?: string;

  /** The token endpoint; unset: read from `<FHIR_BASE_URL>/.well-known/smart-configuration`. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(HTTP_URL, HTTP_URL_MESSAGE)
  FHIR_TOKEN_URL?: string;

  /** The scopes asked for: creating (and searching, for the conditional create) the resources Vigil writes, and reading Patients. */
  @Matches(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, { message: 'must be space-separated scopes' })
  FHIR_SCOPES = 'system/ServiceRequest.crs system/CommunicationRequest.crs system/DocumentReference.crs system/MeasureReport.crs system/Provenance.crs system/Patient.rs';

  /** Longest one request to the FHIR server (or its token endpoint) may take. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  FHIR_TIMEOUT_MS = 10_000;

  /** Where effects are posted as signed JSON events (Standard Webhooks); unset: no webhook. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(HTTP_URL, HTTP_URL_MESSAGE)
  WEBHOOK_URL?: string;

  /** The signing secret, as Standard Webhooks writes it: `whsec_` and base64 (required with WEBHOOK_URL). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(WEBHOOK_SECRET, { message: 'must be whsec_ followed by the base64 of 24-64 random bytes' })
  WEBHOOK_SECRET?: string;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  WEBHOOK_TIMEOUT_MS = 10_000;
}

/** The delivery settings, with every problem found (pushed onto `problems`, never naming a value). */
export function deliveryConfig(vars: DeliveryEnvironmentVariables, production: boolean, problems: string[]): DeliveryConfig {
  const fhir = vars.FHIR_BASE_URL;
  const webhook = vars.WEBHOOK_URL;
  if ((fhir || webhook) && !vars.DELIVERY_IDENTIFIER_SYSTEM) problems.push('DELIVERY_IDENTIFIER_SYSTEM: required when FHIR_BASE_URL or WEBHOOK_URL is set');
  if (vars.DELIVERY_BACKOFF_MAX_MS < vars.DELIVERY_BACKOFF_BASE_MS) problems.push('DELIVERY_BACKOFF_MAX_MS: must be at least DELIVERY_BACKOFF_BASE_MS');
  if (fhir && !vars.FHIR_PATIENT_IDENTIFIER_SYSTEM) problems.push('FHIR_PATIENT_IDENTIFIER_SYSTEM: required with FHIR_BASE_URL (the Patient is found by MRN on the server)');
  const smart = Boolean(vars.FHIR_CLIENT_ID || vars.FHIR_PRIVATE_KEY_FILE);
  if (smart && !(vars.FHIR_CLIENT_ID && vars.FHIR_PRIVATE_KEY_FILE)) problems.push('FHIR_CLIENT_ID: SMART Backend Services needs both FHIR_CLIENT_ID and FHIR_PRIVATE_KEY_FILE');
  if (smart && vars.FHIR_BEARER_TOKEN) problems.push('FHIR_BEARER_TOKEN: give a static token or SMART Backend Services (FHIR_CLIENT_ID), not both');
  if (webhook && !vars.WEBHOOK_SECRET) problems.push('WEBHOOK_SECRET: required with WEBHOOK_URL (every event is signed)');
  if (production) {
    for (const [name, url] of [['FHIR_BASE_URL', fhir], ['FHIR_TOKEN_URL', vars.FHIR_TOKEN_URL], ['WEBHOOK_URL', webhook]] as const) {
      if (url && !url.startsWith('https://')) problems.push(`${name}: must be an https URL in production (effects carry PHI)`);
    }
  }
  const auth: NonNullable<DeliveryConfig['fhir']>['auth'] = smart
    ? { kind: 'smart', clientId: vars.FHIR_CLIENT_ID ?? '', privateKeyFile: vars.FHIR_PRIVATE_KEY_FILE ?? '', keyId: vars.FHIR_PRIVATE_KEY_ID, tokenUrl: vars.FHIR_TOKEN_URL, scopes: vars.FHIR_SCOPES }
    : vars.FHIR_BEARER_TOKEN
      ? { kind: 'bearer', token: vars.FHIR_BEARER_TOKEN }
      : { kind: 'none' };
  return {
    identifierSystem: vars.DELIVERY_IDENTIFIER_SYSTEM ?? '',
    maxAttempts: vars.DELIVERY_MAX_ATTEMPTS,
    backoff: { baseMs: vars.DELIVERY_BACKOFF_BASE_MS, maxMs: vars.DELIVERY_BACKOFF_MAX_MS },
    backlogMaxAgeSeconds: vars.DELIVERY_BACKLOG_MAX_AGE_SECONDS,
    fhir: fhir
      ? { baseUrl: fhir.replace(/\/+$/, ''), patientIdentifierSystem: vars.FHIR_PATIENT_IDENTIFIER_SYSTEM ?? '', timeoutMs: vars.FHIR_TIMEOUT_MS, auth }
      : undefined,
    webhook: webhook ? { url: webhook, secret: vars.WEBHOOK_SECRET ?? '', timeoutMs: vars.WEBHOOK_TIMEOUT_MS } : undefined,
  };
}
