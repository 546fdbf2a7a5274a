import { isUuid } from '../common/validation/uuid';
import { CursorBinding, CursorSealer, invalidCursor } from '../phi/sealed-cursor';
import { ListProposalsQueryDto } from './dto/proposal-requests.dto';

/** Where a page of the review queue stops: the last row's keyset. */
export interface QueuePosition {
  createdAt: string;
  id: string;
}

/**
 * A review-queue cursor opens only for the caller it was issued to and the same filters and sort
 * (the page size may change between pages, as on the worklist). Ids are compared as Postgres
 * compares uuids, whatever their case; an omitted sort is the default one.
 */
export function reviewQueueBinding(userId: string, query: ListProposalsQueryDto): CursorBinding {
  return {
    list: 'review-queue',
    userId,
    query: {
      status: query.status, kind: query.kind, patientId: query.patientId?.toLowerCase(), proposerId: query.proposerId?.toLowerCase(),
      careTeam: query.careTeam, minWaitingHours: query.minWaitingHours === undefined ? undefined : String(query.minWaitingHours), sort: query.sort ?? 'newest',
    },
  };
}

/** The next page's cursor: the last row's `(createdAt, id)`, sealed for `binding` (`CursorSealer`). */
export function sealCursor(sealer: CursorSealer, binding: CursorBinding, row: QueuePosition): string {
  return sealer.seal(binding, [row.createdAt, row.id]);
}

/**
 * The position a cursor holds, if this service sealed it for `binding`; otherwise a 400 naming the
 * cursor. Even an opened position must be exactly what `sealCursor` writes (a real UTC timestamp
 * with microseconds, a UUID) before Postgres casts it, so whatever it holds is a 400, never a
 * failed cast.
 */
export function openCursor(sealer: CursorSealer, binding: CursorBinding, cursor: string): QueuePosition {
  const position = sealer.open(binding, cursor);
  if (!Array.isArray(position) || position.length !== 2) throw notACursor();
  const [createdAt, id] = position as unknown[];
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

const notACursor = () => invalidCursor('this list, filters and sort');
