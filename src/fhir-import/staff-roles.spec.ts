import { StaffRole } from '../common/roles';
import { HL7_PRACTITIONER_ROLE, NUCC_TAXONOMY, occupationRole, roleFromCodes, VIGIL_ROLE_SYSTEM } from './staff-roles';

const SNOMED = 'http://snomed.info/sct';
const concept = (...codings: [system: string, code: string][]) => ({ coding: codings.map(([system, code]) => ({ system, code })) });

describe(occupationRole.name, () => {
  it.each([
    // FHIR R4's example practitioner-role codes
    [HL7_PRACTITIONER_ROLE, 'doctor', StaffRole.Clinician],
    [HL7_PRACTITIONER_ROLE, 'nurse', StaffRole.Clinician],
    [HL7_PRACTITIONER_ROLE, 'pharmacist', StaffRole.Reviewer],
    [HL7_PRACTITIONER_ROLE, 'researcher', StaffRole.Analyst],
    [HL7_PRACTITIONER_ROLE, 'teacher', undefined],
    [HL7_PRACTITIONER_ROLE, 'ict', undefined],
    // NUCC by classification, specialisations included
    [NUCC_TAXONOMY, '207Q00000X', StaffRole.Clinician], // Family Medicine
    [NUCC_TAXONOMY, '207RE0101X', StaffRole.Clinician], // Internal Medicine, Endocrinology
    [NUCC_TAXONOMY, '208D00000X', StaffRole.Clinician], // General Practice
    [NUCC_TAXONOMY, '163W00000X', StaffRole.Clinician], // Registered Nurse
    [NUCC_TAXONOMY, '363L00000X', StaffRole.Clinician], // Nurse Practitioner
    [NUCC_TAXONOMY, '363A00000X', StaffRole.Clinician], // Physician Assistant
    [NUCC_TAXONOMY, '364S00000X', StaffRole.Clinician], // Clinical Nurse Specialist
    [NUCC_TAXONOMY, '183500000X', StaffRole.Reviewer], // Pharmacist
    [NUCC_TAXONOMY, '1835P1200X', StaffRole.Reviewer], // Pharmacist, Pharmacotherapy
    [NUCC_TAXONOMY, '171M00000X', StaffRole.CareCoordinator], // Case Manager/Care Coordinator
    [NUCC_TAXONOMY, '164W00000X', undefined], // Licensed Practical Nurse
    [NUCC_TAXONOMY, '122300000X', undefined], // Dentist
    [NUCC_TAXONOMY, '282N00000X', undefined], // General Acute Care Hospital (an organisation)
    [NUCC_TAXONOMY, '20', undefined], // not a taxonomy code
    // SNOMED CT occupations
    [SNOMED, '309343006', StaffRole.Clinician], // Physician
    [SNOMED, '158965000', StaffRole.Clinician], // Medical practitioner
    [SNOMED, '224535009', StaffRole.Clinician], // Registered nurse
    [SNOMED, '224571005', StaffRole.Clinician], // Nurse practitioner
    [SNOMED, '449161006', StaffRole.Clinician], // Physician assistant
    [SNOMED, '46255001', StaffRole.Reviewer], // Pharmacist
    [SNOMED, '768832004', StaffRole.CareCoordinator], // Case manager
    [SNOMED, '106289002', undefined], // Dentist
    // A code of another system, even one that looks the same
    ['http://example.org/roles', 'doctor', undefined],
  ])('%s %s → %s', (system, code, role) => {
    expect(occupationRole(system, code)).toBe(role);
  });
});

describe(roleFromCodes.name, () => {
  it('maps a concept when any of its codings maps (codings translate one meaning)', () => {
    expect(roleFromCodes([concept([NUCC_TAXONOMY, '207Q00000X'], [SNOMED, '62247001'], ['http://example.org/local', 'fm'])])).toEqual({ role: StaffRole.Clinician, warnings: [] });
  });

  it('takes the organisation’s own Vigil coding over any occupation: a physician who reviews is a reviewer', () => {
    expect(roleFromCodes([concept([SNOMED, '309343006'], [VIGIL_ROLE_SYSTEM, 'reviewer'])])).toEqual({ role: StaffRole.Reviewer, warnings: [] });
    expect(roleFromCodes([concept([VIGIL_ROLE_SYSTEM, 'privacy_officer'])])).toEqual({ role: StaffRole.PrivacyOfficer, warnings: [] });
  });

  it.each([
    [[concept([HL7_PRACTITIONER_ROLE, 'ict'])], 'code maps to no Vigil role'],
    [[concept([HL7_PRACTITIONER_ROLE, 'doctor']), concept([HL7_PRACTITIONER_ROLE, 'pharmacist'])], 'codes map to different Vigil roles (clinician, reviewer)'],
    [[concept([SNOMED, '309343006'], [NUCC_TAXONOMY, '183500000X'])], 'codes map to different Vigil roles (clinician, reviewer)'],
    [[concept([VIGIL_ROLE_SYSTEM, 'reviewer'], [VIGIL_ROLE_SYSTEM, 'clinician'])], 'codes map to different Vigil roles (clinician, reviewer)'],
    [[concept([VIGIL_ROLE_SYSTEM, 'superuser'])], "a urn:vigil:staff-role code outside Vigil's roles"],
    [[{ coding: [{ code: 'doctor' }] }], 'no code with a code system (no Vigil role)'],
    [undefined, 'no code with a code system (no Vigil role)'],
  ])('reports, never guesses: %j → %s', (codes, problem) => {
    expect(roleFromCodes(codes)).toEqual({ problem });
  });

  it('warns of a second concept that maps to nothing beside one that maps', () => {
    expect(roleFromCodes([concept([HL7_PRACTITIONER_ROLE, 'doctor']), concept([HL7_PRACTITIONER_ROLE, 'teacher'])])).toEqual({
      role: StaffRole.Clinician,
      warnings: ['a code maps to no Vigil role (ignored beside one that does)'],
    });
  });

  it('reads the HL7 OID form of SNOMED CT as SNOMED CT', () => {
    expect(roleFromCodes([concept(['urn:oid:2.16.840.1.113883.6.96', '46255001'])])).toEqual({ role: StaffRole.Reviewer, warnings: [] });
  });
});
