/**
 * The few FHIR R4 shapes the reference harness reads. (The repo's @types/fhir is STU3; these are
 * deliberately loose: the harness passes resources through to the engine untouched.)
 */
export interface Coding {
  system?: string;
  code?: string;
  display?: string;
}

export interface CodeableConcept {
  coding?: Coding[];
  text?: string;
}

export interface Reference {
  reference?: string;
}

export interface Resource {
  resourceType: string;
  id?: string;
  meta?: { profile?: string[]; [field: string]: unknown };
  [field: string]: unknown;
}

export interface BundleEntry {
  fullUrl?: string;
  resource?: Resource;
}

export interface Bundle {
  resourceType: 'Bundle';
  type?: string;
  entry?: BundleEntry[];
}

export interface Measure extends Resource {
  resourceType: 'Measure';
  url?: string;
  version?: string;
  library?: string[];
  group?: { id?: string; population?: unknown[] }[];
}

/** Library, ValueSet: a canonical resource. */
export interface CanonicalResource extends Resource {
  url?: string;
  version?: string;
}
