import { CodeSystem } from '../../../../cohort/enum';
import { codesInSystem, valueSetInfo, VS } from '../../../../terminology';

/**
 * Every observation retrieve the six measures (and their shared libraries) make, declared in one
 * place: value sets by OID, and direct-reference codes. `MeasureContext` refuses a retrieve that
 * is not listed here (a measure's own tests then fail), so this list is complete by construction.
 *
 * Why it exists: a patient's observations are most of their chart (about a hundred in the
 * generated cohort, two thirds of them vital signs and panels no measure reads), and reading
 * them dominated the stored results' recompute. The recompute reads only observations with one
 * of these codes (`careGapObservationCodes`); the live tool still reads the whole chart. The
 * stored and live answers are equal because no measure can see an observation outside the list.
 */
const VALUE_SETS: readonly string[] = [
  VS['HbA1c Laboratory Test'],
  VS['LDL Cholesterol'],
  VS['Mammography'],
  VS['Fecal Occult Blood Test (FOBT)'],
  VS['sDNA FIT Test'],
  VS['CT Colonography'],
  VS['Frailty Symptom'],
  VS['Estimated Glomerular Filtration Rate'],
  VS['Urine Albumin Creatinine Ratio'],
];

const LOINC_CODES: readonly string[] = [
  // CMS165 blood pressure components (systolic, diastolic).
  '8480-6',
  '8462-4',
  // CMS122 HbA1c (direct reference).
  '97506-0',
  // Shared libraries: hospice assessment, palliative care assessment, frailty assessment, housing status (nursing-home residence).
  '45755-6',
  '71007-9',
  '98181-1',
  '71802-3',
  // CMS347: 10-year ASCVD risk scores (%), a high-risk criterion.
  '99055-6',
  '79423-0',
];

const DECLARED_VALUE_SETS = new Set(VALUE_SETS);
const DECLARED_LOINC = new Set(LOINC_CODES);

/** Whether a measure may retrieve observations of value set `oid`. */
export function isDeclaredObservationValueSet(oid: string): boolean {
  return DECLARED_VALUE_SETS.has(oid);
}

/** Whether a measure may retrieve observations coded `system|code` directly. */
export function isDeclaredObservationCode(system: string, code: string): boolean {
  return system === CodeSystem.Loinc && DECLARED_LOINC.has(code);
}

let codes: readonly string[] | undefined;

/**
 * Every code (of any system) an observation retrieve can match, sorted: the recompute's read
 * filter. A code only: the measures still check the system, so a same-code row of another system
 * read here is passed over there, exactly as in the whole chart.
 */
export function careGapObservationCodes(): readonly string[] {
  codes ??= [...new Set([...LOINC_CODES, ...VALUE_SETS.flatMap((oid) => valueSetInfo(oid).codeSystems.flatMap((system) => codesInSystem(oid, system).map((entry) => entry.code)))])].sort();
  return codes;
}
