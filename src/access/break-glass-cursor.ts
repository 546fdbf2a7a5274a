import { CursorBinding, CursorSealer, invalidCursor } from '../phi/sealed-cursor';

/** An audit event id as the report pages by it: a positive bigint in plain decimal digits. */
const EVENT_ID = /^[1-9][0-9]{0,17}$/;

/**
 * A break-glass report cursor opens only for the privacy officer it was issued to: the report has no
 * filter or sort, and the page size may change between pages.
 */
export function breakGlassReportBinding(userId: string): CursorBinding {
  return { list: 'break-glass-report', userId, query: {} };
}

/** The next page's cursor: the last event's id, sealed for `binding` (`CursorSealer`). */
export function sealCursor(sealer: CursorSealer, binding: CursorBinding, eventId: string): string {
  return sealer.seal(binding, eventId);
}

/**
 * The event id a cursor holds, if this service sealed it for `binding`; otherwise a 400 naming the
 * cursor. Even an opened id must be plain digits within a bigint before it reaches SQL.
 */
export function openCursor(sealer: CursorSealer, binding: CursorBinding, cursor: string): string {
  const position = sealer.open(binding, cursor);
  if (typeof position !== 'string' || !EVENT_ID.test(position)) throw invalidCursor('this list');
  return position;
}
