import { Inject, Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { loadSecretKey } from '../config/secret-key';

/**
 * The pseudonym key: PSEUDONYM_KEY, else the key file (created on first use outside production; see
 * `loadSecretKey`). Production refuses to invent one: it would silently change every pseudonym.
 */
export function loadPseudonymKey(config: Pick<AppConfig, 'env' | 'pseudonyms'>): Buffer {
  return loadSecretKey({
    env: config.env,
    ...config.pseudonyms,
    name: 'PSEUDONYM_KEY',
    whyRequired: 'pseudonyms must stay stable across restarts',
  });
}

/**
 * Keyed pseudonyms (HMAC-SHA256 under a configured secret) for views that keep database ids out:
 * the same patient gets the same pseudonym in every process and after every restart, and nobody
 * without the key can compute one from an id or link one back. Each kind of pseudonym has its own
 * label in the MAC, so pseudonyms of different kinds never coincide.
 */
@Injectable()
export class PseudonymService {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = loadPseudonymKey(config);
  }

  /** The patient handle a pseudonymous view shows in place of the patient id. */
  patientHandle(patientId: string): string {
    return `pt_${createHmac('sha256', this.key).update(`patient-handle\u0000${patientId}`).digest('hex').slice(0, 20)}`;
  }
}
