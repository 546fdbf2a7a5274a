/**
 * Which resources a retrieve's profile (its ELM `templateId`) selects. The reference engine runs
 * with profile checking on (fqm-execution's trustMetaProfile): a resource is returned only when its
 * `meta.profile` names the retrieve's profile, unless that profile is the base FHIR resource's.
 * The stewards' test cases are tagged; data from elsewhere usually is not, so an untagged resource
 * is given the profiles a QI-Core server would tag it with (QI-Core 4.1.1, as the differential
 * harness does, and the QI-Core 6 / US Core 6.1 profiles the 2025 measures retrieve).
 */

const QICORE = 'http://hl7.org/fhir/us/qicore/StructureDefinition/';
const USCORE = 'http://hl7.org/fhir/us/core/StructureDefinition/';
const FHIR_BASE = 'http://hl7.org/fhir/StructureDefinition/';
const LOINC = 'http://loinc.org';

interface Coding {
  system?: string;
  code?: string;
}
interface Resource {
  resourceType: string;
  meta?: { profile?: string[] };
  [field: string]: unknown;
}

/** True when the retrieve's profile is the FHIR base resource (every resource of the type matches). */
export function isBaseProfile(templateId: string, resourceType: string): boolean {
  return templateId === `${FHIR_BASE}${resourceType}`;
}

/** LOINC panel and vital-sign codes that make an Observation one of FHIR's or US Core's vital-sign profiles. */
const VITALS: readonly [code: string, fhir: string | null, usCore: string][] = [
  ['85354-9', 'bp', 'us-core-blood-pressure'],
  ['39156-5', 'bmi', 'us-core-bmi'],
  ['8867-4', 'heartrate', 'us-core-heart-rate'],
  ['29463-7', 'bodyweight', 'us-core-body-weight'],
  ['8302-2', 'bodyheight', 'us-core-body-height'],
  ['8310-5', 'bodytemp', 'us-core-body-temperature'],
  ['9279-1', 'resprate', 'us-core-respiratory-rate'],
  ['59408-5', null, 'us-core-pulse-oximetry'],
  ['59576-9', null, 'pediatric-bmi-for-age'],
  ['72166-2', null, 'us-core-smokingstatus'],
  ['82810-3', null, 'us-core-observation-pregnancystatus'],
];

/**
 * Smoking-status codes beyond 72166-2 (which the table above tags whatever its category): tobacco use
 * status and history of tobacco use, as social-history Observations. The stewards' 2025 tobacco
 * measure (CMS138) retrieves its screenings by this profile, and its cases tag 39240-7 with it.
 */
const SMOKING_STATUS_CODES: readonly string[] = ['39240-7', '11367-0'];

/** The codings of a concept or list of them: `flatMap(codings)` over a list, as a loop (it runs for every resource of a patient). */
const codings = (value: unknown): Coding[] => {
  if (!Array.isArray(value)) return (value as { coding?: Coding[] } | undefined)?.coding ?? [];
  const out: Coding[] = [];
  for (const item of value) {
    const found = codings(item);
    // flatMap flattens an array one level and keeps anything else as one item (a malformed `coding`).
    if (Array.isArray(found)) for (const coding of found) out.push(coding);
    else out.push(found);
  }
  return out;
};
const hasCode = (list: readonly Coding[], system: string, code: string) => list.some((c) => c.system === system && c.code === code);
const categoryCodes = (resource: Resource) => new Set(codings(resource.category).map((c) => c.code));

/** The profiles a QI-Core server would tag an untagged resource with. */
export function inferProfiles(resource: Resource): string[] {
  const type = resource.resourceType;
  const qi = (name: string) => `${QICORE}${name}`;
  switch (type) {
    case 'Observation': {
      const profiles = [qi('qicore-observation'), qi('qicore-simple-observation'), qi('qicore-observation-clinical-result')];
      const categories = categoryCodes(resource);
      // Flattened once: each test below reads the same codings.
      const codes = codings(resource.code);
      if (categories.has('laboratory')) profiles.push(qi('qicore-observation-lab'), `${USCORE}us-core-observation-lab`);
      if (categories.has('survey') || categories.has('screening-assessment')) profiles.push(qi('qicore-observation-screening-assessment'));
      if (resource.status === 'cancelled') profiles.push(qi('qicore-observationcancelled'), qi('qicore-observationnotdone'));
      if (categories.has('social-history') && SMOKING_STATUS_CODES.some((code) => hasCode(codes, LOINC, code))) profiles.push(`${USCORE}us-core-smokingstatus`);
      for (const [code, fhir, usCore] of VITALS) {
        if (!hasCode(codes, LOINC, code)) continue;
        if (fhir) profiles.push(`${FHIR_BASE}${fhir}`);
        profiles.push(`${USCORE}${usCore}`, `${USCORE}us-core-vital-signs`);
      }
      return profiles;
    }
    case 'Condition': {
      const categories = categoryCodes(resource);
      const profiles = [qi('qicore-condition')];
      if (categories.has('encounter-diagnosis')) profiles.push(qi('qicore-condition-encounter-diagnosis'));
      if (categories.has('problem-list-item') || categories.has('health-concern') || categories.size === 0) profiles.push(qi('qicore-condition-problems-health-concerns'));
      return profiles;
    }
    case 'MedicationRequest':
      return resource.doNotPerform === true ? [qi('qicore-mednotrequested'), qi('qicore-medicationnotrequested')] : [qi('qicore-medicationrequest')];
    case 'ServiceRequest':
      return [qi(resource.doNotPerform === true ? 'qicore-servicenotrequested' : 'qicore-servicerequest')];
    case 'Procedure':
      return [qi(resource.status === 'not-done' ? 'qicore-procedurenotdone' : 'qicore-procedure')];
    case 'Immunization':
      return [qi(resource.status === 'not-done' ? 'qicore-immunizationnotdone' : 'qicore-immunization')];
    case 'MedicationAdministration':
      return resource.status === 'not-done' ? [qi('qicore-mednotadministered'), qi('qicore-medicationadministrationnotdone')] : [qi('qicore-medicationadministration')];
    case 'Communication':
      return [qi(resource.status === 'not-done' ? 'qicore-communicationnotdone' : 'qicore-communication')];
    case 'Task':
      return [qi(resource.status === 'rejected' ? 'qicore-taskrejected' : 'qicore-task')];
    case 'DiagnosticReport':
      return [qi(categoryCodes(resource).has('LAB') ? 'qicore-diagnosticreport-lab' : 'qicore-diagnosticreport-note')];
    case 'Specimen':
      return [qi('qicore-specimen'), `${USCORE}us-core-specimen`];
    default:
      // The stewards tag a DeviceRequest with qicore-doNotPerform = true as qicore-devicerequest too;
      // the CQL reads the extension itself.
      return [qi(`qicore-${type.toLowerCase()}`)];
  }
}

/** The profiles a resource is retrieved under: its own tags, or the inferred ones when it has none. */
export function profilesOf(resource: Resource, infer: boolean): readonly string[] {
  const tagged = resource.meta?.profile;
  if (tagged && tagged.length > 0) return tagged;
  return infer ? inferProfiles(resource) : [];
}
