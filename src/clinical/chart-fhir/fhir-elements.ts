/** FHIR R4 datatypes as JSON, built from stored columns (a null column leaves its element out). */

export type Json = Record<string, unknown>;

export function coding(system: string | null, code: string, display?: string | null): Json {
  return { ...(system !== null ? { system } : {}), code, ...(display ? { display } : {}) };
}

/** A CodeableConcept of one coding: the importer stores the one coding the measures' value sets know, else the first. */
export function codeable(system: string | null, code: string, display?: string | null): Json {
  return { coding: [coding(system, code, display)] };
}

/** A CodeableConcept when the code was stored, else nothing (for spreading into a resource). */
export function optionalCodeable(field: string, system: string | null, code: string | null, display?: string | null): Json {
  return code === null ? {} : { [field]: codeable(system, code, display) };
}

/** A Period; an open one (started, still going) has no end. */
export function period(start: string | null, end: string | null): Json {
  return { ...(start !== null ? { start } : {}), ...(end !== null ? { end } : {}) };
}

export const patientReference = (id: string): Json => ({ reference: `Patient/${id}` });
export const encounterReference = (id: string): Json => ({ reference: `Encounter/${id}` });
