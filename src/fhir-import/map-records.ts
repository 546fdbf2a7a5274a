import {
  AllergyClinicalStatus,
  ConditionCategory,
  ConditionClinicalStatus,
  ConditionVerificationStatus,
  EventStatus,
  ImmunizationStatus,
  ProcedureStatus,
  QICORE_EXTENSION,
} from '../cohort/enum';
import { firstCode, otherCodings } from './codes';
import { asArray, asObject, asObjects, asString } from './json';
import {
  encounterOf,
  firstPresent,
  openPeriod,
  identity,
  idOf,
  lenientInstant,
  MapContext,
  mappedStatus,
  optionalCode,
  optionalInstant,
  patientOf,
  requiredCode,
  requiredInstant,
  SourceResource,
} from './map-context';
import { MappedResource, Row, SkipResource, TableName } from './fhir-import.types';

export function one(source: SourceResource, table: TableName, row: Row, warnings: string[]): MappedResource {
  return { type: source.type, key: `${source.type}/${source.sourceId}`, position: source.position, warnings, rows: { [table]: [row] } };
}

/** An optional coded status: null when absent; a code outside the vocabulary is left empty with a warning. */
function optionalStatus<T extends string>(value: unknown, vocabulary: Record<string, T>, field: string, warnings: string[]): T | null {
  const code = firstCode(value);
  if (code === undefined) return null;
  const known = (Object.values(vocabulary) as string[]).includes(code);
  if (!known) warnings.push(`${field} outside the FHIR value set (left empty)`);
  return known ? (code as T) : null;
}

/**
 * The categories Vigil names, by system and code as QICoreCommon declares them (`C ~ "health-concern"`
 * matches only the US Core system's code), in order of preference: a condition in several categories
 * is stored as the one the measures ask for (problem list or health concern, CMS347) before an
 * encounter diagnosis, which no measure reads.
 */
const CONDITION_CATEGORIES: readonly (readonly [system: string, category: ConditionCategory])[] = [
  ['http://terminology.hl7.org/CodeSystem/condition-category', ConditionCategory.ProblemListItem],
  ['http://hl7.org/fhir/us/core/CodeSystem/condition-category', ConditionCategory.HealthConcern],
  ['http://terminology.hl7.org/CodeSystem/condition-category', ConditionCategory.EncounterDiagnosis],
];

function conditionCategory(resource: Record<string, unknown>): ConditionCategory | null {
  const codings = asObjects(resource.category).flatMap((category) => asObjects(category.coding));
  const has = (system: string, code: string) => codings.some((coding) => asString(coding.system)?.trim() === system && asString(coding.code)?.trim() === code);
  return CONDITION_CATEGORIES.find(([system, category]) => has(system, category))?.[1] ?? null;
}

/**
 * Condition onset and abatement as a day. dateTime as written; a Period by its start for onset and
 * its end for abatement (the day the condition began, the day it ended), else its other end. An Age,
 * Range or string onset names no calendar day: left empty, with a warning (documented choice: an age
 * would need the birth date and still only give a year). A partial date is left empty too.
 */
function conditionDay(resource: Record<string, unknown>, element: 'onset' | 'abatement', warnings: string[]) {
  const period = asObject(resource[`${element}Period`]);
  const [first, second] = element === 'onset' ? [period?.start, period?.end] : [period?.end, period?.start];
  const value = firstPresent(resource[`${element}DateTime`], first, second);
  if (value !== undefined) {
    const parsed = lenientInstant(value, `${element}[x]`, warnings);
    // The instant too when a time was written: a bare date is a day, not its first moment.
    return parsed && { ...parsed, timed: typeof value === 'string' && value.includes('T') };
  }
  const unstored = ['Age', 'Range', 'String'].find((kind) => resource[`${element}${kind}`] !== undefined);
  if (unstored) warnings.push(`${element}${unstored} names no day (left empty)`);
  return null;
}

/**
 * Conditions keep their code in whatever system the source used (the code's other codings too, for
 * the value sets that know only one of them), and their verification status:
 * refuted and entered-in-error conditions are stored as such (the measure logic decides what counts).
 * `recorded_at` is `recordedDate`, else onset, else abatement; a condition with none of them is a skip.
 */
