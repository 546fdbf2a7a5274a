import { Coded, CodePredicate, pickCoding } from './codes';
import { Json, asString } from './json';
import { CodeTarget, EncounterTarget, PatientTarget, referenceOf, rowIdIn, TargetIndex } from './references';
import { Position, SkipResource, SupportedType } from './fhir-import.types';
import { parseFhirDate } from './text';

/** One source resource, as read: its type and source id are known and checked. */
export interface SourceResource {
  type: SupportedType;
  sourceId: string;
  resource: Json;
  fullUrl?: string;
  position: Position;
}

/** What mapping may look up: the care team new patients join and the targets written so far. */
export interface MapContext {
  /** `--care-team`: the team every patient joins; null without it (CareTeams of the input give the teams). */
  careTeamId: string | null;
  /** The id namespace of the source system (`--source`). */
  namespace: string;
  patients: TargetIndex<PatientTarget>;
  encounters: TargetIndex<EncounterTarget>;
  /** Medications and Devices of this import, for `medicationReference` and `codeReference`. */
  medications: TargetIndex<CodeTarget>;
  devices: TargetIndex<CodeTarget>;
  /** Locations of this import, by their `type` (an encounter's location is read by its type: CMS136's ambulatory psychotherapy). */
  locations: TargetIndex<CodeTarget>;
  /** Prefers, among several codings, one a value set knows (see `preferredCoding`). */
  isKnownCode?: CodePredicate;
  /** "Now", for the birth-date check; fixed in tests. */
  nowMillis: number;
}

export const idOf = (context: Pick<MapContext, 'namespace'>, source: SourceResource, ...parts: string[]) =>
  rowIdIn(context.namespace, `${source.type}/${source.sourceId}`, ...parts);

/** The patient a resource belongs to; a resource whose patient is unknown is skipped. */
export function patientOf(context: MapContext, element: unknown): PatientTarget {
  const reference = referenceOf(element);
  if (reference === undefined) throw new SkipResource('no subject reference');
  const resolved = context.patients.resolve(reference);
  if ('found' in resolved) return resolved.found;
  if ('skipped' in resolved) throw new SkipResource('subject patient was itself skipped');
  throw new SkipResource('subject reference does not resolve to a Patient in this import');
}

/**
 * The encounter a record was made in, if any. An encounter that is not in the import is dropped
 * with a warning (the record stands on its own); one that belongs to another patient is a skip.
 */
export function encounterOf(context: MapContext, element: unknown, patient: PatientTarget, warnings: string[]): string | null {
  const reference = referenceOf(element);
  if (reference === undefined) return null;
  const resolved = context.encounters.resolve(reference);
  if ('found' in resolved) {
    if (resolved.found.patientRowId !== patient.rowId) throw new SkipResource('encounter belongs to another patient');
    return resolved.found.rowId;
  }
  warnings.push('encounter reference does not resolve (loaded without the encounter link)');
  return null;
}

/** A required point in time, as a timestamptz value; absent, partial or impossible dates are skips. */
export function requiredInstant(value: unknown, field: string): { instant: string; day: string; millis: number } {
  const parsed = parseFhirDate(value);
  if (!parsed.ok) throw new SkipResource(`${field} ${parsed.problem === 'missing' ? 'missing' : `is ${parsed.problem}`}`);
  return parsed;
}

/** An optional point in time: absent is null; present but partial or impossible is a skip. */
export function optionalInstant(value: unknown, field: string): { instant: string; day: string; millis: number } | null {
  return value === undefined ? null : requiredInstant(value, field);
}

/** A date that may be absent, partial or impossible without costing the resource: null, with a warning. */
export function lenientInstant(value: unknown, field: string, warnings: string[]): { instant: string; day: string; millis: number } | null {
  if (value === undefined) return null;
  const parsed = parseFhirDate(value);
  if (parsed.ok) return parsed;
  warnings.push(`${field} ${parsed.problem === 'missing' ? 'missing' : `is ${parsed.problem}`} (left empty)`);
  return null;
}

/** The first of several `[x]` choices that is present (e.g. effectiveDateTime, effectivePeriod.start). */
export function firstPresent(...values: unknown[]): unknown {
  return values.find((value) => value !== undefined && value !== null);
}

/**
 * A status through a mapping to the schema's vocabulary. The reason names the status only when it
 * is one of the FHIR value set's codes, so no free text from the record reaches the summary.
 */
export function mappedStatus<T extends string>(value: unknown, mapping: Record<string, T>, fhirCodes: readonly string[], field = 'status'): T {
  const code = asString(value)?.trim();
  if (code === undefined || code === '') throw new SkipResource(`${field} missing`);
  const mapped = mapping[code];
  if (mapped) return mapped;
  throw new SkipResource(`${field} outside the schema (${fhirCodes.includes(code) ? code : 'unrecognised code'})`);
}

export const afterDeath = (patient: PatientTarget, millis: number) => patient.deceasedAtMillis !== null && millis > patient.deceasedAtMillis;

/** A required code: the stored coding (see `pickCoding`), or a skip saying what is missing. */
export function requiredCode(context: MapContext, concepts: unknown | unknown[], what = 'code'): Coded {
  const picked = pickCoding(concepts, context.isKnownCode);
  if (picked === 'missing') throw new SkipResource(`${what} missing`);
  if (picked === 'no-system') throw new SkipResource(`${what} has no code system URI`);
  return picked;
}

/** An optional code (a reason, a body site…): null when absent; a code without a system is left empty, with a warning. */
export function optionalCode(context: MapContext, concepts: unknown | unknown[], what: string, warnings: string[]): Coded | null {
  const picked = pickCoding(concepts, context.isKnownCode);
  if (picked === 'no-system') warnings.push(`${what} has no code system URI (left empty)`);
  return typeof picked === 'string' ? null : picked;
}

/** A vocabulary as a mapping from each of its codes to itself. */
export const identity = <T extends string>(values: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.values(values).map((value) => [value, value]));

/** A Period with a start and no end: FHIRHelpers `Interval[start, null]`, which runs to the end of time. */
export const openPeriod = (period: Record<string, unknown> | undefined): boolean => period?.start !== undefined && period.end === undefined;
