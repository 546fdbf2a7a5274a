import { CODE_SYSTEM_PATTERN, CodeSystem, CodeSystemUri, EncounterClass, OBSERVATION_CATEGORY_SYSTEM, ObservationCategory } from '../cohort/enum';
import { asObject, asObjects, asString, Json } from './json';
import { cleanText } from './text';

/**
 * The HL7 OID forms some exporters still write, by the canonical URI the value sets use. Any other
 * system URI is kept as written: the schema stores every system (a CHECK asks only for a URI).
 */
const OID_SYSTEMS: Record<string, CodeSystem> = {
  'urn:oid:2.16.840.1.113883.6.1': CodeSystem.Loinc,
  'urn:oid:2.16.840.1.113883.6.96': CodeSystem.SnomedCt,
  'urn:oid:2.16.840.1.113883.6.90': CodeSystem.Icd10Cm,
  'urn:oid:2.16.840.1.113883.6.4': CodeSystem.Icd10Pcs,
  'urn:oid:2.16.840.1.113883.6.103': CodeSystem.Icd9Cm,
  'urn:oid:2.16.840.1.113883.6.88': CodeSystem.RxNorm,
  'urn:oid:2.16.840.1.113883.6.12': CodeSystem.Cpt,
  'urn:oid:2.16.840.1.113883.6.285': CodeSystem.Hcpcs,
  'urn:oid:2.16.840.1.113883.12.292': CodeSystem.Cvx,
};

const SYSTEM_SHAPE = new RegExp(CODE_SYSTEM_PATTERN.replace('[:space:]', '\\s'));

/** A coding's system as stored: OIDs of known systems become their URI; text that is no URI is no system. */
export function normaliseSystem(value: unknown): CodeSystemUri | null {
  const system = asString(value)?.trim();
  if (!system) return null;
  const canonical = OID_SYSTEMS[system.toLowerCase()] ?? system;
  return SYSTEM_SHAPE.test(canonical) ? canonical : null;
}

export interface Coded {
  system: CodeSystemUri;
  code: string;
  display: string;
}

/** Whether a code belongs to a value set Vigil evaluates (the terminology artifact, when it is installed). */
export type CodePredicate = (system: string, code: string) => boolean;

/**
 * The coding a CodeableConcept is stored as: the first coding a value set knows (`isKnownCode`),
 * else the first in the source's order. Without a predicate that is simply the first coding.
 */
export function preferredCoding<T extends { system: string; code: string }>(codings: readonly T[], isKnownCode?: CodePredicate): T | undefined {
  return (isKnownCode && codings.find((coding) => isKnownCode(coding.system, coding.code))) || codings[0];
}

/** The usable codings of one or more CodeableConcepts, in order: a code and a system URI each. */
export function codingsOf(...concepts: unknown[]): (Coded & { conceptText: string | null })[] {
  return concepts.flatMap((concept) => {
    const object = asObject(concept);
    const conceptText = cleanText(object?.text);
    return asObjects(object?.coding).flatMap((coding) => {
      const code = cleanText(coding.code);
      const system = normaliseSystem(coding.system);
      return code && system ? [{ system, code, display: cleanText(coding.display) ?? conceptText ?? code, conceptText }] : [];
    });
  });
}

/** The codings of one or more concepts other than the stored one, as JSON for an `…other_codings` column (null when none). */
export function otherCodings(concepts: unknown | unknown[], stored: { system: string; code: string } | null): string | null {
  const others = codingsOf(...(Array.isArray(concepts) ? concepts : [concepts]))
    .filter((coding) => coding.system !== stored?.system || coding.code !== stored?.code)
    .map(({ system, code }) => ({ system, code }));
  return stored && others.length > 0 ? JSON.stringify(others) : null;
}

/**
 * The stored coding of a CodeableConcept (or of several, e.g. every `type` of an encounter).
 * `missing`: no coding with a code at all; `no-system`: codes, but none with a system URI. The display
 * falls back to the concept's text, then to the code, so the NOT NULL column is never empty.
 */
export function pickCoding(concepts: unknown | unknown[], isKnownCode?: CodePredicate): Coded | 'missing' | 'no-system' {
  const list = Array.isArray(concepts) ? concepts : [concepts];
  const picked = preferredCoding(codingsOf(...list), isKnownCode);
  if (picked) return { system: picked.system, code: picked.code, display: picked.display };
  const anyCode = list.some((concept) => asObjects(asObject(concept)?.coding).some((coding) => cleanText(coding.code) !== null));
  return anyCode ? 'no-system' : 'missing';
}

/** The first code of a Coding or CodeableConcept, whatever its system (status and class fields). */
export function firstCode(value: unknown): string | undefined {
  const object = asObject(value);
  if (!object) return undefined;
  const direct = cleanText(object.code);
  if (direct) return direct;
  for (const coding of asObjects(object.coding)) {
    const code = cleanText(coding.code);
    if (code) return code;
  }
  return undefined;
}

/**
 * HL7 v3 ActCode encounter classes (the ActEncounterCode value set, all of it) → the schema's
 * classes. ACUTE/NONAC are inpatient kinds, SS (short stay) an observation stay; FLD (field) and
 * PRENC (pre-admission) happen outside a bed, so they are ambulatory.
 */
export const ENCOUNTER_CLASSES: Record<string, EncounterClass> = {
  AMB: EncounterClass.Ambulatory,
  FLD: EncounterClass.Ambulatory,
  PRENC: EncounterClass.Ambulatory,
  EMER: EncounterClass.Emergency,
  IMP: EncounterClass.Inpatient,
  ACUTE: EncounterClass.Inpatient,
  NONAC: EncounterClass.Inpatient,
  OBSENC: EncounterClass.Observation,
  SS: EncounterClass.Observation,
  VR: EncounterClass.Virtual,
  HH: EncounterClass.Home,
};

/** What an encounter whose class is missing or unknown is stored as (with a warning): the most common, least specific class. */
export const FALLBACK_ENCOUNTER_CLASS = EncounterClass.Ambulatory;

/**
 * When an observation has several categories, the first of these (HL7 system) is the row's: the
 * laboratory tool and the measures read them. Otherwise the first HL7 category, else the first
 * coding of any system, in the source's order.
 */
const PREFERRED_CATEGORIES: readonly string[] = [ObservationCategory.Laboratory, ObservationCategory.VitalSigns, ObservationCategory.Survey];

/**
 * The category an observation is stored with: a code and its system exactly as the source gave them,
 * never recoded (R4's binding is *preferred*: US Core's `screening-assessment` or a LOINC part code is
 * as valid as `laboratory`, and dropping the resource would lose it). `null`: the source gave no
 * category with a system (R4 makes category optional); the row is kept, and no tool takes it for a
 * laboratory result.
 */
export function observationCategory(categories: Json[]): { system: CodeSystemUri; code: string } | null {
  const codings = codingsOf(...categories);
  const hl7 = codings.filter((coding) => coding.system === OBSERVATION_CATEGORY_SYSTEM);
  const chosen = PREFERRED_CATEGORIES.map((code) => hl7.find((coding) => coding.code === code)).find(Boolean) ?? hl7[0] ?? codings[0];
  return chosen ? { system: chosen.system, code: chosen.code } : null;
}
