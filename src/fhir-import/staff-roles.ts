import { StaffRole } from '../common/roles';
import { asObject, asObjects } from './json';
import { cleanText } from './text';
import { normaliseSystem } from './codes';

/**
 * Vigil's own code system for `PractitionerRole.code`: the organisation says outright which Vigil
 * role a person holds (`urn:vigil:staff-role#reviewer`). An occupation says what someone is, not
 * what they may do in Vigil: a physician may be the team's reviewer, and no occupation code names a
 * privacy officer. So when a PractitionerRole carries a coding of this system, only those codings
 * count; otherwise its occupation codes are mapped by the tables below.
 */
export const VIGIL_ROLE_SYSTEM = 'urn:vigil:staff-role';

export const HL7_PRACTITIONER_ROLE = 'http://terminology.hl7.org/CodeSystem/practitioner-role';
export const NUCC_TAXONOMY = 'http://nucc.org/provider-taxonomy';
const SNOMED = 'http://snomed.info/sct';

/**
 * FHIR R4's example PractitionerRole codes. `researcher` becomes an analyst: research reads the
 * population, and the analyst role reads de-identified counts and no record. `pharmacist` becomes a
 * reviewer: a pharmacist's verification of an order before it is carried out is the second check
 * hospitals already run. `teacher` and `ict` name no Vigil role and are reported.
 */
const HL7_ROLES: Record<string, StaffRole> = {
  doctor: StaffRole.Clinician,
  nurse: StaffRole.Clinician,
  pharmacist: StaffRole.Reviewer,
  researcher: StaffRole.Analyst,
};

/**
 * NUCC Health Care Provider Taxonomy (US Core 3.1.1's binding), by the prefix of the code, so a
 * classification's specialisations (207RE0101X, endocrinology, under 207R internal medicine) map
 * with it. `20`: the whole "Allopathic & Osteopathic Physicians" grouping. Licensed practical and
 * vocational nurses (164W, 164X), aides and technicians are left out: they carry out orders rather
 * than make them, and a Vigil clinician files lab orders.
 */
const NUCC_PREFIXES: readonly (readonly [prefix: string, role: StaffRole, what: string])[] = [
  ['20', StaffRole.Clinician, 'Allopathic & Osteopathic Physicians'],
  ['163W', StaffRole.Clinician, 'Registered Nurse'],
  ['363L', StaffRole.Clinician, 'Nurse Practitioner'],
  ['363A', StaffRole.Clinician, 'Physician Assistant'],
  ['364S', StaffRole.Clinician, 'Clinical Nurse Specialist'],
  ['1835', StaffRole.Reviewer, 'Pharmacist'],
  ['171M', StaffRole.CareCoordinator, 'Case Manager/Care Coordinator'],
];
const NUCC_CODE = /^[0-9]{3}[0-9A-Z]{6}X$/;

/**
 * SNOMED CT occupations (US Core 6's "Care Team Member Function" binding), exact codes: the same
 * people as the NUCC rows, with the equivalences of the Da Vinci HRex NUCC ↔ SNOMED CT concept map.
 */
const SNOMED_ROLES: Record<string, StaffRole> = {
  '158965000': StaffRole.Clinician, // Medical practitioner
  '309343006': StaffRole.Clinician, // Physician
  '309394004': StaffRole.Clinician, // General practitioner principal
  '62247001': StaffRole.Clinician, // Family medicine specialist
  '39677007': StaffRole.Clinician, // Internal medicine specialist
  '69280009': StaffRole.Clinician, // Specialized physician
  '768837005': StaffRole.Clinician, // Hospitalist
  '82296001': StaffRole.Clinician, // Pediatrician
  '224535009': StaffRole.Clinician, // Registered nurse
  '106292003': StaffRole.Clinician, // Professional nurse
  '224571005': StaffRole.Clinician, // Nurse practitioner
  '449161006': StaffRole.Clinician, // Physician assistant
  '224570006': StaffRole.Clinician, // Clinical nurse specialist
  '46255001': StaffRole.Reviewer, // Pharmacist
  '768832004': StaffRole.CareCoordinator, // Case manager
};

const VIGIL_ROLES: readonly string[] = Object.values(StaffRole);

/** The Vigil role one occupation coding maps to, if any. */
export function occupationRole(system: string, code: string): StaffRole | undefined {
  if (system === HL7_PRACTITIONER_ROLE) return HL7_ROLES[code];
  if (system === SNOMED) return SNOMED_ROLES[code];
  if (system === NUCC_TAXONOMY && NUCC_CODE.test(code)) return NUCC_PREFIXES.find(([prefix]) => code.startsWith(prefix))?.[1];
  return undefined;
}

/** What a PractitionerRole's codes say: one Vigil role, or why none (a fixed phrase for the summary). */
export type RoleFromCodes = { role: StaffRole; warnings: string[] } | { problem: string };

/**
 * The Vigil role of one PractitionerRole, from its `code` concepts. The codings of one concept are
 * translations of one meaning, so a concept maps when any of its codings does; two concepts (or two
 * codings) naming different Vigil roles are a conflict, reported rather than resolved by a guess. A
 * concept none of whose codings maps, beside one that does, is a warning: the person also holds a
 * function Vigil has no role for.
 */
export function roleFromCodes(codes: unknown): RoleFromCodes {
  const concepts = (Array.isArray(codes) ? codes : [codes]).map((concept) =>
    asObjects(asObject(concept)?.coding).flatMap((coding) => {
      const system = normaliseSystem(coding.system);
      const code = cleanText(coding.code);
      return system && code ? [{ system, code }] : [];
    }),
  );
  const codings = concepts.flat();
  if (codings.length === 0) return { problem: 'no code with a code system (no Vigil role)' };

  const explicit = codings.filter((coding) => coding.system === VIGIL_ROLE_SYSTEM);
  if (explicit.length > 0) {
    if (explicit.some((coding) => !VIGIL_ROLES.includes(coding.code))) return { problem: `a ${VIGIL_ROLE_SYSTEM} code outside Vigil's roles` };
    return single(new Set(explicit.map((coding) => coding.code as StaffRole)), []);
  }

  const roles = new Set<StaffRole>();
  const warnings: string[] = [];
  for (const concept of concepts) {
    const mapped = concept.map((coding) => occupationRole(coding.system, coding.code)).filter((role): role is StaffRole => role !== undefined);
    if (mapped.length === 0) warnings.push('a code maps to no Vigil role (ignored beside one that does)');
    mapped.forEach((role) => roles.add(role));
  }
  if (roles.size === 0) return { problem: 'code maps to no Vigil role' };
  return single(roles, warnings);
}

function single(roles: Set<StaffRole>, warnings: string[]): RoleFromCodes {
  if (roles.size > 1) return { problem: `codes map to different Vigil roles (${[...roles].sort().join(', ')})` };
  return { role: [...roles][0], warnings: [...new Set(warnings)] };
}
