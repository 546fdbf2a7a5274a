export { evaluateCareGaps } from './evaluate-care-gaps';
export { MEASURES } from './measure-catalogue';
export { MEASURE_IDS } from './care-gap.types';
export type {
  CareGapReason,
  CareGapReasonCode,
  CareGapResult,
  CareGapStatus,
  MeasureDefinition,
  MeasureId,
} from './care-gap.types';
export * as CARE_GAP_VALUE_SETS from './value-sets';
