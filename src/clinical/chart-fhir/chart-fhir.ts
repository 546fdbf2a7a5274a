import {
  AdverseEventRow,
  AllergyRow,
  CommunicationRow,
  ConditionRow,
  DemographicCoding,
  DosageTiming,
  EncounterRow,
  ImmunizationRow,
  MedicationDispenseRow,
  MedicationRow,
  MedicationSupply,
  PatientChart,
  PatientRow,
  ProcedureRow,
  RequestRow,
} from '../../cohort/chart.types';
import { ConditionCategory, ENCOUNTER_CLASS_V3_CODE, QICORE_EXTENSION, RequestKind } from '../../cohort/enum';
import type { FhirResource } from '../elm';
import { codeable, coding, encounterReference, instant, Json, optionalCodeable, patientReference, period } from './fhir-elements';
import { medicationAdministration, medicationElements, task } from './fhir-measure-records';
import { observationResources } from './fhir-observations';

/**
 * A stored chart as the FHIR R4 resources the published measures retrieve: the inverse of the
 * importer, element by element, for what the rows keep. Pure; resources keep their row ids, so a
 * result can be traced back to the row. Resources are left untagged (no `meta.profile`): the ELM
 * engine gives them the profiles a QI-Core server would, from the same elements a profile is
 * inferred from (category, status, doNotPerform, a vital sign's code).
 *
 * What the rows do not keep is not invented: a patient's name, address and identifiers (no measure
 * reads them), the US Core birth-sex extension (not stored; race, ethnicity and the sex extension are), an
 * AllergyIntolerance's verification status (refuted and entered-in-error ones are not imported),
 * Coverage (not imported), and every coding of a CodeableConcept
 * but the one stored (a Condition's code keeps them all).
 */

const CLASS_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v3-ActCode';
const CONDITION_CLINICAL = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
const CONDITION_VERIFICATION = 'http://terminology.hl7.org/CodeSystem/condition-ver-status';
const ALLERGY_CLINICAL = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical';
const UCUM = 'http://unitsofmeasure.org';
/** The importer's condition categories, with the system each was matched in (health concern is US Core's code). */
const CONDITION_CATEGORY_SYSTEM: Readonly<Record<ConditionCategory, string>> = {
  [ConditionCategory.ProblemListItem]: 'http://terminology.hl7.org/CodeSystem/condition-category',
  [ConditionCategory.EncounterDiagnosis]: 'http://terminology.hl7.org/CodeSystem/condition-category',
  [ConditionCategory.HealthConcern]: 'http://hl7.org/fhir/us/core/CodeSystem/condition-category',
};
/** QI-Core's modifier extension for a DeviceRequest not to be made (R4 has no DeviceRequest.doNotPerform). */
const DEVICE_DO_NOT_PERFORM = 'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-doNotPerform';

/** US Core's sex extension, which QI-Core 6 measures read as `Patient.sex`. */
const US_CORE_SEX = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-sex';
const US_CORE_RACE = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race';
const US_CORE_ETHNICITY = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-ethnicity';

/** A race or ethnicity extension of the stored codings (none when there are none). */
function demographic(url: string, codings: readonly DemographicCoding[]): Json[] {
  if (codings.length === 0) return [];
  return [{ url, extension: codings.map(({ part, system, code }) => ({ url: part, valueCoding: { system, code } })) }];
}

const extensions = (list: Json[]): Json => (list.length > 0 ? { extension: list } : {});

function patient(row: PatientRow): FhirResource {
  return {
    resourceType: 'Patient',
    id: row.id,
    ...extensions([
      ...demographic(US_CORE_RACE, row.race),
      ...demographic(US_CORE_ETHNICITY, row.ethnicity),
      ...(row.sexCode !== null ? [{ url: US_CORE_SEX, valueCode: row.sexCode }] : []),
    ]),
    gender: row.sex,
    birthDate: row.birthDate,
    ...(row.deceasedAt !== null ? { deceasedDateTime: instant(row.deceasedAt) } : {}),
  };
}

