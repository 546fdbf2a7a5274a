/** FHIR R4 datatypes as JSON, built from stored columns (a null column leaves its element out). */

export type Json = Record<string, unknown>;

export function coding(system: string | null, code: string, display?: string | null): Json {
  // Assigned in order rather than spread from conditional objects: the same JSON, and the adapter's hottest line.
  const out: Json = {};
  if (system !== null) out.system = system;
  out.code = code;
  if (display) out.display = display;
  return out;
}

/** A CodeableConcept of one coding: the importer stores the one coding the measures' value sets know, else the first. */
export function codeable(system: string | null, code: string, display?: string | null): Json {
  return { coding: [coding(system, code, display)] };
}

/** A CodeableConcept when the code was stored, else nothing (for spreading into a resource). */
export function optionalCodeable(field: string, system: string | null, code: string | null, display?: string | null): Json {
  return code === null ? {} : { [field]: codeable(system, code, display) };
}

/**
 * A stored instant as a FHIR dateTime to the millisecond. The rows keep an exact instant and read it
 * to the second; a dateTime of seconds' precision is uncertain, in CQL, against the measurement
 * period's millisecond bounds within its boundary second (an encounter starting at the period's
 * first instant would be neither in the period nor out of it), where the source's instant was not.
 */
export function instant(text: string): string;
export function instant(text: string | null): string | null;
export function instant(text: string | null): string | null {
  return text !== null && /T\d{2}:\d{2}:\d{2}Z$/.test(text) ? `${text.slice(0, -1)}.000Z` : text;
}

/** A Period of stored instants; an open one (started, still going) has no end. */
export function period(start: string | null, end: string | null): Json {
  return { ...(start !== null ? { start: instant(start) } : {}), ...(end !== null ? { end: instant(end) } : {}) };
}

export const patientReference = (id: string): Json => ({ reference: `Patient/${id}` });
export const encounterReference = (id: string): Json => ({ reference: `Encounter/${id}` });
