import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { ProblemException } from '../common/http/problem';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { loadPseudonymKey } from './pseudonyms';

/** How long a cursor pages on after it was issued: long enough to read a list, short enough that an old URL is dead. */
export const CURSOR_LIFETIME_MS = 60 * 60 * 1000;

/** What a cursor is bound to: it opens only for the same list, the same caller and the same query. */
export interface CursorBinding {
  /** The list, e.g. `worklist`: a cursor of one list is never a cursor of another. */
  list: string;
  /** The staff user it was issued to. */
  userId: string;
  /** Everything that decides the list's rows and order (filters, sort); a key that is `undefined` or `null` is as if absent. */
  query: Record<string, string | null | undefined>;
}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** What a sealed cursor looks like from outside (unpadded base64url): the pattern a list's query DTO declares for its `cursor`. */
export const SEALED_CURSOR = BASE64URL;

/**
 * The answer to a cursor that does not open (forged, altered, expired, another user's, another
 * list's or another query's), the same for every list: a 400 naming the field. `boundTo` says what
 * this list's cursors are bound to, e.g. `this list, filters and sort`.
 */
export const invalidCursor = (boundTo: string) =>
  new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', `The cursor was not issued to you for ${boundTo}, or it has expired: start from the first page.`, [
    { field: 'cursor', reason: 'invalid_cursor', message: 'cursor is not a cursor of this list' },
  ]);

/**
 * The cursor key: HKDF-SHA256 of the service's pseudonym secret with a label of its own, so the
 * secret itself never encrypts anything and no cursor can be turned into a pseudonym or back.
 * Every process of a deployment shares the secret, so a cursor issued by one opens in another and
 * after a restart.
 */
export function cursorKeyOf(secret: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'vigil cursor key v1', 32));
}

/** The binding as the additional authenticated data: a hash of list, user and the query in key order. */
function boundTo(binding: CursorBinding): Buffer {
  const query = Object.keys(binding.query).sort().flatMap((key) => (binding.query[key] === null || binding.query[key] === undefined ? [] : [[key, binding.query[key]]]));
  return createHash('sha256').update(JSON.stringify([binding.list, binding.userId, query])).digest();
}

/**
 * Keyset cursors that say nothing and cannot be forged. A position in a list holds identifiers (the
 * last patient's name, their birth date), so it leaves the service only sealed: AES-256-GCM under
 * the cursor key (`cursorKeyOf`), with its expiry inside and its binding (`CursorBinding`) as
 * authenticated data. `open` gives back the position only for a cursor this service sealed for the
 * same binding, unaltered and unexpired; anything else is `null`, whatever was sent. Callers still
 * check the position's shape before it reaches SQL.
 */
@Injectable()
export class CursorSealer {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = cursorKeyOf(loadPseudonymKey(config));
  }

  seal(binding: CursorBinding, position: unknown): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(boundTo(binding));
    const plaintext = Buffer.from(JSON.stringify([Date.now() + CURSOR_LIFETIME_MS, position]), 'utf8');
    const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([Buffer.of(VERSION), iv, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  open(binding: CursorBinding, cursor: string): unknown {
    if (!BASE64URL.test(cursor)) return null;
    const bytes = Buffer.from(cursor, 'base64url');
    if (bytes.length < 1 + IV_BYTES + TAG_BYTES + 1 || bytes[0] !== VERSION || bytes.toString('base64url') !== cursor) return null;
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(1, 1 + IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(boundTo(binding));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    let opened: unknown;
    try {
      opened = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8'));
    } catch {
      // The tag did not verify: altered, truncated, another key, or bound to something else.
      return null;
    }
    if (!Array.isArray(opened) || opened.length !== 2 || typeof opened[0] !== 'number' || opened[0] < Date.now()) return null;
    return opened[1] as unknown;
  }
}
