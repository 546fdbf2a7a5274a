import { citationId, EncounterRow, ObservationRow, PatientChart } from '../../cohort/chart.types';
import { CodeSystem, EncounterClass, EncounterStatus } from '../../cohort/enum';
import { inValueSet as inVsacValueSet, VS } from '../../terminology';
import { isResult, numericValue } from '../shared/chart-rows';
import { addMonths, ageOn, dayOf, daysBetween, latest } from '../shared/clinical-dates';
import { charlsonIndex } from './charlson';
import { IndexAdmission } from './index-admission';
import { ReadmissionFeature } from './readmission.types';

/** One model input as found in the chart; `value: null` means not recorded (the model imputes its baseline). */
export interface FeatureValue {
  value: number | null;
  evidence: string[];
}

/** SNOMED CT "Emergency hospital admission": an admission typed as emergency is acute without a separate ED row. */
const EMERGENCY_ADMISSION_TYPES = new Set(['183452005']);
/** How long before the admission an ED visit can end and still be the door it came through. */
const ED_TO_ADMISSION_MS = 24 * 3_600_000;
/** Dispositions to post-acute care (LACE-style models treat them as higher risk than plain "home"). */
const TO_CARE = /skilled|nursing|rehab|home health|hospice|long[- ]term|facility|transfer/i;
const TO_HOME = /\bhome\b|self[- ]care/i;

const at = (timestamp: string) => Date.parse(timestamp);
const cite = (row: EncounterRow) => citationId('enc', row.id);

/**
 * The model inputs for one index admission, each with the rows it came from. Every look-back is
 * anchored at the index admission, never at the as-of day: the model describes the discharge.
 */
export function readmissionFeatures(chart: PatientChart, index: IndexAdmission): Record<ReadmissionFeature, FeatureValue> {
  const start = at(index.startAt);
  const finished = chart.encounters.filter((row) => row.status === EncounterStatus.Finished && row.id !== index.id);
  const edVisits = finished.filter(
    (row) => row.class === EncounterClass.Emergency && at(row.startAt) <= start && dayOf(row.startAt) >= addMonths(dayOf(index.startAt), -6),
  );
  const doorway = edVisits.filter((row) => at(row.endAt ?? row.startAt) >= start - ED_TO_ADMISSION_MS);
  const typedEmergency = index.typeSystem === CodeSystem.SnomedCt && EMERGENCY_ADMISSION_TYPES.has(index.typeCode ?? '');
  const priorStays = finished.filter(
    (row) =>
      row.class === EncounterClass.Inpatient &&
      row.endAt !== null &&
      at(row.endAt) <= start &&
      dayOf(row.startAt) >= addMonths(dayOf(index.startAt), -12),
  );
  const charlson = charlsonIndex(chart.conditions, dayOf(index.endAt));
  const egfr = lastEgfrBefore(chart.observations, index.endAt);
  const disposition = index.disposition ?? '';

  return {
    length_of_stay_days: { value: daysBetween(dayOf(index.startAt), dayOf(index.endAt)), evidence: [cite(index)] },
    emergency_admission: {
      value: typedEmergency || doorway.length > 0 ? 1 : 0,
      evidence: [cite(index), ...doorway.map(cite)],
    },
    charlson_index: { value: charlson.score, evidence: charlson.categories.flatMap((category) => category.evidence) },
    ed_visits_6m: { value: edVisits.length, evidence: edVisits.map(cite) },
    inpatient_stays_12m: { value: priorStays.length, evidence: priorStays.map(cite) },
    age: { value: ageOn(chart.patient.birthDate, dayOf(index.startAt)), evidence: [citationId('pat', chart.patient.id)] },
    egfr: egfr ? { value: numericValue(egfr), evidence: [citationId('obs', egfr.id)] } : { value: null, evidence: [] },
    discharged_to_care: TO_CARE.test(disposition)
      ? { value: 1, evidence: [cite(index)] }
      : TO_HOME.test(disposition)
        ? { value: 0, evidence: [cite(index)] }
        : { value: null, evidence: [] },
  };
}

/**
 * The most recent eGFR resulted before discharge. Any unit spelled as mL/min (`mL/min/{1.73_m2}`,
 * `mL/min/1.73m2`, or a bare `mL/min` some interfaces send) is read as mL/min/1.73 m²; a result in
 * any other unit is not used.
 */
/** The VSAC eGFR set, plus MDRD eGFR (LOINC 33914-3), which the set leaves out but is still an eGFR. */
const isEgfr = (row: ObservationRow) =>
  inVsacValueSet(row, VS['Estimated Glomerular Filtration Rate']) || (row.codeSystem === CodeSystem.Loinc && row.code === '33914-3');

export function lastEgfrBefore(observations: readonly ObservationRow[], until: string): ObservationRow | undefined {
  const usable = observations.filter(
    (row) =>
      isResult(row) &&
      isEgfr(row) &&
      numericValue(row) !== null &&
      at(row.effectiveAt) <= at(until) &&
      /^ml\/min\b/i.test((row.unit ?? '').trim()),
  );
  return latest(usable, (row) => row.effectiveAt);
}
