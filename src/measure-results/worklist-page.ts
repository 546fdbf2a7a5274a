import { CareGapAttestation } from '../cohort/care-gap-attestations';
import { PatientRow } from '../cohort/chart.types';
import { isCalendarDate } from '../common/validation/fields';
import { isStorableText } from '../common/validation/text';
import { isUuid } from '../common/validation/uuid';
import { WORKLIST_RESULT_FIELDS, WorklistOrder, WorklistSort } from './worklist.sql';

/**
 * Results by their attestations (approved closures that stand for the period): `attested`, any
 * measured status; `attested-open`, still an open gap as measured (attested, not yet closed by evidence).
 */
export const WORKLIST_ATTESTATION_FILTERS = ['attested', 'attested-open'] as const;
export type WorklistAttestationFilter = (typeof WORKLIST_ATTESTATION_FILTERS)[number];

export interface WorklistQuery {
  careTeamId: string;
  period: { start: string; end: string };
  measureId?: string;
  status?: string;
  /** A reason code (`not-numerator:no-screening`) or its class (`not-numerator`). */
  reason?: string;
  attestation?: WorklistAttestationFilter;
  sort: WorklistSort;
  order: WorklistOrder;
  /** Where the previous page ended (its `last`); the first page when absent. */
  after?: WorklistKeyset;
  /** Patients per page, 1–100. */
  limit: number;
}

/**
 * One patient of a page, as stored (the caller projects it), with the sort keys its cursor carries
 * and the patient's results that match the filters, in measure order, each as the statement sends
 * it: a tuple of `WORKLIST_RESULT_FIELDS`' values (`WORKLIST_RESULT_FIELD_NAMES` names them).
 */
export type WorklistPatientRow = PatientRow & { key1: string; key2: string | null; results: WorklistResultTuple[] };

/** A stored result of a page, positional: `WORKLIST_RESULT_FIELD_NAMES[i]` is the name of its value `i`. */
export type WorklistResultTuple = readonly unknown[];

/** What a result tuple holds, by name, in its order (the fields of a `worklist_result` as projected). */
export type WorklistResultRow = {
  measureId: string;
  status: string;
  reasonCode: string;
  reason: string;
  toClose: string;
  lastEvidenceOn: string | null;
  computedAt: string;
  stale: boolean;
  attestations: CareGapAttestation[];
};

/** The names of a result tuple's values, in order: one list with the statement's (`WORKLIST_RESULT_FIELDS`). */
export const WORKLIST_RESULT_FIELD_NAMES: readonly (keyof WorklistResultRow)[] = WORKLIST_RESULT_FIELDS.map(([field]) => field);

/** When result `tuple` was computed (its `computedAt`). */
const COMPUTED_AT = WORKLIST_RESULT_FIELD_NAMES.indexOf('computedAt');
export const computedAtOf = (tuple: WorklistResultTuple): string => tuple[COMPUTED_AT] as string;

/** Where a page ends: the last patient's sort keys (as text) and id. The next page starts after it. */
export interface WorklistKeyset {
  key1: string;
  key2: string | null;
  patientId: string;
}

/** The longest name key a keyset carries (a family or given name). */
const NAME_KEY_MAX = 500;
/** The earliest day Postgres's `date` reads: `0001-01-01` is also the key of a never-dated result. */
const FIRST_DAY = '0001-01-01';

/**
 * A keyset as the page statements bind it, or null when it is not of its order's shape: two
 * storable names for `name`, a day that exists for `age` and `lastResult`, and a UUID. Checked
 * before anything reaches SQL, so a position that does not fit is a refusal, never a failed cast.
 */
export function worklistKeysetOf(value: unknown, sort: WorklistSort): WorklistKeyset | null {
  if (typeof value !== 'object' || value === null) return null;
  const { key1, key2, patientId } = value as Record<string, unknown>;
  const isName = (key: unknown) => typeof key === 'string' && key.length <= NAME_KEY_MAX && isStorableText(key);
  const isDay = (key: unknown) => typeof key === 'string' && isCalendarDate(key) && key >= FIRST_DAY;
  const fits = sort === 'name' ? isName(key1) && isName(key2) : isDay(key1) && key2 === null;
  return fits && isUuid(patientId) ? { key1: key1 as string, key2: key2 as string | null, patientId } : null;
}
