import { Inject, Injectable } from '@nestjs/common';
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { NodeEnv } from '../config/environment.schema';

/** Decodes a configured key: hex when it is only hex digits (64 or more), else base64 / base64url. */
export function decodeKey(text: string): Buffer {
  const trimmed = text.trim();
  return /^[0-9a-fA-F]{64,}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
}

/**
 * The pseudonym key: PSEUDONYM_KEY, else the key file; outside production a missing file is created
 * (32 random bytes, owner-only) so development needs no setup, and the key survives restarts. In
 * production a missing key stops start-up: a key made up on the spot would silently change every
 * pseudonym at the next restart.
 */
export function loadPseudonymKey(config: Pick<AppConfig, 'env' | 'pseudonyms'>): Buffer {
  const { key, keyFile } = config.pseudonyms;
  if (key) return decodeKey(key);
  if (!existsSync(keyFile)) {
    if (config.env === NodeEnv.Production) {
      throw new Error('PSEUDONYM_KEY (or an existing PSEUDONYM_KEY_FILE) is required in production: pseudonyms must stay stable across restarts');
    }
    mkdirSync(dirname(keyFile), { recursive: true });
    try {
      writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Two processes starting together: the other one wrote it first, and both use that key.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(keyFile, 0o600);
  const loaded = decodeKey(readFileSync(keyFile, 'utf8'));
  if (loaded.length < 32) throw new Error('PSEUDONYM_KEY_FILE: the key must be at least 32 bytes');
  return loaded;
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