function encounter(row: EncounterRow, patientId: string): FhirResource {
  return {
    resourceType: 'Encounter',
    id: row.id,
    status: row.status,
    // The class as the source coded it, else the v3 code Vigil's class stands for (the code a measure compares).
    class: { system: CLASS_SYSTEM, code: row.classCode ?? ENCOUNTER_CLASS_V3_CODE[row.class] },
    // The stored coding, then the source's others (one CodeableConcept: the measures ask whether any coding is in a value set).
    ...(row.typeCode !== null ? { type: [{ coding: [coding(row.typeSystem, row.typeCode, row.typeDisplay), ...row.typeOtherCodings.map((other) => coding(other.system, other.code))] }] } : {}),
    ...(row.reasonCode !== null ? { reasonCode: [codeable(row.reasonSystem, row.reasonCode, row.reasonDisplay)] } : {}),
    subject: patientReference(patientId),
    period: period(row.startAt, row.endAt),
    // The conditions it names, as references to their rows (the measures follow them by id).
    ...(row.diagnoses.length > 0
      ? {
          diagnosis: row.diagnoses.map((diagnosis) => ({
            condition: { reference: diagnosis.condition },
            ...(diagnosis.useCode !== null ? { use: codeable(diagnosis.useSystem, diagnosis.useCode) } : {}),
            ...(diagnosis.rank !== null ? { rank: diagnosis.rank } : {}),
          })),
        }
      : {}),
    ...(row.reasonReferences.length > 0 ? { reasonReference: row.reasonReferences.map((reference) => ({ reference })) } : {}),
    ...(row.locations.length > 0
      ? {
          location: row.locations.map((entry) => ({
            location: { reference: entry.location },
            ...(entry.status !== null ? { status: entry.status } : {}),
            ...(entry.start !== null || entry.end !== null ? { period: period(entry.start, entry.end) } : {}),
          })),
        }
      : {}),
    ...(row.dischargeDispositionCode !== null
      ? { hospitalization: { dischargeDisposition: codeable(row.dischargeDispositionSystem, row.dischargeDispositionCode, row.disposition) } }
      : {}),
  };
}

function condition(row: ConditionRow, patientId: string, offset: string): FhirResource {
  return {
    resourceType: 'Condition',
    id: row.id,
    ...optionalCodeable('clinicalStatus', CONDITION_CLINICAL, row.clinicalStatus),
    ...optionalCodeable('verificationStatus', CONDITION_VERIFICATION, row.verificationStatus),
    ...(row.category !== null ? { category: [codeable(CONDITION_CATEGORY_SYSTEM[row.category], row.category)] } : {}),
    // The stored coding first, then the source's others: a value set may know only one of them.
    code: { coding: [coding(row.codeSystem, row.code, row.display), ...row.otherCodings.map((other) => coding(other.system, other.code))] },
    ...optionalCodeable('severity', row.severitySystem, row.severityCode),
    ...(row.bodySiteCode !== null ? { bodySite: [codeable(row.bodySiteSystem, row.bodySiteCode)] } : {}),
    subject: patientReference(patientId),
    // The instant, when the source wrote a time (a diagnosis compared with an encounter of the same day).
    // Else the stored calendar days (the importer kept the day as written): the whole day, onset from its first
    // moment and abatement to its last, so the ELM compares them as the hand-written measures compare days.
    // A bare date would compare as uncertain against a boundary inside that day (CMS165's "start of the
    // period + 6 months" is an instant), where the source's own dateTime was certain.
    ...(row.onsetAt !== null ? { onsetDateTime: instant(row.onsetAt) } : row.onsetDate !== null ? { onsetDateTime: `${row.onsetDate}T00:00:00.000${offset}` } : {}),
    ...(row.abatementAt !== null ? { abatementDateTime: instant(row.abatementAt) } : row.abatementDate !== null ? { abatementDateTime: `${row.abatementDate}T23:59:59.999${offset}` } : {}),
    recordedDate: instant(row.recordedAt),
  };
}

function procedure(row: ProcedureRow, patientId: string): FhirResource {
  const performed = row.performedEndAt !== null || row.performedPeriodOpen ? { performedPeriod: period(row.performedAt, row.performedEndAt) } : { performedDateTime: instant(row.performedAt) };
  return {
    resourceType: 'Procedure',
    id: row.id,
    status: row.status,
    ...optionalCodeable('statusReason', row.statusReasonSystem, row.statusReasonCode),
    code: codeable(row.codeSystem, row.code, row.display),
    subject: patientReference(patientId),
    ...(row.encounterId !== null ? { encounter: encounterReference(row.encounterId) } : {}),
    ...performed,
    ...(row.bodySiteCode !== null ? { bodySite: [codeable(row.bodySiteSystem, row.bodySiteCode)] } : {}),
    ...(row.reasonCode !== null ? { reasonCode: [codeable(row.reasonSystem, row.reasonCode)] } : {}),
  };
}

