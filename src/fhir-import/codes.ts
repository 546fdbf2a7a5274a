import { CodeSystem, EncounterClass, ObservationCategory } from '../cohort/enum';
import { asObject, asObjects, asString, Json } from './json';
import { cleanText } from './text';

/**
 * Code systems by every name they arrive under: the canonical FHIR URI (what the schema stores) and
 * the HL7 OID forms some exporters still write.
 */
const SYSTEM_ALIASES: Record<string, CodeSystem> = {
  [CodeSystem.Loinc]: CodeSystem.Loinc,
  'urn:oid:2.16.840.1.113883.6.1': CodeSystem.Loinc,
  [CodeSystem.SnomedCt]: CodeSystem.SnomedCt,
  'urn:oid:2.16.840.1.113883.6.96': CodeSystem.SnomedCt,
  [CodeSystem.Icd10Cm]: CodeSystem.Icd10Cm,
  'urn:oid:2.16.840.1.113883.6.90': CodeSystem.Icd10Cm,
  [CodeSystem.RxNorm]: CodeSystem.RxNorm,
  'urn:oid:2.16.840.1.113883.6.88': CodeSystem.RxNorm,
  [CodeSystem.Cpt]: CodeSystem.Cpt,
  'urn:oid:2.16.840.1.113883.6.12': CodeSystem.Cpt,
};

/** The systems each table's CHECK constraint allows. */
export const ALLOWED_SYSTEMS = {
  encounter: Object.values(CodeSystem),
  observation: Object.values(CodeSystem),
  condition: [CodeSystem.SnomedCt, CodeSystem.Icd10Cm],
  medication: [CodeSystem.RxNorm],
  procedure: [CodeSystem.Cpt, CodeSystem.SnomedCt, CodeSystem.Loinc],
  allergy: Object.values(CodeSystem),
} satisfies Record<string, CodeSystem[]>;

export interface Coded {
  system: CodeSystem;
  code: string;
  display: string;
}

/**
 * The first coding of a CodeableConcept (in the source's order) whose system the table allows.
 * `missing`: no coding with a code at all; `disallowed`: codings exist, none in an allowed system.
 * The display falls back to the concept's text, then to the code, so the NOT NULL column is never empty.
 */
export function pickCoding(concept: unknown, allowed: readonly CodeSystem[]): Coded | 'missing' | 'disallowed' {
  const object = asObject(concept);
  const codings = asObjects(object?.coding).filter((coding) => cleanText(coding.code) !== null);
  if (codings.length === 0) return 'missing';
  for (const coding of codings) {
    const system = SYSTEM_ALIASES[asString(coding.system)?.trim() ?? ''];
    if (system && allowed.includes(system)) {
      const code = cleanText(coding.code) as string;
      return { system, code, display: cleanText(coding.display) ?? cleanText(object?.text) ?? code };
    }
  }
  return 'disallowed';
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
 * HL7 v3 ActCode encounter classes → the schema's classes. ACUTE/NONAC are inpatient kinds and SS
 * (short stay) is an observation stay; anything else (FLD, PRENC, …) has no class here and is skipped.
 */
export const ENCOUNTER_CLASSES: Record<string, EncounterClass> = {
  AMB: EncounterClass.Ambulatory,
  EMER: EncounterClass.Emergency,
  IMP: EncounterClass.Inpatient,
  ACUTE: EncounterClass.Inpatient,
  NONAC: EncounterClass.Inpatient,
  OBSENC: EncounterClass.Observation,
  SS: EncounterClass.Observation,
  VR: EncounterClass.Virtual,
  HH: EncounterClass.Home,
};

/** Every code of FHIR's observation-category value set, so a reason can name one without echoing input. */
const FHIR_OBSERVATION_CATEGORIES = new Set([
  'social-history',
  'vital-signs',
  'imaging',
  'laboratory',
  'procedure',
  'survey',
  'exam',
  'therapy',
  'activity',
]);

/** Observation categories → the schema's four; `vital-sign` (Synthea's misspelling) is `vital-signs`. */
const OBSERVATION_CATEGORIES: Record<string, ObservationCategory> = {
  laboratory: ObservationCategory.Laboratory,
  'vital-signs': ObservationCategory.VitalSigns,
  'vital-sign': ObservationCategory.VitalSigns,
  'social-history': ObservationCategory.SocialHistory,
  survey: ObservationCategory.Survey,
};

/**
 * The schema category of an observation: the first of its category codes that maps. A category
 * outside the four (exam, imaging, procedure, …) is a skip; the reason names the category only
 * when it is a code of FHIR's own value set.
 */
export function observationCategory(categories: Json[]): ObservationCategory | { skip: string } {
  const codes = categories.flatMap((category) => asObjects(category.coding).map((coding) => cleanText(coding.code) ?? ''));
  for (const code of codes) {
    const mapped = OBSERVATION_CATEGORIES[code];
    if (mapped) return mapped;
  }
  if (codes.length === 0) return { skip: 'no category' };
  const known = codes.find((code) => FHIR_OBSERVATION_CATEGORIES.has(code));
  return { skip: `category outside the schema (${known ?? 'unrecognised code'})` };
}
