import { EncounterClass, ObservationCategory } from '../../cohort/enum';
import type { MedicationSupply } from '../../cohort/chart.types';
import { AllergyRow, ConditionRow, EncounterRow, MedicationRow, ObservationRow, PatientRecord, PatientRow, ProcedureRow } from '../rows';
import { VITAL } from '../vocabulary';

/**
 * One generated patient as FHIR R4 resources: the same facts the COPY load writes, in the shapes
 * US Core / QI-Core data has and `src/fhir-import` reads back (the round trip is
 * `test/integration/generator-fhir.int-spec.ts`). Resource ids are the rows' own ids, references are
 * `Patient/<id>` and `Encounter/<id>`. Clinical notes have no FHIR form here: the importer has no
 * table for DocumentReference, so exporting them would only produce skips.
 */
export type FhirResource = { resourceType: FhirResourceType; id: string } & Record<string, unknown>;

export const FHIR_RESOURCE_TYPES = ['Patient', 'Encounter', 'Observation', 'Condition', 'MedicationRequest', 'Procedure', 'AllergyIntolerance'] as const;
export type FhirResourceType = (typeof FHIR_RESOURCE_TYPES)[number];

const UCUM = 'http://unitsofmeasure.org';
const TERMINOLOGY = 'http://terminology.hl7.org/CodeSystem/';
const LOINC = 'http://loinc.org';

/** The schema's encounter classes as HL7 v3 ActCode (the importer's `ENCOUNTER_CLASSES`, reversed). */
const ACT_CODE: Record<EncounterClass, { code: string; display: string }> = {
  [EncounterClass.Ambulatory]: { code: 'AMB', display: 'ambulatory' },
  [EncounterClass.Emergency]: { code: 'EMER', display: 'emergency' },
  [EncounterClass.Inpatient]: { code: 'IMP', display: 'inpatient encounter' },
  [EncounterClass.Observation]: { code: 'OBSENC', display: 'observation encounter' },
  [EncounterClass.Virtual]: { code: 'VR', display: 'virtual' },
  [EncounterClass.Home]: { code: 'HH', display: 'home health' },
};

/** The blood-pressure panel as the FHIR vital-signs `bp` profile codes it (85354-9, systolic and diastolic components). */
const BP_PANEL = { system: LOINC, code: '85354-9', display: 'Blood pressure panel with all children optional' };
const BP_COMPONENTS = new Set([VITAL.systolic.code, VITAL.diastolic.code]);

const iso = (ms: number) => new Date(ms).toISOString();
const concept = (system: string, code: string, display?: string | null) => ({ coding: [{ system, code, ...(display ? { display } : {}) }] });
const status = (codeSystem: string, code: string) => concept(`${TERMINOLOGY}${codeSystem}`, code);
const patientRef = (id: string) => ({ reference: `Patient/${id}` });
const encounterRef = (id: string | null) => (id === null ? {} : { encounter: { reference: `Encounter/${id}` } });
/** An optional element: `{ key: value }` when the value is there, nothing otherwise (FHIR has no nulls). */
const optional = <T>(key: string, value: T | null | undefined) => (value === null || value === undefined ? {} : { [key]: value });

export function patientResource(row: PatientRow): FhirResource {
  const telecom = [...(row.phone ? [{ system: 'phone', value: row.phone, use: 'home' }] : []), ...(row.email ? [{ system: 'email', value: row.email }] : [])];
  const address = { use: 'home', ...optional('line', row.addressLine ? [row.addressLine] : null), ...optional('city', row.city), ...optional('state', row.state), ...optional('postalCode', row.postalCode) };
  return {
    resourceType: 'Patient',
    id: row.id,
    // The MRN, typed MR (HL7 v2-0203): what the importer keeps as the medical record number.
    identifier: [{ type: status('v2-0203', 'MR'), system: 'urn:vigil:generated-mrn', value: row.mrn }],
    name: [{ use: 'official', family: row.familyName, given: row.givenName.split(' ') }],
    ...optional('telecom', telecom.length ? telecom : null),
    gender: row.sex,
    birthDate: row.birthDate,
    ...optional('deceasedDateTime', row.deceasedAt === null ? null : iso(row.deceasedAt)),
    ...optional('address', Object.keys(address).length > 1 ? [address] : null),
  };
}