export function mapCondition(source: SourceResource, context: MapContext): MappedResource {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.subject);
  const code = requiredCode(context, resource.code);
  const onset = conditionDay(resource, 'onset', warnings);
  let abatement = conditionDay(resource, 'abatement', warnings);
  if (onset && abatement && abatement.day < onset.day) {
    warnings.push('abatement is before onset (abatement left empty)');
    abatement = null;
  }
  const recorded = optionalInstant(resource.recordedDate, 'recordedDate') ?? onset ?? abatement;
  if (!recorded) throw new SkipResource('neither recordedDate, onset[x] nor abatement[x] gives a day');
  if (resource.recordedDate === undefined && !onset) warnings.push('recordedDate and onset missing (recorded at the abatement)');
  const bodySite = optionalCode(context, asArray(resource.bodySite), 'bodySite', warnings);
  const severity = optionalCode(context, resource.severity, 'severity', warnings);
  return one(
    source,
    'conditions',
    {
      id: idOf(context, source),
      patient_id: patient.rowId,
      code_system: code.system,
      code: code.code,
      display: code.display,
      clinical_status: optionalStatus(resource.clinicalStatus, ConditionClinicalStatus, 'clinicalStatus', warnings),
      verification_status: optionalStatus(resource.verificationStatus, ConditionVerificationStatus, 'verificationStatus', warnings),
      category: conditionCategory(resource),
      body_site_system: bodySite?.system ?? null,
      body_site_code: bodySite?.code ?? null,
      onset_date: onset?.day ?? null,
      abatement_date: abatement?.day ?? null,
      onset_at: onset?.timed ? onset.instant : null,
      abatement_at: abatement?.timed ? abatement.instant : null,
      other_codings: otherCodings(resource.code, code),
      severity_system: severity?.system ?? null,
      severity_code: severity?.code ?? null,
      recorded_at: recorded.instant,
    },
    warnings,
  );
}


/**
 * Procedures in any system (CPT, HCPCS, ICD-10-PCS, SNOMED CT…), every R4 status; `not-done` keeps
 * its `statusReason`. performed[x]: dateTime, or a Period (start, else end; the end is kept). A
 * procedure not performed often has no performed[x]: QI-Core's `recorded` extension dates it then.
 */
export function mapProcedure(source: SourceResource, context: MapContext): MappedResource {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.subject);
  const code = requiredCode(context, resource.code);
  const status = mappedStatus(resource.status, identity(ProcedureStatus), Object.values(ProcedureStatus));
  const period = asObject(resource.performedPeriod);
  const end = optionalInstant(period?.end, 'performedPeriod.end');
  const recordedExtension = asObjects(resource.extension).find((extension) => extension.url === QICORE_EXTENSION.recorded)?.valueDateTime;
  const performedValue = firstPresent(resource.performedDateTime, period?.start, period?.end);
  if (performedValue === undefined && recordedExtension !== undefined) warnings.push('performed[x] missing (dated by the QI-Core recorded extension)');
  const performed = requiredInstant(firstPresent(performedValue, recordedExtension), 'performed[x]');
  if (end && end.millis < performed.millis) throw new SkipResource('performedPeriod.end is before its start');
  const statusReason = optionalCode(context, resource.statusReason, 'statusReason', warnings);
  const bodySite = optionalCode(context, asArray(resource.bodySite), 'bodySite', warnings);
  const reason = optionalCode(context, asArray(resource.reasonCode), 'reasonCode', warnings);
  return one(
    source,
    'procedures',
    {
      id: idOf(context, source),
      patient_id: patient.rowId,
      encounter_id: encounterOf(context, resource.encounter, patient, warnings),
      code_system: code.system,
      code: code.code,
      display: code.display,
      status,
      performed_at: performed.instant,
      performed_end_at: end?.instant ?? null,
      performed_period_open: String(resource.performedDateTime === undefined && openPeriod(period)),
      status_reason_system: statusReason?.system ?? null,
      status_reason_code: statusReason?.code ?? null,
      body_site_system: bodySite?.system ?? null,
      body_site_code: bodySite?.code ?? null,
      reason_system: reason?.system ?? null,
      reason_code: reason?.code ?? null,
    },
    warnings,
  );
}

/**
 * AllergyIntolerance names its patient in `patient`, not `subject`. Refuted and entered-in-error
 * entries are skipped (the table has no verification column, and they are no allergy). A missing
 * clinicalStatus is `active`, with a warning. `recorded_at` is recordedDate, else the onset.
 */
