import { isUuid } from '../common/validation/uuid';

/** A cursor this module did not issue. Surfaces built on the store answer it as a 400 problem. */
export class InvalidResultCursorError extends Error {
  constructor() {
    super('cursor is not a cursor this service issued');
    this.name = 'InvalidResultCursorError';
  }
}

/**
 * The keyset cursor of a care team's results: the last row's `(patientId, measureId)`, base64url
 * JSON. Opaque to callers, not trusted: a decoded cursor must be a UUID and one of `measureIds` (the
 * measures the period has: the built-in ones and the loaded ones it has a care gap for) before
 * either reaches SQL.
 */
export function encodeResultCursor(row: { patientId: string; measureId: string }): string {
  return Buffer.from(JSON.stringify([row.patientId, row.measureId])).toString('base64url');
}

export function decodeResultCursor(cursor: string, measureIds: readonly string[]): { patientId: string; measureId: string } {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = null;
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) throw new InvalidResultCursorError();
  const [patientId, measureId] = decoded as unknown[];
  if (!isUuid(patientId) || typeof measureId !== 'string' || !measureIds.includes(measureId)) throw new InvalidResultCursorError();
  return { patientId, measureId };
}
