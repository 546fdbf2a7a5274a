import { citationId, ConditionRow, PatientChart } from '../../cohort/chart.types';
import { Sex } from '../../cohort/enum';
import {
  conditionStart,
  finishedEncounters,
  isActiveCondition,
  isActiveMedicationOn,
  recordedObservations,
} from '../shared/chart-rows';
import { assertDay, dayOf, isWithin, latest, Period, trailingYear } from '../shared/clinical-dates';
import { inAnyValueSet, inValueSet, VS } from '../../terminology';
import { CHRONIC_KIDNEY_DISEASE, OBSERVED_ELEMENTS, ObservedElement } from './element-codes';
import { MissingDataElement, MissingDataItem } from './missing-data.types';
import { PRESENCE_RULE } from './presence-rules';

const STATIN_THERAPY = [VS['Low Intensity Statin Therapy'], VS['Moderate Intensity Statin Therapy'], VS['High Intensity Statin Therapy']];
/** The eCQM sets of the last CKD stage, added to Vigil's any-stage list (they hold SNOMED ESRD codes it lacks). */
const KIDNEY_FAILURE = [VS['Chronic Kidney Disease, Stage 5'], VS['End Stage Renal Disease']];

/** One row that could satisfy an element: its day and its citation id. */
interface Sighting {
  day: string;
  citation: string;
}

/**
 * Which expected data elements a chart holds as of a day (`YYYY-MM-DD`). Absence is reported as
 * absence: a `missing` element was never recorded, which says nothing about the patient's health.
 * Rows dated after the as-of day, entered in error or cancelled are not seen. Reads the patient, the
 * observations of `OBSERVED_ELEMENTS`, the conditions, medications, allergies and encounters, and
 * nothing else of the chart: all the tool reads (`gatedMissingDataChart`).
 */
export function checkMissingData(chart: PatientChart, asOf: string): MissingDataItem[] {
  assertDay(asOf, 'as-of date');
  const recent = trailingYear(asOf);
  const observations = recordedObservations(chart, asOf);
  // Only through `OBSERVED_ELEMENTS`: the tool reads no other observations (`missingDataObservationCodes`).
  const observed = (element: ObservedElement): Sighting[] =>
    observations
      .filter((row) => inAnyValueSet(row, ...OBSERVED_ELEMENTS[element]))
      .map((row) => ({ day: dayOf(row.effectiveAt), citation: citationId('obs', row.id) }));
  const conditions = activeConditions(chart.conditions, asOf);
  const medications = chart.medications.filter((row) => isActiveMedicationOn(row, asOf));
  const cited = (kind: 'cond' | 'med', rows: { id: string }[]) => rows.map((row) => citationId(kind, row.id));

  // The official eCQM sets where one exists (CMS122/CMS951 for diabetes, CMS347 for statins).
  const diabetes = cited('cond', conditions.filter((row) => inValueSet(row, VS.Diabetes)));
  const ckd = cited('cond', conditions.filter((row) => inAnyValueSet(row, CHRONIC_KIDNEY_DISEASE, ...KIDNEY_FAILURE)));
  const statins = cited('med', medications.filter((row) => inAnyValueSet(row, ...STATIN_THERAPY)));

  return [
    ...demographics(chart),
    judged('blood-pressure', observed('blood-pressure'), recent),
    judged('weight', observed('weight'), recent),
    judged('height', observed('height'), recent),
    judged('bmi', observed('bmi'), recent),
    judged('smoking-status', observed('smoking-status'), recent),
    judged(
      'allergies',
      chart.allergies
        .filter((row) => dayOf(row.recordedAt) <= asOf)
        .map((row) => ({ day: dayOf(row.recordedAt), citation: citationId('allergy', row.id) })),
      recent,
    ),
    judged('problem-list', conditions.map((row) => ({ day: conditionStart(row), citation: citationId('cond', row.id) })), recent),
    judged('medication-list', medications.map((row) => ({ day: row.startDate, citation: citationId('med', row.id) })), recent),
    judged(
      'encounter-12m',
      finishedEncounters(chart, asOf).map((row) => ({ day: dayOf(row.startAt), citation: citationId('enc', row.id) })),
      recent,
    ),
    expected('hba1c', observed('hba1c'), recent, [['diabetes', diabetes]]),
    expected('egfr', observed('egfr'), recent, [
      ['diabetes', diabetes],
      ['chronic kidney disease', ckd],
    ]),
    expected('lipids', observed('lipids'), recent, [['statin therapy', statins]]),
  ];
}

/** Demographics count when recorded at all: they do not go stale. `unknown` sex is not a recorded sex. */
function demographics(chart: PatientChart): MissingDataItem[] {
  const { patient } = chart;
  const recorded = (value: string | null) => value !== null && value.trim() !== '';
  const item = (element: MissingDataElement, present: boolean): MissingDataItem => ({
    element,
    status: present ? 'present' : 'missing',
    lastSeen: null,
    evidence: present ? [citationId('pat', patient.id)] : [],
  });
  return [
    item('name', recorded(patient.givenName) || recorded(patient.familyName)),
    item('birth-date', recorded(patient.birthDate)),
    item('sex', patient.sex !== Sex.Unknown),
    item('address', recorded(patient.addressLine)),
    item('phone', recorded(patient.phone)),
    item('email', recorded(patient.email)),
  ];
}

/** An element by its presence rule (`PRESENCE_RULE`, the one the tool states). */
function judged(element: MissingDataElement, sightings: Sighting[], recent: Period): MissingDataItem {
  return PRESENCE_RULE[element] === 'current-entry' ? listed(element, sightings) : dated(element, sightings, recent);
}

/** A dated element: present within the 12 months, stale when only older, missing when never. */
function dated(element: MissingDataElement, sightings: Sighting[], recent: Period): MissingDataItem {
  const last = latest(sightings, (row) => row.day);
  if (!last) return { element, status: 'missing', lastSeen: null, evidence: [] };
  return {
    element,
    status: isWithin(last.day, recent) ? 'present' : 'stale',
    lastSeen: last.day,
    // Every row of the last day: a blood pressure is a systolic and a diastolic row.
    evidence: sightings.filter((row) => row.day === last.day).map((row) => row.citation),
  };
}

/** A list is present with one current entry, whatever its date: an allergy recorded years ago still answers the question. */
function listed(element: MissingDataElement, entries: Sighting[]): MissingDataItem {
  const last = latest(entries, (row) => row.day);
  return {
    element,
    status: last ? 'present' : 'missing',
    lastSeen: last?.day ?? null,
    evidence: entries.map((row) => row.citation),
  };
}

/**
 * A condition-driven lab: expected when at least one reason has triggering rows (diabetes, CKD, a
 * current statin order), `not-applicable` otherwise; its last date is reported either way.
 */
function expected(
  element: MissingDataElement,
  sightings: Sighting[],
  recent: Period,
  reasons: [reason: string, triggers: string[]][],
): MissingDataItem {
  const item = judged(element, sightings, recent);
  const because = reasons.filter(([, triggers]) => triggers.length > 0);
  if (because.length === 0) return { ...item, status: 'not-applicable' };
  return {
    ...item,
    requiredBecause: because.map(([reason]) => reason).join(' and '),
    evidence: [...item.evidence, ...new Set(because.flatMap(([, triggers]) => triggers))],
  };
}

function activeConditions(conditions: ConditionRow[], asOf: string): ConditionRow[] {
  return conditions.filter((row) => isActiveCondition(row) && conditionStart(row) <= asOf);
}
