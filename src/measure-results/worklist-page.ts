import { PatientRow } from '../cohort/chart.types';
import { isUuid } from '../common/validation/uuid';
import { InvalidResultCursorError } from './result-cursor';
import { WORKLIST_RESULT_FIELDS, WorklistOrder, WorklistSort } from './worklist.sql';

export interface WorklistQuery {
  careTeamId: string;
  period: { start: string; end: string };
  measureId?: string;
  status?: string;
  /** A reason code (`not-numerator:no-screening`) or its class (`not-numerator`). */
  reason?: string;
  sort: WorklistSort;
  order: WorklistOrder;
  cursor?: string;
  /** Patients per page, 1–100. */
  limit: number;
}

/**
 * One patient of a page, as stored (the caller projects it), with the sort keys its cursor carries
 * and the patient's results that match the filters, in measure order.
 */
export type WorklistPatientRow = PatientRow & { key1: string; key2: string | null; results: WorklistResultRow[] };

/** A page row as the statement returns it: each result a tuple of `WORKLIST_RESULT_FIELDS`' values. */
export type WorklistPatientTupleRow = Omit<WorklistPatientRow, 'results'> & { results: unknown[][] };

export type WorklistResultRow = {
  measureId: string;
  status: string;
  reasonCode: string;
  reason: string;
  toClose: string;
  lastEvidenceOn: string | null;
  computedAt: string;
  stale: boolean;
};

/** A result tuple of the page statement as the object it stands for. */
export function worklistResultOf(tuple: readonly unknown[]): WorklistResultRow {
  const result: Record<string, unknown> = {};
  WORKLIST_RESULT_FIELDS.forEach(([field], i) => (result[field] = tuple[i]));
  return result as WorklistResultRow;
}

interface WorklistKeyset {
  sort: WorklistSort;
  order: WorklistOrder;
  key1: string;
  key2: string | null;
  patientId: string;
}

/**
 * The worklist's keyset cursor: its order and the last patient's sort keys and id, base64url JSON.
 * Opaque to callers and not trusted: it must name the same order as the request, and its keys must
 * be of their order's shape before they reach SQL.
 */
export function encodeWorklistCursor(keyset: WorklistKeyset): string {
  return Buffer.from(JSON.stringify([keyset.sort, keyset.order, keyset.key1, keyset.key2, keyset.patientId])).toString('base64url');
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function decodeWorklistCursor(cursor: string, sort: WorklistSort, order: WorklistOrder): WorklistKeyset {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = null;
  }
  if (!Array.isArray(decoded) || decoded.length !== 5) throw new InvalidResultCursorError();
  const [cursorSort, cursorOrder, key1, key2, patientId] = decoded as unknown[];
  const keysFit = sort === 'name' ? typeof key1 === 'string' && typeof key2 === 'string' && key1.length <= 500 && key2.length <= 500 : typeof key1 === 'string' && DAY.test(key1) && key2 === null;
  if (cursorSort !== sort || cursorOrder !== order || !keysFit || !isUuid(patientId)) throw new InvalidResultCursorError();
  return { sort, order, key1: key1 as string, key2: key2 as string | null, patientId };
}
