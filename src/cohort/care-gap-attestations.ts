/**
 * Attestations: approved `close_care_gap` proposals as their executed effect recorded them
 * (`care_gap_closures`), read back beside a measure's measured status. An attestation is a person's
 * statement that a gap is closed, approved by a reviewer; it never changes the measured status,
 * which the measure computes from the record alone.
 *
 * The rules live here once, as SQL fragments, so the live tool (`attestationRowsJson` below), the
 * stored results and the worklist (the measure-results module's statements) read the same thing:
 *
 * - **Which period.** A closure is recorded for the measurement period the executor found the gap
 *   open in: the trailing year ending on the day it was recorded (`period_start`..`period_end`). It
 *   stands for every measurement period that contains that day: in the default trailing-year view
 *   for the twelve months after it was made, for an explicit period (a calendar year) only if it
 *   was made in it. A period that starts after that day does not carry it over: if the gap is open
 *   again, a new closure is filed for the new period.
 * - **Evidence closes the gap later.** The measured status then says `closed-gap`, and the
 *   attestation is still shown beside it, as history.
 * - **Who.** The person who filed the closure and the role they filed it in (`proposals.proposer_*`;
 *   their display name, as colleagues name each other), when it was recorded, the remark code and
 *   the cited evidence as citation ids. Which of these leave is the projection's business, per role.
 */

/** An attestation as the reads return it (before the caller's projection). */
export interface CareGapAttestation {
  /** The proposal whose approved closure this is. */
  proposalId: string;
  /** When the approved closure was recorded (ISO-8601 UTC). */
  attestedAt: string;
  /** The display name of the person who filed it (null once their account is gone). */
  attestedBy: string | null;
  /** The role they filed it in. */
  attestedByRole: string;
  /** The measurement period it was recorded for. */
  periodStart: string;
  periodEnd: string;
  remarkCode: string | null;
  /** The cited evidence, as citation ids (`obs:<uuid>`, `gap:CMS122@…`). */
  evidence: string[];
}

/** The closure `c` stands for the measurement period `start`..`end` (SQL date expressions): it was made in it. */
export const attestationApplies = (c: string, start: string, end: string): string => `${c}.period_end BETWEEN ${start} AND ${end}`;

/** Closures `c`, with who filed them (`a`) and their name (`s`). */
const SOURCE = `care_gap_closures c JOIN proposals a ON a.id = c.proposal_id LEFT JOIN staff_users s ON s.id = a.proposer_id`;

/** One attestation as a JSON object, in `CareGapAttestation`'s fields. */
const ATTESTATION_OBJECT = `json_build_object('proposalId', c.proposal_id::text,
    'attestedAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'attestedBy', s.display_name, 'attestedByRole', a.proposer_role,
    'periodStart', to_char(c.period_start, 'YYYY-MM-DD'), 'periodEnd', to_char(c.period_end, 'YYYY-MM-DD'),
    'remarkCode', c.remark_code, 'evidence', to_json(c.evidence))`;

/** Newest first. */
const ORDER = 'c.created_at DESC, c.id';

/**
 * The attestations of patient `patient` and measure `measure` that stand for the period
 * `start`..`end`, as one JSON array, newest first (`[]` when none): a column of a stored result.
 * Most results have none, so the closures' index (patient, measure) is probed first and the join
 * that names who filed them runs only for a result that has one: it is a subquery per result (150
 * on a worklist page), and with few or no closures the planner ran that join for every result
 * anyway, scanning the staff for each (a page of 25 at 100,000 patients: execution 1.5–2.0 ms with
 * the join for every result, 0.9–1.0 ms probed first, medians of 30, alternated).
 */
export const attestationsJson = (patient: string, measure: string, start: string, end: string): string => {
  const applies = `c.patient_id = ${patient} AND c.measure_id = ${measure} AND ${attestationApplies('c', start, end)}`;
  return `CASE WHEN EXISTS (SELECT 1 FROM care_gap_closures c WHERE ${applies})
    THEN (SELECT coalesce(json_agg(${ATTESTATION_OBJECT} ORDER BY ${ORDER}), '[]'::json) FROM ${SOURCE} WHERE ${applies})
    ELSE '[]'::json END`;
};

/**
 * The (patient, measure) pairs with an attestation that stands for the period `start`..`end` (a
 * worklist filter: `(r.patient_id, r.measure_id) IN (…)`). Not correlated with the row it checks, so
 * inside an OR the planner reads it once into a hash (a "hashed SubPlan") instead of probing the
 * closures for every result a page passes over.
 */
export const attestedPairs = (start: string, end: string): string =>
  `SELECT c.patient_id, c.measure_id FROM care_gap_closures c WHERE ${attestationApplies('c', start, end)}`;

/**
 * Patient `patient`'s attestations that stand for the period `start`..`end`, each with its measure,
 * by measure and newest first, as one JSON array of `{ measureId, attestation }`: a column of the
 * chart read `care_gap_lookup` makes (`gatedChartWithAttestations`), so they cost no round trip of their own.
 */
export const attestationRowsJson = (patient: string, start: string, end: string): string =>
  `(SELECT coalesce(json_agg(json_build_object('measureId', c.measure_id, 'attestation', ${ATTESTATION_OBJECT}) ORDER BY c.measure_id, ${ORDER}), '[]'::json)
    FROM ${SOURCE} WHERE c.patient_id = ${patient} AND ${attestationApplies('c', start, end)})`;

/** The attestations of each measure, from `attestationRowsJson`'s array. */
export function attestationsByMeasure(rows: { measureId: string; attestation: CareGapAttestation }[]): Map<string, CareGapAttestation[]> {
  const byMeasure = new Map<string, CareGapAttestation[]>();
  for (const { measureId, attestation } of rows) byMeasure.set(measureId, [...(byMeasure.get(measureId) ?? []), attestation]);
  return byMeasure;
}
