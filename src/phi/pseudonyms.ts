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

/** About a megabyte of ids and handles at most. */
const MAX_CACHED_HANDLES = 10_000;

/**
 * Keyed pseudonyms (HMAC-SHA256 under a configured secret) for views that keep database ids out:
 * the same patient gets the same pseudonym in every process and after every restart, and nobody
 * without the key can compute one from an id or link one back. Each kind of pseudonym has its own
 * label in the MAC, so pseudonyms of different kinds never coincide.
 */
@Injectable()
export class PseudonymService {
  private readonly key: Buffer;
  /**
   * Handles already computed, by patient id: an HMAC per read was a measurable share of an agent
   * turn, whose reads all name one patient. Bounded by emptying it when full.
   */
  private readonly handles = new Map<string, string>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = loadPseudonymKey(config);
  }

  /** The patient handle a pseudonymous view shows in place of the patient id. */
  patientHandle(patientId: string): string {
    let handle = this.handles.get(patientId);
    if (handle === undefined) {
      handle = `pt_${createHmac('sha256', this.key).update(`patient-handle\u0000${patientId}`).digest('hex').slice(0, 20)}`;
      if (this.handles.size >= MAX_CACHED_HANDLES) this.handles.clear();
      this.handles.set(patientId, handle);
    }
    return handle;
  }
}
