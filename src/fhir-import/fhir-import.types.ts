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
  'Procedure',
  'AllergyIntolerance',
] as const;
export type SupportedType = (typeof SUPPORTED_TYPES)[number];

export const isSupportedType = (value: string): value is SupportedType => (SUPPORTED_TYPES as readonly string[]).includes(value);

/** The cohort tables the import writes. */
export type TableName =
  | 'patients'
  | 'patient_care_teams'
  | 'encounters'
  | 'observations'
  | 'conditions'
  | 'medications'
  | 'procedures'
  | 'allergies';

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
