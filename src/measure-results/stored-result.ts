import { hash } from 'node:crypto';
import { CareGapAttestation } from '../cohort/care-gap-attestations';
import { VersionedChart } from '../cohort/cohort.repository';
import { evaluateCareGaps } from '../clinical/care-gaps';
import type { CareGapResult } from '../clinical/care-gaps';
import { Period } from '../clinical/shared/clinical-dates';
import { careGapRow, CareGapRow } from '../clinical/care-gaps/care-gap-row';
import { evidenceDays, latestDay } from './evidence-days';

/** One `measure_results` row as the upsert takes it (snake_case: the JSON is read by `jsonb_to_recordset`). */
export interface ResultRowInput {
  patient_id: string;
  measure_id: string;
  period_start: string;
  period_end: string;
  status: string;
  reason_code: string;
  reason: string;
  populations: CareGapRow['groups'];
  evidence: CareGapRow['evidence'];
  to_close: string;
  data_quality: CareGapRow['dataQuality'];
  partial: boolean;
  data_version: string;
  last_evidence_on: string | null;
  /** The loaded edition (`measure_packages.id`) the result came from; null for a built-in measure. */
  measure_package_id: string | null;
  /** `resultContentHash` of this row, hex. */
  content_hash: string;
}

/** A loaded measure whose logic failed on the patient's record: stored in place of its result (`measure_result_failures`). */
export interface FailureRowInput {
  patient_id: string;
  period_start: string;
  period_end: string;
  measure_id: string;
  measure_package_id: string;
  data_version: string;
  /** The problem's detail: the measure, its edition and the ELM statement, never a patient or a value. */
  detail: string;
}

/**
 * A stored result as readers get it: the live tool's row for the measure (status, reason,
 * populations per group as `groups`, evidence, what would close the gap, data-quality notes), and
 * when and from which data it was computed. `stale`: the patient's data changed after
 * `computedAt` (a recompute is due; the live tool would answer from the newer data).
 */
export interface StoredMeasureResult {
  patientId: string;
  measureId: string;
  periodStart: string;
  periodEnd: string;
  status: CareGapRow['status'];
  reasonCode: string;
  reason: string;
  groups: CareGapRow['groups'];
  evidence: CareGapRow['evidence'];
  toClose: string;
  dataQuality: CareGapRow['dataQuality'];
  /** Approved closures that stand for the period, newest first: beside the status, never part of it (read, not stored). */
  attestations: CareGapAttestation[];
  partial: boolean;
  dataVersion: string;
  runId: string;
  /** The day of the most recent row the result cites (null: none dated). */
  lastEvidenceOn: string | null;
  /** ISO-8601 UTC, milliseconds. */
  computedAt: string;
  stale: boolean;
}

/**
 * SHA-256 of what a result says (its key and content: everything but the run, the time and the data
 * version it was computed from). A recompute that gets the same hash as the stored row's only
 * stamps that row; any difference in any field gives another hash, and a full write.
 */
export function resultContentHash(row: Omit<ResultRowInput, 'content_hash' | 'measure_package_id'>): string {
  const content = [row.patient_id, row.measure_id, row.period_start, row.period_end, row.status, row.reason_code, row.reason,
    row.populations, row.evidence, row.to_close, row.data_quality, row.partial, row.last_evidence_on];
  // One-shot: no Hash object per row (the recompute hashes six or more rows per patient).
  return hash('sha256', JSON.stringify(content), 'hex');
}

/** A loaded measure's result with the edition it came from. */
export interface PublishedResult {
  result: CareGapResult<string>;
  editionId: string;
}

/**
 * Every built-in measure for one patient, evaluated exactly as `care_gap_lookup` evaluates it, and
 * the results of the loaded measures evaluated for the same period (`published`), as rows to store.
 */
export function resultRows(loaded: VersionedChart, period: Period, timeZone: string, published: readonly PublishedResult[] = []): ResultRowInput[] {
  const builtIn = evaluateCareGaps(loaded.chart, { period, timeZone });
  const rows = [...builtIn, ...published.map((entry) => entry.result)].map(careGapRow);
  const editionOf = (index: number) => (index < builtIn.length ? null : published[index - builtIn.length].editionId);
  const days = evidenceDays(loaded.chart, rows.flatMap((row) => row.evidence));
  return rows.map((row, index) => {
    // One object of its final shape, hashed in place: no copy of every row to add its hash (the
    // recompute builds six or more rows per patient).
    const stored: ResultRowInput = {
      patient_id: loaded.chart.patient.id,
      measure_id: row.measureId,
      period_start: row.periodStart,
      period_end: row.periodEnd,
      status: row.status,
      reason_code: row.reasonCode,
      reason: row.reason,
      populations: row.groups,
      evidence: row.evidence,
      to_close: row.toClose,
      data_quality: row.dataQuality,
      partial: loaded.truncated,
      data_version: loaded.dataVersion,
      last_evidence_on: latestDay(days, row.evidence),
      measure_package_id: editionOf(index),
      content_hash: '',
    };
    stored.content_hash = resultContentHash(stored);
    return stored;
  });
}
