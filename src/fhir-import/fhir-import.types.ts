/** Where a resource was read: a line of an NDJSON file, an entry of a Bundle, or a file holding one resource. */
export interface Position {
  /** Path relative to the folder (or file) given to the import, with `/` separators. */
  file: string;
  /** 1-based line of an NDJSON file. */
  line?: number;
  /** 0-based index of `Bundle.entry`. */
  entry?: number;
}

export function formatPosition(position: Position): string {
  if (position.line !== undefined) return `${position.file}:${position.line}`;
  if (position.entry !== undefined) return `${position.file} entry[${position.entry}]`;
  return position.file;
}

/** The resource types the import loads, in the order their rows may depend on each other. */
export const SUPPORTED_TYPES = [
  'Patient',
  'Encounter',
  'Observation',
  'Condition',
  'MedicationRequest',
  'MedicationDispense',
  'Procedure',
  'AllergyIntolerance',
  'ServiceRequest',
  'DeviceRequest',
  'AdverseEvent',
  'Immunization',
  'Communication',
  'MedicationAdministration',
  'Task',
] as const;
export type SupportedType = (typeof SUPPORTED_TYPES)[number];

/**
 * People and teams: Practitioners become staff members (their roles from PractitionerRoles), and
 * CareTeams care teams with their members and patients. Listed in the summary when the input has them.
 */
export const DIRECTORY_TYPES = ['Practitioner', 'PractitionerRole', 'CareTeam'] as const;
export type DirectoryType = (typeof DIRECTORY_TYPES)[number];
export const isDirectoryType = (value: string): value is DirectoryType => (DIRECTORY_TYPES as readonly string[]).includes(value);

/**
 * Resource types that are read and counted as "accepted (not stored)": where (organisations,
 * locations), payers (coverage, claims), provenance, and the Medications and Devices that requests
 * name (their codes are read into the requests). None is a clinical record of its own, so the cohort
 * has no table for them; any other type is skipped as unsupported. (A Practitioner that no
 * PractitionerRole of the import makes staff is counted here too: see `DirectoryImport`.)
 */
export const ACCEPTED_TYPES = [
  'Medication',
  'Device',
  'Coverage',
  'Organization',
  'Location',
  'HealthcareService',
  'Endpoint',
  'RelatedPerson',
  'Person',
  'Group',
  'Substance',
  'Provenance',
  'AuditEvent',
  'Claim',
  'ClaimResponse',
  'ExplanationOfBenefit',
  'Account',
  'CoverageEligibilityRequest',
  'CoverageEligibilityResponse',
  'EnrollmentRequest',
  'EnrollmentResponse',
  'PaymentNotice',
  'PaymentReconciliation',
  'Schedule',
  'Slot',
] as const;
export type AcceptedType = (typeof ACCEPTED_TYPES)[number];

export const isAcceptedType = (value: string): value is AcceptedType => (ACCEPTED_TYPES as readonly string[]).includes(value);

export const isSupportedType = (value: string): value is SupportedType => (SUPPORTED_TYPES as readonly string[]).includes(value);

/** The cohort tables the import writes. */
export type TableName =
  | 'patients'
  | 'patient_care_teams'
  | 'encounters'
  | 'observations'
  | 'conditions'
  | 'medications'
  | 'medication_dispenses'
  | 'procedures'
  | 'allergies'
  | 'clinical_requests'
  | 'adverse_events'
  | 'immunizations'
  | 'communications'
  | 'medication_administrations'
  | 'tasks';

/** One row as column → value; every value goes to Postgres as text (or null) and is cast there. */
export type Row = Record<string, string | null>;

/** What one resource becomes: all of its rows (written together or not at all) and what was odd about it. */
export interface MappedResource {
  type: SupportedType;
  /** `Type/id` of the source: the identity that makes a re-import an update, not a copy. */
  key: string;
  position: Position;
  rows: Partial<Record<TableName, Row[]>>;
  /** Oddities that did not stop the resource from loading (counted in the summary). */
  warnings: string[];
}

/** A resource that could not be loaded, and why (a fixed phrase: never a value from the record). */
export class SkipResource extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SkipResource';
  }
}

/** What writing a resource did to the database. */
export type WriteOutcome = 'loaded' | 'updated' | 'unchanged';
