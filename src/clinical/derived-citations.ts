import { Period } from './shared/clinical-dates';

/**
 * Citation ids of the rows the derived tools compute (a measure's result, a data element's status,
 * a risk driver), so that an answer can cite them as it cites a stored row. They are not database
 * ids: they name what was computed and on which day or period, which is what makes the same id mean
 * the same row within one patient's result, and they carry nothing about the patient.
 */
export const gapCitation = (measureId: string, period: Period): string => `gap:${measureId}@${period.start}..${period.end}`;
export const missingDataCitation = (element: string, asOf: string): string => `missing:${element}@${asOf}`;
export const riskDriverCitation = (feature: string, asOf: string): string => `risk:${feature}@${asOf}`;
/** The readmission model's prediction itself (the `feature_attribution` summary), as of a day. */
export const readmissionPredictionCitation = (asOf: string): string => `prediction:readmission-30d@${asOf}`;

/** Every citation id a tool writes in a row's `citation` field: the grammar lives in one place. */
export { ROW_CITATION } from './citation-grammar';
