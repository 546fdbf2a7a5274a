export { evaluateCareGaps } from './evaluate-care-gaps';
export type { CareGapOptions } from './evaluate-care-gaps';
export { MEASURES } from './measure-catalogue';
export { gapUnevaluableReason, publishedCareGap } from './published-measure';
export type { PublishedGroup, PublishedInput, PublishedMeasure } from './published-measure';
export { isBuiltInMeasureName, MEASURE_ALIASES, MEASURE_IDS, MEASURE_NAMES, POPULATION_CODE, POPULATIONS, resolveMeasureId } from './care-gap.types';
export type {
  CareGapReason,
  CareGapResult,
  CareGapStatus,
  DataQualityNote,
  GroupResult,
  MeasureDefinition,
  MeasureId,
  PopulationName,
  Populations,
} from './care-gap.types';
