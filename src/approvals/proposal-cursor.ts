import { isUuid } from '../common/validation/uuid';
import { invalidProposal } from './proposal.problems';

/**
 * The review queue's keyset cursor: the last row's `(createdAt, id)`, base64url JSON. It is opaque
 * to callers but not trusted: a decoded cursor must be exactly what `encodeCursor` writes (a real
 * UTC timestamp with microseconds, a UUID) before Postgres casts it, so a forged time such as `1` or
 * `2021-02-30` or an id of 36 dashes is a 400, never a failed cast.
 */
export function encodeCursor(row: { createdAt: string; id: string }): string {
  return Buffer.from(JSON.stringify([row.createdAt, row.id])).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = null;
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) throw notACursor();
  const [createdAt, id] = decoded as unknown[];
  if (!isCursorTimestamp(createdAt) || !isUuid(id)) throw notACursor();
  return { createdAt, id };
}

const CURSOR_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{6}Z$/;

function isCursorTimestamp(value: unknown): value is string {
  const match = typeof value === 'string' ? CURSOR_TIMESTAMP.exec(value) : null;
  if (!match) return false;
  const day = new Date(`${match[1]}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(match[1]);
}

function notACursor() {
  return invalidProposal('cursor', 'isCursor', 'cursor is not a cursor this service issued.');
}