/** `dosageInstruction` from the kept timing and dose (`DosageTiming`), with a request's bounds and text. */
function dosageInstruction(timing: DosageTiming, dosageText: string | null, bounds: { start: string | null; end: string | null } | null): Json[] {
  const repeat: Json = {
    ...(bounds !== null && (bounds.start !== null || bounds.end !== null) ? { boundsPeriod: period(bounds.start, bounds.end) } : {}),
    ...(timing.frequency !== null ? { frequency: timing.frequency } : {}),
    ...(timing.period !== null ? { period: timing.period } : {}),
    ...(timing.periodUnit !== null ? { periodUnit: timing.periodUnit } : {}),
    // Only how many times of day were given is kept; the times themselves count for nothing the measures compute.
    ...(timing.timesOfDay > 0 ? { timeOfDay: Array.from({ length: timing.timesOfDay }, (_, i) => `${String(8 + i).padStart(2, '0')}:00:00`) } : {}),
  };
  const first: Json = {
    ...(dosageText !== null ? { text: dosageText } : {}),
    ...(Object.keys(repeat).length > 0 ? { timing: { repeat } } : {}),
    ...(timing.dose !== null ? { doseAndRate: [{ doseQuantity: { value: timing.dose } }] } : {}),
  };
  // The library reads exactly one dosage: the others' count is kept, not their content.
  return timing.dosageCount > 0 ? [first, ...Array.from({ length: timing.dosageCount - 1 }, () => ({}))] : [];
}

/** `dosageInstruction` and `dispenseRequest` from the raw elements the importer kept (`MedicationSupply`). */
function supplyElements(supply: MedicationSupply | null, dosageText: string | null): Json {
  if (!supply) return dosageText !== null ? { dosageInstruction: [{ text: dosageText }] } : {};
  const dosages = dosageInstruction(supply, dosageText, { start: supply.boundsStart, end: supply.boundsEnd });
  const dispense: Json = {
    ...(supply.validityStart !== null ? { validityPeriod: { start: supply.validityStart } } : {}),
    ...(supply.quantity !== null ? { quantity: { value: supply.quantity } } : {}),
    ...(supply.refills !== null ? { numberOfRepeatsAllowed: supply.refills } : {}),
    ...(supply.expectedSupplyDays !== null ? { expectedSupplyDuration: { value: supply.expectedSupplyDays, unit: 'days', system: UCUM, code: 'd' } } : {}),
  };
  return { ...(dosages.length > 0 ? { dosageInstruction: dosages } : {}), ...(Object.keys(dispense).length > 0 ? { dispenseRequest: dispense } : {}) };
}

function medicationRequest(row: MedicationRow, patientId: string): FhirResource {
  return {
    resourceType: 'MedicationRequest',
    id: row.id,
    ...medicationElements(row),
    status: row.status,
    ...(row.intent !== null ? { intent: row.intent } : {}),
    ...(row.doNotPerform ? { doNotPerform: true } : {}),
    subject: patientReference(patientId),
    ...(row.authoredAt !== null ? { authoredOn: instant(row.authoredAt) } : {}),
    ...(row.reasonCode !== null ? { reasonCode: [codeable(row.reasonSystem, row.reasonCode)] } : {}),
    ...supplyElements(row.supply, row.dosageText),
  };
}

function medicationDispense(row: MedicationDispenseRow, patientId: string): FhirResource {
  const dosages = row.dosage !== null ? dosageInstruction(row.dosage, null, null) : [];
  return {
    resourceType: 'MedicationDispense',
    id: row.id,
    ...medicationElements(row),
    status: row.status,
    subject: patientReference(patientId),
    ...(row.quantity !== null ? { quantity: { value: row.quantity } } : {}),
    ...(row.daysSupply !== null ? { daysSupply: { value: row.daysSupply, unit: 'd', system: UCUM, code: 'd' } } : {}),
    ...(row.preparedAt !== null ? { whenPrepared: instant(row.preparedAt) } : {}),
    ...(row.handedOverAt !== null ? { whenHandedOver: instant(row.handedOverAt) } : {}),
    ...(dosages.length > 0 ? { dosageInstruction: dosages } : {}),
  };
}

function immunization(row: ImmunizationRow, patientId: string): FhirResource {
  return {
    resourceType: 'Immunization',
    id: row.id,
    status: row.status,
    ...(row.statusReasonCode !== null ? { statusReason: codeable(row.statusReasonSystem, row.statusReasonCode) } : {}),
    vaccineCode: codeable(row.codeSystem, row.code, row.display),
    patient: patientReference(patientId),
    ...(row.occurredAt !== null ? { occurrenceDateTime: instant(row.occurredAt) } : {}),
    ...(row.recordedAt !== null ? { recorded: instant(row.recordedAt) } : {}),
    ...(row.primarySource !== null ? { primarySource: row.primarySource } : {}),
  };
}

function communication(row: CommunicationRow, patientId: string): FhirResource {
  return {
    resourceType: 'Communication',
    id: row.id,
    ...(row.recordedAt !== null ? { extension: [{ url: QICORE_EXTENSION.recorded, valueDateTime: instant(row.recordedAt) }] } : {}),
    status: row.status,
    ...(row.statusReasonCode !== null ? { statusReason: codeable(row.statusReasonSystem, row.statusReasonCode) } : {}),
    ...(row.categoryCode !== null ? { category: [codeable(row.categorySystem, row.categoryCode, row.categoryDisplay)] } : {}),
    subject: patientReference(patientId),
    ...(row.sentAt !== null ? { sent: instant(row.sentAt) } : {}),
    ...(row.receivedAt !== null ? { received: instant(row.receivedAt) } : {}),
  };
}

