import { FieldProblem } from '../common/http/problem';
import { isSingleLineText } from '../common/validation/text';

export const BREAK_GLASS_HEADER = 'x-break-glass-reason';
export const BREAK_GLASS_REASON_MIN = 10;
export const BREAK_GLASS_REASON_MAX = 500;

/**
 * Why a break-glass header is malformed, or null when it is well-formed, absent or empty (an empty
 * header is no reason at all). A reason must be one line of printable text (a control character, C0,
 * DEL or C1, could forge log lines or hide text from a reviewer) of 10 to 500 characters once
 * trimmed: a longer one is refused whole, never cut to fit, so what the trail keeps is what was given.
 */
export function breakGlassHeaderProblem(header: string | string[] | undefined): FieldProblem | null {
  if (typeof header !== 'string') return null;
  if (!isSingleLineText(header)) {
    return { field: BREAK_GLASS_HEADER, reason: 'isSingleLineText', message: `${BREAK_GLASS_HEADER} must not contain control characters` };
  }
  const length = [...header.trim()].length;
  if (length > 0 && (length < BREAK_GLASS_REASON_MIN || length > BREAK_GLASS_REASON_MAX)) {
    return {
      field: BREAK_GLASS_HEADER,
      reason: 'length',
      message: `${BREAK_GLASS_HEADER} must give a reason of ${BREAK_GLASS_REASON_MIN} to ${BREAK_GLASS_REASON_MAX} characters`,
    };
  }
  return null;
}

/** Whether `reason` is one a caller may break glass with (for access decisions on contexts not built from a header). */
export function isBreakGlassReason(reason: string): boolean {
  return reason.trim() !== '' && breakGlassHeaderProblem(reason) === null;
}

/**
 * The reason as the audit trail keeps it: the header trimmed when it is well-formed, else null (a
 * malformed one is refused with 400 by `RestAccess` and never stored, not even in part).
 */
export function attemptedBreakGlassReason(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string' || breakGlassHeaderProblem(header) !== null) return null;
  return header.trim() || null;
}
