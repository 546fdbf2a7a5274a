import { ToolName } from './tool-names';

export type ToolStatus = 'ok' | 'empty' | 'partial';

/** Said on every result, whatever the tool: absence of a record is not evidence of absence. */
export const ABSENCE_ASSUMPTION =
  'No data for an item means it was never recorded here, not that the condition or event is absent.';
export const MEDICATION_ASSUMPTION = 'A medication order is a plan (intent), not a record of doses taken.';

export interface AppliedWindow {
  from: string | null;
  to: string | null;
  asOf: string | null;
  /** In words: what the window covered and how its ends were treated. */
  semantics: string;
}

export interface Truncation {
  limit: number;
  hint: string;
}

/** What a tool computes before projection. */
export interface ToolOutput {
  rows: Record<string, unknown>[];
  window: AppliedWindow;
  truncated: boolean;
  truncation?: Truncation;
  /** Set when the tool read only part of what it needed (e.g. a capped history). */
  partial?: boolean;
  assumptions: string[];
  /** The day ages are computed on (the as-of date, or today). */
  ageOn: string;
  summary?: Record<string, unknown>;
}

/** One result envelope for every tool, REST and agent alike. */
export interface ToolEnvelope {
  tool: ToolName;
  status: ToolStatus;
  patient: Record<string, unknown>;
  window: AppliedWindow;
  rows: Record<string, unknown>[];
  rowCount: number;
  truncated: boolean;
  truncation?: Truncation;
  /** Fields this role may not see, by name (`patient.mrn`, `notes.text`), never silently dropped. */
  redactedFields: string[];
  assumptions: string[];
  /** True when the caller read this patient through emergency access; the read is audited as such. */
  breakGlass: boolean;
  summary?: Record<string, unknown>;
}

export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Inclusive calendar days [from, to] as the half-open instant window [from 00:00Z, to+1 00:00Z). */
export function toInstantWindow(from?: string, to?: string): { from: Date | null; to: Date | null } {
  const start = from ? new Date(`${from}T00:00:00Z`) : null;
  const end = to ? new Date(`${to}T00:00:00Z`) : null;
  if (end) end.setUTCDate(end.getUTCDate() + 1);
  return { from: start, to: end };
}

export function describeWindow(from: string | undefined, to: string | undefined, what: string): AppliedWindow {
  const semantics =
    !from && !to
      ? `No window given: the whole record of ${what}.`
      : `${what} from ${from ?? 'the beginning of the record'} to ${to ?? 'the latest record'}, both days inclusive (UTC).`;
  return { from: from ?? null, to: to ?? null, asOf: null, semantics };
}