function request(row: RequestRow, patientId: string): FhirResource {
  const common = {
    id: row.id,
    status: row.status,
    intent: row.intent,
    subject: patientReference(patientId),
    ...(row.authoredAt !== null ? { authoredOn: instant(row.authoredAt) } : {}),
    ...(row.reasonCode !== null ? { reasonCode: [codeable(row.reasonSystem, row.reasonCode)] } : {}),
  };
  const code = codeable(row.codeSystem, row.code, row.display);
  if (row.kind === RequestKind.Service) {
    const refusal = row.refusalReasonCode !== null ? { extension: [{ url: QICORE_EXTENSION.doNotPerformReason, valueCodeableConcept: codeable(row.refusalReasonSystem, row.refusalReasonCode) }] } : {};
    return { resourceType: 'ServiceRequest', ...refusal, ...common, code, ...(row.doNotPerform ? { doNotPerform: true } : {}) };
  }
  return {
    resourceType: 'DeviceRequest',
    ...common,
    codeCodeableConcept: code,
    ...(row.doNotPerform ? { modifierExtension: [{ url: DEVICE_DO_NOT_PERFORM, valueBoolean: true }] } : {}),
  };
}

function allergy(row: AllergyRow, patientId: string): FhirResource {
  const onset = row.onsetAt === null ? {} : row.onsetEndAt !== null || row.onsetPeriodOpen ? { onsetPeriod: period(row.onsetAt, row.onsetEndAt) } : { onsetDateTime: instant(row.onsetAt) };
  return {
    resourceType: 'AllergyIntolerance',
    id: row.id,
    clinicalStatus: codeable(ALLERGY_CLINICAL, row.clinicalStatus),
    code: codeable(row.codeSystem, row.code, row.display),
    patient: patientReference(patientId),
    ...onset,
    recordedDate: instant(row.recordedAt),
  };
}

function adverseEvent(row: AdverseEventRow, patientId: string): FhirResource {
  return {
    resourceType: 'AdverseEvent',
    id: row.id,
    actuality: 'actual',
    event: codeable(row.codeSystem, row.code, row.display),
    subject: patientReference(patientId),
    ...(row.occurredAt !== null ? { date: instant(row.occurredAt) } : {}),
    recordedDate: instant(row.recordedAt),
  };
}

/**
 * The Locations the encounters name, once each, with the type the encounter kept of them (the
 * measures retrieve Locations and read their type); one the import did not hold, none.
 */
function locations(encounters: readonly EncounterRow[]): FhirResource[] {
  const byId = new Map<string, FhirResource>();
  for (const entry of encounters.flatMap((row) => row.locations)) {
    const id = entry.location.slice(entry.location.indexOf('/') + 1);
    if (entry.types.length === 0 || byId.has(id)) continue;
    byId.set(id, { resourceType: 'Location', id, type: entry.types.map((type) => ({ coding: [coding(type.system, type.code)] })) });
  }
  return [...byId.values()];
}

export interface ChartToFhirOptions {
  /**
   * Hours east of UTC of the practice, whose calendar days the stored days are (a condition's onset
   * and abatement); pass the evaluation's `timezoneOffset`. Default 0.
   */
  timezoneOffset?: number;
}

/** `Z`, or `±hh:mm`. */
function offsetText(hours: number): string {
  if (hours === 0) return 'Z';
  const minutes = Math.round(Math.abs(hours) * 60);
  return `${hours < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** One patient's chart as FHIR R4 resources, the Patient first. */
export function chartToFhir(chart: PatientChart, options: ChartToFhirOptions = {}): FhirResource[] {
  const id = chart.patient.id;
  const offset = offsetText(options.timezoneOffset ?? 0);
  return [
    patient(chart.patient),
    ...chart.encounters.map((row) => encounter(row, id)),
    ...chart.conditions.map((row) => condition(row, id, offset)),
    ...observationResources(chart.observations, id, new Set(chart.procedures.map((row) => row.id))),
    ...chart.procedures.map((row) => procedure(row, id)),
    ...chart.medications.map((row) => medicationRequest(row, id)),
    ...chart.dispenses.map((row) => medicationDispense(row, id)),
    ...chart.requests.map((row) => request(row, id)),
    ...chart.allergies.map((row) => allergy(row, id)),
    ...chart.adverseEvents.map((row) => adverseEvent(row, id)),
    ...chart.immunizations.map((row) => immunization(row, id)),
    ...chart.communications.map((row) => communication(row, id)),
    ...chart.administrations.map((row) => medicationAdministration(row, id)),
    ...chart.tasks.map((row) => task(row, id)),
    ...locations(chart.encounters),
  ];
}
