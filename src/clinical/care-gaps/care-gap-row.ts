import { gapCitation } from '../derived-citations';
import { CareGapResult } from './care-gap.types';

/**
 * The flat row a caller reads: the patient's status first, then the populations of every group.
 * The measure-results store keeps exactly these fields, so stored and live answers cannot drift.
 */
export function careGapRow(result: CareGapResult<string>) {
  return {
    citation: gapCitation(result.measureId, result.period),
    measureId: result.measureId,
    version: result.version,
    title: result.title,
    periodStart: result.period.start,
    periodEnd: result.period.end,
    status: result.status,
    reasonCode: result.reason.code,
    reason: result.reason.text,
    evidence: result.evidence,
    toClose: result.toClose,
    groups: result.groups.map((group) => ({
      id: group.id,
      populations: group.populations,
      status: group.status,
      reasonCode: group.reason.code,
      reason: group.reason.text,
      evidence: group.evidence,
    })),
    dataQuality: result.dataQuality,
  };
}

/** A stored or live care-gap row, as callers read it. */
export type CareGapRow = ReturnType<typeof careGapRow>;
