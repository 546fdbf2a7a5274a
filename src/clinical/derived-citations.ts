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

const DAY = '\\d{4}-\\d{2}-\\d{2}';
/** Every citation id a tool writes in a row's `citation` field: stored rows (`obs:<uuid>`) and derived ones. */
export const ROW_CITATION = new RegExp(
  '^(?:(?:pat|enc|obs|cond|med|proc|note|allergy):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}' +
    `|gap:[A-Z0-9]{2,12}@${DAY}\\.\\.${DAY}|missing:[a-z0-9-]{1,32}@${DAY}|risk:[a-z0-9_]{1,40}@${DAY}|prediction:[a-z0-9-]{1,40}@${DAY})$`,
);
