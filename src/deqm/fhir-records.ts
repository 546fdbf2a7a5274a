import { ENCOUNTER_CLASS_V3_CODE, EncounterClass, OBSERVATION_CATEGORY_SYSTEM } from '../cohort/enum';
import { FhirResource, QICORE } from './fhir-profiles';

/**
 * The patient and the cited rows of a gaps-in-care document as QI-Core resources, built only from
 * what the caller's projection let through (a field the role may not see is simply absent). Only
 * what a report needs leaves: the patient's identity (MRN, name, birth date, gender), never how to
 * reach them, and an encounter without its notes.
 */

type Row = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
/** A stored row id (`obs:<uuid>`) without its kind: the resource id and `urn:uuid:` full URL. */
export const rowUuid = (citation: unknown): string => String(citation).slice(String(citation).indexOf(':') + 1);
export const urn = (id: string): string => `urn:uuid:${id}`;

/** Where MRNs come from: Vigil's own record of the patient (the practice's MRN as imported). */
export const MRN_SYSTEM = 'urn:vigil:mrn';
const DATA_ABSENT = 'http://hl7.org/fhir/StructureDefinition/data-absent-reason';
/** An element present only to say its value is unknown (the profile requires it; Vigil does not hold it). */
export const unknownElement = () => ({ extension: [{ url: DATA_ABSENT, valueCode: 'unknown' }] });

const coding = (system: unknown, code: unknown, display?: unknown) =>
  str(code) ? { coding: [{ ...(str(system) ? { system: str(system) } : {}), code: str(code), ...(str(display) ? { display: str(display) } : {}) }], ...(str(display) ? { text: str(display) } : {}) } : undefined;
/** A concept from a coding when there is one, else its words, else an explicit unknown. */
const concept = (system: unknown, code: unknown, display?: unknown) => coding(system, code, display) ?? (str(display) ? { text: str(display) } : { text: 'unknown' });

export function patientResource(patient: Row): FhirResource {
  const id = String(patient.handle);
  return {
    resourceType: 'Patient',
    id,
    meta: { profile: [QICORE.patient] },
    identifier: str(patient.mrn)
      ? [{ type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] }, system: MRN_SYSTEM, value: str(patient.mrn) }]
      : [{ system: 'urn:ietf:rfc:3986', value: urn(id) }],
    name: [str(patient.familyName) || str(patient.givenName) ? { ...(str(patient.familyName) ? { family: str(patient.familyName) } : {}), ...(str(patient.givenName) ? { given: [str(patient.givenName)] } : {}) } : { text: 'unknown' }],
    gender: str(patient.sex) ?? 'unknown',
    ...(str(patient.birthDate) ? { birthDate: str(patient.birthDate) } : {}),
    ...(str(patient.deceasedAt) ? { deceasedDateTime: str(patient.deceasedAt) } : {}),
  };
}

/**
 * The reporting organisation: Vigil itself. It claims no DEQM organisation profile: that profile
 * requires an NPI, EIN or CCN (deqm-3) and the practice's address and telecom, none of which Vigil
 * holds, and none is invented.
 */
export const REPORTER_ID = '5a3c9f0e-6d1b-4c52-9b7e-0b6f1d2a7c41';
export function reporterResource(): FhirResource {
  return { resourceType: 'Organization', id: REPORTER_ID, identifier: [{ system: 'urn:ietf:rfc:3986', value: urn(REPORTER_ID) }], active: true, name: 'Vigil' };
}

export function observationResource(row: Row, patientRef: string): FhirResource {
  const value = num(row.value);
  const low = num(row.referenceLow);
  const high = num(row.referenceHigh);
  const quantity = (amount: number) => ({ value: amount, ...(str(row.unit) ? { unit: str(row.unit), system: 'http://unitsofmeasure.org', code: str(row.unit) } : {}) });
  return {
    resourceType: 'Observation',
    id: rowUuid(row.citation),
    meta: { profile: [QICORE.observation] },
    status: str(row.status) ?? 'unknown',
    category: [str(row.category) ? { coding: [{ system: OBSERVATION_CATEGORY_SYSTEM, code: str(row.category) }] } : { text: 'unknown' }],
    code: concept(row.codeSystem, row.code, row.display),
    subject: { reference: patientRef },
    ...(str(row.effectiveAt) ? { effectiveDateTime: str(row.effectiveAt) } : {}),
    ...(value !== undefined ? { valueQuantity: quantity(value) } : str(row.valueText) ? { valueString: str(row.valueText) } : {}),
    ...(str(row.interpretation) ? { interpretation: [{ text: str(row.interpretation) }] } : {}),
    ...(low !== undefined || high !== undefined || str(row.referenceText)
      ? { referenceRange: [{ ...(low !== undefined ? { low: quantity(low) } : {}), ...(high !== undefined ? { high: quantity(high) } : {}), ...(str(row.referenceText) ? { text: str(row.referenceText) } : {}) }] }
      : {}),
  };
}

export function encounterResource(row: Row, patientRef: string): FhirResource {
  const encounterClass = str(row.class) as EncounterClass | undefined;
  const period = { ...(str(row.start) ? { start: str(row.start) } : {}), ...(str(row.end) ? { end: str(row.end) } : {}) };
  return {
    resourceType: 'Encounter',
    id: rowUuid(row.citation),
    meta: { profile: [QICORE.encounter] },
    status: str(row.status) ?? 'unknown',
    class: encounterClass && ENCOUNTER_CLASS_V3_CODE[encounterClass]
      ? { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: ENCOUNTER_CLASS_V3_CODE[encounterClass], display: encounterClass }
      : { system: 'http://terminology.hl7.org/CodeSystem/v3-NullFlavor', code: 'UNK' },
    type: [concept(row.typeSystem, row.typeCode, row.typeDisplay)],
    subject: { reference: patientRef },
    ...(Object.keys(period).length ? { period } : {}),
    ...(str(row.reasonCode) || str(row.reasonDisplay) ? { reasonCode: [concept(row.reasonSystem, row.reasonCode, row.reasonDisplay)] } : {}),
  };
}

export function conditionResource(row: Row, patientRef: string): FhirResource {
  const hl7 = (name: string, code: unknown) => (str(code) ? { coding: [{ system: `http://terminology.hl7.org/CodeSystem/${name}`, code: str(code) }] } : undefined);
  return {
    resourceType: 'Condition',
    id: rowUuid(row.citation),
    meta: { profile: [QICORE.condition] },
    ...(hl7('condition-clinical', row.clinicalStatus) ? { clinicalStatus: hl7('condition-clinical', row.clinicalStatus) } : {}),
    ...(hl7('condition-ver-status', row.verificationStatus) ? { verificationStatus: hl7('condition-ver-status', row.verificationStatus) } : {}),
    category: [hl7('condition-category', row.category) ?? { text: 'unknown' }],
    code: concept(row.codeSystem, row.code, row.display),
    subject: { reference: patientRef },
    ...(str(row.onsetDate) ? { onsetDateTime: str(row.onsetDate) } : {}),
    ...(str(row.abatementDate) ? { abatementDateTime: str(row.abatementDate) } : {}),
    ...(str(row.recordedAt) ? { recordedDate: str(row.recordedAt) } : {}),
  };
}