export function mapAllergyIntolerance(source: SourceResource, context: MapContext): MappedResource {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.patient);
  const verification = firstCode(resource.verificationStatus);
  if (verification === 'refuted' || verification === 'entered-in-error') throw new SkipResource(`verificationStatus is ${verification}`);
  const code = requiredCode(context, resource.code);
  const period = asObject(resource.onsetPeriod);
  // A partial onset (a year: `2005`) names no instant: left empty with a warning, the allergy kept.
  const onset = lenientInstant(firstPresent(resource.onsetDateTime, period?.start), 'onset[x]', warnings);
  const onsetEnd = lenientInstant(period?.end, 'onsetPeriod.end', warnings);
  const recorded = optionalInstant(resource.recordedDate, 'recordedDate') ?? onset ?? onsetEnd;
  if (!recorded) throw new SkipResource('neither recordedDate nor onset[x] given');
  let clinicalStatus: string = AllergyClinicalStatus.Active;
  if (resource.clinicalStatus === undefined) warnings.push('clinicalStatus missing (stored as active)');
  else clinicalStatus = mappedStatus(firstCode(resource.clinicalStatus), identity(AllergyClinicalStatus), Object.values(AllergyClinicalStatus), 'clinicalStatus');
  return one(
    source,
    'allergies',
    {
      id: idOf(context, source),
      patient_id: patient.rowId,
      code_system: code.system,
      code: code.code,
      display: code.display,
      clinical_status: clinicalStatus,
      recorded_at: recorded.instant,
      onset_at: onset?.instant ?? null,
      onset_end_at: onsetEnd?.instant ?? null,
      onset_period_open: String(resource.onsetDateTime === undefined && openPeriod(period)),
    },
    warnings,
  );
}

/** An AdverseEvent by the event (or substance) it names; `recorded_at` is recordedDate, else date. */
export function mapAdverseEvent(source: SourceResource, context: MapContext): MappedResource {
  const { resource } = source;
  const patient = patientOf(context, resource.subject);
  const code = requiredCode(context, resource.event, 'event');
  const occurred = optionalInstant(resource.date, 'date');
  const recorded = optionalInstant(resource.recordedDate, 'recordedDate') ?? occurred;
  if (!recorded) throw new SkipResource('neither recordedDate nor date given');
  return one(
    source,
    'adverse_events',
    {
      id: idOf(context, source),
      patient_id: patient.rowId,
      code_system: code.system,
      code: code.code,
      display: code.display,
      recorded_at: recorded.instant,
      occurred_at: occurred?.instant ?? null,
    },
    [],
  );
}

/**
 * An Immunization by its `vaccineCode` (CVX, or any system): status (outside FHIR's a skip), when it
 * occurred (`occurrenceDateTime`; a free-text `occurrenceString` names no day and is left empty, with a
 * warning), when it was recorded, `primarySource`, and why it was not given (`statusReason`).
 */
export function mapImmunization(source: SourceResource, context: MapContext): MappedResource {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.patient);
  const code = requiredCode(context, resource.vaccineCode, 'vaccineCode');
  const status = mappedStatus(resource.status, identity(ImmunizationStatus), Object.values(ImmunizationStatus));
  if (resource.occurrenceDateTime === undefined && resource.occurrenceString !== undefined) warnings.push('occurrenceString names no day (left empty)');
  const occurred = lenientInstant(resource.occurrenceDateTime, 'occurrenceDateTime', warnings);
  const recorded = lenientInstant(resource.recorded, 'recorded', warnings);
  const reason = optionalCode(context, resource.statusReason, 'statusReason', warnings);
  return one(
    source,
    'immunizations',
    {
      id: idOf(context, source),
      patient_id: patient.rowId,
      code_system: code.system,
      code: code.code,
      display: code.display,
      status,
      occurred_at: occurred?.instant ?? null,
      recorded_at: recorded?.instant ?? null,
      primary_source: typeof resource.primarySource === 'boolean' ? String(resource.primarySource) : null,
      status_reason_system: reason?.system ?? null,
      status_reason_code: reason?.code ?? null,
    },
    warnings,
  );
}

/**
 * A Communication by its category (the measures select it by category; none given is kept as none):
 * status (outside FHIR's a skip), why it was not done (`statusReason`), `sent`, `received`, and
 * QI-Core's `qicore-recorded` extension (when a communication not done was recorded).
 */
export function mapCommunication(source: SourceResource, context: MapContext): MappedResource {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.subject);
  const category = optionalCode(context, asArray(resource.category), 'category', warnings);
  const status = mappedStatus(resource.status, identity(EventStatus), Object.values(EventStatus));
  const reason = optionalCode(context, resource.statusReason, 'statusReason', warnings);
  const recorded = asObjects(resource.extension).find((extension) => extension.url === QICORE_EXTENSION.recorded)?.valueDateTime;
  return one(
    source,
    'communications',
    {
      id: idOf(context, source),
      patient_id: patient.rowId,
      category_system: category?.system ?? null,
      category_code: category?.code ?? null,
      category_display: category?.display ?? null,
      status,
      status_reason_system: reason?.system ?? null,
      status_reason_code: reason?.code ?? null,
      sent_at: lenientInstant(resource.sent, 'sent', warnings)?.instant ?? null,
      received_at: lenientInstant(resource.received, 'received', warnings)?.instant ?? null,
      recorded_at: lenientInstant(recorded, 'recorded', warnings)?.instant ?? null,
    },
    warnings,
  );
}