export function encounterResource(row: EncounterRow): FhirResource {
  const actCode = ACT_CODE[row.class];
  return {
    resourceType: 'Encounter',
    id: row.id,
    status: row.status,
    class: { system: `${TERMINOLOGY}v3-ActCode`, ...actCode },
    ...optional('type', row.typeSystem && row.typeCode ? [concept(row.typeSystem, row.typeCode, row.typeDisplay)] : null),
    subject: patientRef(row.patientId),
    period: { start: iso(row.startAt), ...optional('end', row.endAt === null ? null : iso(row.endAt)) },
    ...optional('reasonCode', row.reasonSystem && row.reasonCode ? [concept(row.reasonSystem, row.reasonCode, row.reasonDisplay)] : null),
    // Generated dispositions are free text ("home", "skilled nursing facility"): text, no coding.
    ...optional('hospitalization', row.disposition === null ? null : { dischargeDisposition: { text: row.disposition } }),
  };
}

function observationValue(row: ObservationRow): Record<string, unknown> {
  if (row.valueNumeric !== null) {
    return { valueQuantity: { value: row.valueNumeric, ...(row.unit ? { unit: row.unit, system: UCUM, code: row.unit } : {}) } };
  }
  if (row.valueCode !== null && row.valueSystem !== null) return { valueCodeableConcept: concept(row.valueSystem, row.valueCode, row.valueText) };
  if (row.valueText !== null) return { valueString: row.valueText };
  return { dataAbsentReason: status('data-absent-reason', row.dataAbsentReason ?? 'unknown') };
}

function referenceRange(row: ObservationRow): Record<string, unknown> {
  if (row.referenceLow === null && row.referenceHigh === null && row.referenceText === null) return {};
  const bound = (value: number | null) => (value === null ? null : { value, ...(row.unit ? { unit: row.unit, system: UCUM, code: row.unit } : {}) });
  return { referenceRange: [{ ...optional('low', bound(row.referenceLow)), ...optional('high', bound(row.referenceHigh)), ...optional('text', row.referenceText) }] };
}

function effective(row: ObservationRow): Record<string, unknown> {
  return row.effectiveEndAt === null ? { effectiveDateTime: iso(row.effectiveAt) } : { effectivePeriod: { start: iso(row.effectiveAt), end: iso(row.effectiveEndAt) } };
}

/** The elements every Observation of a row has: status, category, subject, time, encounter. */
function observationBase(row: ObservationRow, id: string): FhirResource {
  return {
    resourceType: 'Observation',
    id,
    status: row.status,
    category: [status('observation-category', row.category)],
    subject: patientRef(row.patientId),
    ...encounterRef(row.encounterId),
    ...effective(row),
  };
}

function singleObservation(row: ObservationRow): FhirResource {
  return {
    ...observationBase(row, row.id),
    code: concept(row.codeSystem, row.code, row.display),
    ...observationValue(row),
    ...optional('interpretation', row.interpretation === null ? null : [status('v3-ObservationInterpretation', row.interpretation)]),
    ...referenceRange(row),
  };
}

/** A blood pressure: one Observation (85354-9) with a systolic and a diastolic component, as the importer splits it again. */
function bloodPressure(panelId: string, rows: ObservationRow[]): FhirResource {
  return {
    ...observationBase(rows[0], panelId),
    code: { coding: [BP_PANEL] },
    component: rows.map((row) => ({ code: concept(row.codeSystem, row.code, row.display), ...observationValue(row) })),
  };
}

/**
 * Observations: the rows of a vital-signs panel (systolic + diastolic) become one blood-pressure
 * Observation; every other row is its own Observation. Lab panels (lipids, metabolic, blood count)
 * are exported one result per Observation, which is how US Core exchanges lab results and how the
 * measures' retrieves find them (by `Observation.code`); the grouping itself is not carried.
 */
export function observationResources(rows: readonly ObservationRow[]): FhirResource[] {
  // In the order the rows were generated: a panel where its first component was.
  const order: (ObservationRow | string)[] = [];
  const panels = new Map<string, ObservationRow[]>();
  for (const row of rows) {
    if (row.panelId === null || row.category !== ObservationCategory.VitalSigns || !BP_COMPONENTS.has(row.code)) order.push(row);
    else if (panels.has(row.panelId)) panels.get(row.panelId)!.push(row);
    else {
      panels.set(row.panelId, [row]);
      order.push(row.panelId);
    }
  }
  return order.map((item) => (typeof item === 'string' ? bloodPressure(item, panels.get(item)!) : singleObservation(item)));
}

export function conditionResource(row: ConditionRow): FhirResource {
  return {
    resourceType: 'Condition',
    id: row.id,
    ...optional('clinicalStatus', row.clinicalStatus === null ? null : status('condition-clinical', row.clinicalStatus)),
    ...optional('verificationStatus', row.verificationStatus === null ? null : status('condition-ver-status', row.verificationStatus)),
    ...optional('category', row.category === null ? null : [status('condition-category', row.category)]),
    code: concept(row.codeSystem, row.code, row.display),
    ...optional('bodySite', row.bodySiteSystem && row.bodySiteCode ? [concept(row.bodySiteSystem, row.bodySiteCode)] : null),
    subject: patientRef(row.patientId),
    ...optional('onsetDateTime', row.onsetDate),
    ...optional('abatementDateTime', row.abatementDate),
    recordedDate: iso(row.recordedAt),
  };
}

