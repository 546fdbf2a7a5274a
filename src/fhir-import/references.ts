import { v5 as uuidv5 } from 'uuid';
import { asObject, asString, Json } from './json';
import { cleanText } from './text';

/**
 * Namespace of the ids of imported rows: a row's id is a v5 UUID of its source identity
 * (`Patient/<id>`, `Observation/<id>#<code>` …), so importing the same resource again finds the
 * same row. Distinct from the fixture namespace, so imported and fixture ids never collide. This is
 * the namespace of the default source; every other `--source` gets its own (`sourceNamespace`).
 */
const IMPORT_NAMESPACE = '8d7b2f6e-31a4-4c55-9e0b-6a2f1c9d4e73';

/** The source an import belongs to when none is named: its ids are those imports always had. */
export const DEFAULT_SOURCE = 'default';

/** A source name: short, and plain enough to appear in a command line and a log. */
export const SOURCE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * The id namespace of a source system: two EHRs' `Patient/123` are different patients, so each
 * source has its own namespace, derived from its name (stable: the same name gives the same ids).
 */
export function sourceNamespace(source: string = DEFAULT_SOURCE): string {
  return source === DEFAULT_SOURCE ? IMPORT_NAMESPACE : uuidv5(`source:${source}`, IMPORT_NAMESPACE);
}

/** A resource's id, or for a Bundle entry without one the uuid of its `urn:uuid:` fullUrl ('' when neither). */
export function sourceIdOf(resource: Json, fullUrl?: string): string {
  return cleanText(resource.id) ?? /^urn:uuid:(.+)$/i.exec(fullUrl ?? '')?.[1]?.toLowerCase() ?? '';
}

/** The row id of a source identity in a namespace (the default source's when none is given). */
export const rowIdIn = (namespace: string, ...parts: string[]): string => uuidv5(parts.join('#'), namespace);

export const rowId = (...parts: string[]): string => rowIdIn(IMPORT_NAMESPACE, ...parts);

/**
 * The keys a reference may use for a resource: `Type/id`, `urn:uuid:<id>` (bulk NDJSON exports
 * such as SMART's write references this way although there is no Bundle) and the entry's fullUrl.
 */
export function keysOf(type: string, id: string, fullUrl?: string): string[] {
  const keys = [`${type}/${id}`, `urn:uuid:${id.toLowerCase()}`];
  if (fullUrl) keys.push(normaliseReference(fullUrl) ?? fullUrl);
  return [...new Set(keys)];
}

/**
 * A reference string in a comparable form: `urn:uuid:`/`urn:oid:` as written (lower-cased uuid),
 * `Type/id` for relative and absolute RESTful references (a `_history` suffix dropped).
 */
export function normaliseReference(reference: string): string | undefined {
  const value = reference.trim();
  if (/^urn:uuid:/i.test(value)) return `urn:uuid:${value.slice(9).toLowerCase()}`;
  if (/^urn:oid:/i.test(value)) return value;
  const match = /(?:^|\/)([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/.exec(value);
  return match ? `${match[1]}/${match[2]}` : undefined;
}

/** The reference string of a Reference element, normalised; undefined when there is none. */
export function referenceOf(element: unknown): string | undefined {
  const reference = asString(asObject(element)?.reference);
  return reference ? normaliseReference(reference) ?? reference.trim() : undefined;
}

export interface PatientTarget {
  rowId: string;
  deceasedAtMillis: number | null;
}

/** A Medication or Device of this import, by the code a request naming it is stored with. */
export interface CodeTarget {
  concept: unknown;
}

export interface EncounterTarget {
  rowId: string;
  patientRowId: string;
}

/** What a reference resolves to: the target, a target that was itself skipped, or nothing. */
export type Resolution<T> = { found: T } | { skipped: true } | { dangling: true };

/**
 * Resources of one type this import has written (or refused), by every key a reference may use.
 * Only written targets resolve; a reference to a refused one is reported as such, not as dangling.
 */
export class TargetIndex<T> {
  private readonly targets = new Map<string, T | null>();

  add(keys: string[], target: T): void {
    keys.forEach((key) => this.targets.set(key, target));
  }

  refuse(keys: string[]): void {
    keys.forEach((key) => {
      if (!this.targets.get(key)) this.targets.set(key, null);
    });
  }

  resolve(reference: string | undefined): Resolution<T> {
    const target = reference === undefined ? undefined : this.targets.get(reference);
    if (target === undefined) return { dangling: true };
    return target === null ? { skipped: true } : { found: target };
  }

  get size(): number {
    return this.targets.size;
  }
}

/**
 * A reference to another record of this import as `Type/<row id>`: the id that record's row has (a
 * row id is a function of its source reference), so a measure following the reference by id finds
 * the resource `chartToFhir` makes of that row. Null for a reference that names no type (`#id`, a
 * `urn:uuid:` reference, whose type is not in it): such a link cannot be rebuilt.
 */
export function recordReference(namespace: string, element: unknown): string | null {
  const match = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/.exec(referenceOf(element) ?? '');
  return match ? `${match[1]}/${rowIdIn(namespace, `${match[1]}/${match[2]}`)}` : null;
}
