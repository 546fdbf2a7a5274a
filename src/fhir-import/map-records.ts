import { AllergyClinicalStatus, CodeSystem, ConditionClinicalStatus, MedicationStatus, ProcedureStatus } from '../cohort/enum';
import { ALLOWED_SYSTEMS, Coded, firstCode, pickCoding } from './codes';
import { asObject, asObjects } from './json';
import { encounterOf, firstPresent, idOf, MapContext, mappedStatus, optionalInstant, patientOf, requiredInstant, SourceResource } from './map-context';
import { MappedResource, SkipResource, TableName } from './fhir-import.types';
import { cleanText } from './text';

function coded(concept: unknown, allowed: readonly CodeSystem[], what = 'code'): Coded {
  const picked = pickCoding(concept, allowed);
  if (picked === 'missing') throw new SkipResource(`${what} missing`);
  if (picked === 'disallowed') throw new SkipResource(`${what} system outside the schema`);
  return picked;
}

const identity = <T extends string>(values: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.values(values).map((value) => [value, value]));

function one(source: SourceResource, table: TableName, row: Record<string, string | null>, warnings: string[]): MappedResource {
  return { type: source.type, key: `${source.type}/${source.sourceId}`, position: source.position, warnings, rows: { [table]: [row] } };
}

/** Refuted and entered-in-error records are not facts about the patient: skipped, not stored. */
function refuseUnverified(resource: Record<string, unknown>): void {
  const verification = firstCode(resource.verificationStatus);
  if (verification === 'refuted' || verification === 'entered-in-error') throw new SkipResource(`verificationStatus is ${verification}`);
}

const CONDITION_STATUSES = identity(ConditionClinicalStatus);

/**
 * Conditions keep their SNOMED CT or ICD-10-CM code. Without a clinicalStatus (allowed in R4 for
 * some categories), the status is `resolved` when an abatement is recorded and `active` otherwise,
 * and the resource is counted under a warning. Onset and abatement keep their calendar day as written.
 */
export function mapCondition(source: SourceResource, context: MapContext): MappedResource {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.subject);
  refuseUnverified(resource);
  const code = coded(resource.code, ALLOWED_SYSTEMS.condition);
  const onset = optionalInstant(firstPresent(resource.onsetDateTime, asObject(resource.onsetPeriod)?.start), 'onset[x]');
  const abatement = optionalInstant(firstPresent(resource.abatementDateTime, asObject(resource.abatementPeriod)?.start), 'abatement[x]');
  if (onset && abatement && abatement.millis < onset.millis) throw new SkipResource('abatement is before onset');
  const recorded = optionalInstant(resource.recordedDate, 'recordedDate') ?? onset;
  if (!recorded) throw new SkipResource('neither recordedDate nor onset[x] given');
  let clinicalStatus: string;
  if (resource.clinicalStatus === undefined) {
    clinicalStatus = abatement ? ConditionClinicalStatus.Resolved : ConditionClinicalStatus.Active;
    warnings.push('clinicalStatus missing (derived from abatement)');
  } else {
    clinicalStatus = mappedStatus(firstCode(resource.clinicalStatus), CONDITION_STATUSES, Object.values(ConditionClinicalStatus), 'clinicalStatus');
  }
  return one(
    source,
    'conditions',
    {
      id: idOf(source),
      patient_id: patient.rowId,
      code_system: code.system,
      code: code.code,
      display: code.display,
      clinical_status: clinicalStatus,
      onset_date: onset?.day ?? null,
      abatement_date: abatement?.day ?? null,
      recorded_at: recorded.instant,
    },
    warnings,
  );
}

const MEDICATION_STATUSES = identity(MedicationStatus);

/**
 * A medication order (RxNorm). The start is `authoredOn`, else the first dosage's bounds; the end is
 * the dispense validity or dosage bounds end, when given. `medicationReference` (a separate
 * Medication resource) is not followed: skipped with a reason.
 */
export function mapMedicationRequest(source: SourceResource, context: MapContext): MappedResource {
  const { resource } = source;
  const patient = patientOf(context, resource.subject);
  if (resource.medicationCodeableConcept === undefined && resource.medicationReference !== undefined) {
    throw new SkipResource('medicationReference is not supported (only medicationCodeableConcept)');
  }
  const code = coded(resource.medicationCodeableConcept, ALLOWED_SYSTEMS.medication, 'medication code');
  const status = mappedStatus(resource.status, MEDICATION_STATUSES, Object.values(MedicationStatus));
  const dosage = asObjects(resource.dosageInstruction)[0];
  const bounds = asObject(asObject(asObject(dosage?.timing)?.repeat)?.boundsPeriod);
  const validity = asObject(asObject(resource.dispenseRequest)?.validityPeriod);
  const start = requiredInstant(firstPresent(resource.authoredOn, bounds?.start, validity?.start), 'authoredOn');
  const end = optionalInstant(firstPresent(validity?.end, bounds?.end), 'end of validity or dosage bounds');
  if (end && end.day < start.day) throw new SkipResource('end is before start');
  return one(
    source,
    'medications',
    {
      id: idOf(source),
      patient_id: patient.rowId,
      code_system: code.system,
      code: code.code,
      display: code.display,
      status,
      start_date: start.day,
      end_date: end?.day ?? null,
      dosage_text: cleanText(dosage?.text),
    },
    [],
  );
}

const PROCEDURE_FHIR_STATUSES = ['preparation', 'in-progress', 'not-done', 'on-hold', 'stopped', 'completed', 'entered-in-error', 'unknown'];

export function mapProcedure(source: SourceResource, context: MapContext): MappedResource {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.subject);
  const code = coded(resource.code, ALLOWED_SYSTEMS.procedure);
  const status = mappedStatus(resource.status, identity(ProcedureStatus), PROCEDURE_FHIR_STATUSES);
  const performed = requiredInstant(firstPresent(resource.performedDateTime, asObject(resource.performedPeriod)?.start), 'performed[x]');
  return one(
    source,
    'procedures',
    {
      id: idOf(source),
      patient_id: patient.rowId,
      encounter_id: encounterOf(context, resource.encounter, patient, warnings),
      code_system: code.system,
      code: code.code,
      display: code.display,
      status,
      performed_at: performed.instant,
    },
    warnings,
  );
}

const ALLERGY_STATUSES = identity(AllergyClinicalStatus);

/** AllergyIntolerance names its patient in `patient`, not `subject`. A missing clinicalStatus is `active`, with a warning. */
export function mapAllergyIntolerance(source: SourceResource, context: MapContext): MappedResource {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.patient);
  refuseUnverified(resource);
  const code = coded(resource.code, ALLOWED_SYSTEMS.allergy);
  const recorded = requiredInstant(firstPresent(resource.recordedDate, resource.onsetDateTime), 'recordedDate');
  let clinicalStatus: string = AllergyClinicalStatus.Active;
  if (resource.clinicalStatus === undefined) warnings.push('clinicalStatus missing (stored as active)');
  else clinicalStatus = mappedStatus(firstCode(resource.clinicalStatus), ALLERGY_STATUSES, Object.values(AllergyClinicalStatus), 'clinicalStatus');
  return one(
    source,
    'allergies',
    {
      id: idOf(source),
      patient_id: patient.rowId,
      code_system: code.system,
      code: code.code,
      display: code.display,
      clinical_status: clinicalStatus,
      recorded_at: recorded.instant,
    },
    warnings,
  );
}