/** `dosageInstruction` and `dispenseRequest` from the supply elements (the importer's `medicationSupply`, reversed). */
function dosageAndDispense(row: MedicationRow, supply: MedicationSupply | null): Record<string, unknown> {
  const boundsStart = supply ? supply.boundsStart : row.startDate;
  const boundsEnd = supply ? supply.boundsEnd : row.endDate;
  const repeat = {
    ...optional('boundsPeriod', boundsStart || boundsEnd ? { ...optional('start', boundsStart), ...optional('end', boundsEnd) } : null),
    ...optional('frequency', supply?.frequency),
    ...optional('period', supply?.period),
    ...optional('periodUnit', supply?.periodUnit),
  };
  const dosage = {
    ...optional('text', row.dosageText),
    ...optional('timing', Object.keys(repeat).length ? { repeat } : null),
    ...optional('doseAndRate', supply && supply.dose !== null ? [{ doseQuantity: { value: supply.dose } }] : null),
  };
  const dispense = {
    ...optional('validityPeriod', supply?.validityStart ? { start: supply.validityStart } : null),
    ...optional('numberOfRepeatsAllowed', supply?.refills),
    ...optional('quantity', supply && supply.quantity !== null ? { value: supply.quantity } : null),
    ...optional('expectedSupplyDuration', supply && supply.expectedSupplyDays !== null ? { value: supply.expectedSupplyDays, unit: 'days', system: UCUM, code: 'd' } : null),
  };
  return { dosageInstruction: [dosage], ...optional('dispenseRequest', Object.keys(dispense).length ? dispense : null) };
}

export function medicationRequestResource(row: MedicationRow): FhirResource {
  return {
    resourceType: 'MedicationRequest',
    id: row.id,
    status: row.status,
    ...optional('intent', row.intent),
    ...(row.doNotPerform ? { doNotPerform: true } : {}),
    medicationCodeableConcept: concept(row.codeSystem, row.code, row.display),
    subject: patientRef(row.patientId),
    // The plan's first day when nothing else dates it (the importer reads bounds, then authoredOn).
    authoredOn: row.authoredAt === null ? row.startDate : iso(row.authoredAt),
    ...optional('reasonCode', row.reasonSystem && row.reasonCode ? [concept(row.reasonSystem, row.reasonCode)] : null),
    ...dosageAndDispense(row, row.supply),
  };
}

export function procedureResource(row: ProcedureRow): FhirResource {
  return {
    resourceType: 'Procedure',
    id: row.id,
    status: row.status,
    ...optional('statusReason', row.statusReasonSystem && row.statusReasonCode ? concept(row.statusReasonSystem, row.statusReasonCode) : null),
    code: concept(row.codeSystem, row.code, row.display),
    subject: patientRef(row.patientId),
    ...encounterRef(row.encounterId),
    ...(row.performedEndAt === null ? { performedDateTime: iso(row.performedAt) } : { performedPeriod: { start: iso(row.performedAt), end: iso(row.performedEndAt) } }),
    ...optional('bodySite', row.bodySiteSystem && row.bodySiteCode ? [concept(row.bodySiteSystem, row.bodySiteCode)] : null),
  };
}

export function allergyResource(row: AllergyRow): FhirResource {
  return {
    resourceType: 'AllergyIntolerance',
    id: row.id,
    clinicalStatus: status('allergyintolerance-clinical', row.clinicalStatus),
    verificationStatus: status('allergyintolerance-verification', 'confirmed'),
    code: concept(row.codeSystem, row.code, row.display),
    patient: patientRef(row.patientId),
    ...(row.onsetEndAt !== null
      ? { onsetPeriod: { ...optional('start', row.onsetAt === null ? null : iso(row.onsetAt)), end: iso(row.onsetEndAt) } }
      : optional('onsetDateTime', row.onsetAt === null ? null : iso(row.onsetAt))),
    recordedDate: iso(row.recordedAt),
  };
}

/** Every resource of one patient, by type (notes excepted, see above). */
export function patientResources(record: PatientRecord): Record<FhirResourceType, FhirResource[]> {
  return {
    Patient: [patientResource(record.patient)],
    Encounter: record.encounters.map(encounterResource),
    Observation: observationResources(record.observations),
    Condition: record.conditions.map(conditionResource),
    MedicationRequest: record.medications.map(medicationRequestResource),
    Procedure: record.procedures.map(procedureResource),
    AllergyIntolerance: record.allergies.map(allergyResource),
  };
}

