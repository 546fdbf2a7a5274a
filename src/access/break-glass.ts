import { isSingleLineText } from '../common/validation/text';

export const BREAK_GLASS_HEADER = 'x-break-glass-reason';

// Printable text only: a control character (C0, DEL or C1) could forge log lines or hide text from a reviewer.
// eslint-disable-next-line no-control-regex
export const BREAK_GLASS_REASON = /^[^\u0000-\u001f\u007f-\u009f]{10,500}$/u;

/**
 * The reason as the audit trail keeps it when the caller sent one: trimmed, cut to the longest
 * accepted length, NUL removed (the trail cannot store it). An empty header is no reason at all.
 */
export function attemptedBreakGlassReason(header: string | string[] | undefined): string | null {
  // A reason holding control characters is malformed input (refused with 400 by `RestAccess`) and is never stored.
  if (typeof header !== 'string' || !isSingleLineText(header)) return null;
  // eslint-disable-next-line no-control-regex
  const reason = header.replace(/\u0000/g, '').trim().slice(0, 500);
  return reason || null;
}
