import { StaffRole } from '../common/roles';
import { FieldTransform } from './field-transforms';
import { ProjectionRole } from './projection-role';

/**
 * Minimum necessary, declared: for each result shape and each role, the fields that may leave and
 * how. A field not listed never leaves (fail closed); a shape without a policy for every role stops
 * start-up (`assertPolicyComplete`). Nested list fields are written `notes.text`.
 *
 * Shapes: `patient` is the patient header every tool result carries; `cited_condition` a condition a
 * proposal cites; the rest are tool names (and a summary and worklist shape).
 */
export type FieldPolicy = Record<string, FieldTransform>;
export type ShapePolicy = Record<ProjectionRole, FieldPolicy>;

const keep = (...fields: string[]): FieldPolicy => Object.fromEntries(fields.map((field) => [field, 'keep' as const]));
const { Clinician, CareCoordinator, Reviewer, Analyst, PrivacyOfficer } = StaffRole;

/** The privacy officer audits access; no route gives them patient data, and no field would leave if one did. */
const NOTHING: FieldPolicy = {};

const CLINICAL_PATIENT = keep('handle', 'mrn', 'givenName', 'familyName', 'birthDate', 'age', 'sex', 'deceasedAt');

const ENCOUNTER_CLINICAL = keep(
  'citation', 'class', 'status', 'typeSystem', 'typeCode', 'typeDisplay', 'reasonSystem', 'reasonCode', 'reasonDisplay',
  'start', 'end', 'disposition', 'notes', 'notes.citation', 'notes.type', 'notes.authoredAt',
);
const LAB_CLINICAL = keep(
  'citation', 'encounterCitation', 'category', 'status', 'codeSystem', 'code', 'display', 'value', 'valueText', 'unit',
  'referenceLow', 'referenceHigh', 'referenceText', 'interpretation', 'effectiveAt',
);
const CARE_GAP_ALL = keep(
  'citation', 'measureId', 'version', 'title', 'periodStart', 'periodEnd', 'status', 'reasonCode', 'reason', 'evidence', 'toClose',
  'groups', 'groups.id', 'groups.populations', 'groups.status', 'groups.reasonCode', 'groups.reason', 'groups.evidence',
  'dataQuality', 'dataQuality.code', 'dataQuality.text', 'dataQuality.evidence',
);
// An approved closure beside a measured status (`attestations`): when, in which role, for which period, why and on what evidence.
const ATTESTATION = keep(
  'attestations', 'attestations.attestedAt', 'attestations.attestedByRole', 'attestations.periodStart', 'attestations.periodEnd',
  'attestations.remarkCode', 'attestations.evidence',
);
// Who filed it, by name (a colleague's name, like a note's author), and the proposal that holds its approvals: for the people
// caring for the patient. The model reads the role, never the name, as it reads no note's author.
const ATTESTATION_NAMED = { ...ATTESTATION, ...keep('attestations.attestedBy', 'attestations.proposalId') };
const CARE_GAP_CLINICAL = { ...CARE_GAP_ALL, ...ATTESTATION_NAMED };
const MISSING_DATA_ALL = keep('citation', 'element', 'status', 'lastSeen', 'requiredBecause', 'evidence');
const ATTRIBUTION_ALL = keep('citation', 'feature', 'label', 'value', 'baseline', 'weight', 'phi', 'direction', 'imputed', 'evidence');
// The index stay's days are clinical dates, kept for the model as the encounters' `start` and `end` are.
const ATTRIBUTION_SUMMARY_ALL = keep(
  'citation', 'modelId', 'modelVersion', 'indexAdmission', 'admittedOn', 'dischargedOn', 'riskPercent', 'logit', 'baselineLogit', 'disclaimer',
);

// A condition a proposal cites (no tool lists conditions; a care gap's evidence names them by id).
const CONDITION_CLINICAL = keep(
  'citation', 'codeSystem', 'code', 'display', 'clinicalStatus', 'verificationStatus', 'category', 'onsetDate', 'abatementDate', 'recordedAt',
);

const WORKLIST_RESULT = { ...keep('measureId', 'status', 'reasonCode', 'reason', 'toClose', 'lastEvidenceOn', 'computedAt', 'stale'), ...ATTESTATION_NAMED };

export const PROJECTION_POLICY: Record<string, ShapePolicy> = {
  patient: {
    [Clinician]: CLINICAL_PATIENT,
    [Reviewer]: CLINICAL_PATIENT,
    // Outreach is a coordinator's job: they also see how to reach the patient.
    [CareCoordinator]: { ...CLINICAL_PATIENT, ...keep('phone', 'email', 'addressLine', 'city', 'state', 'postalCode') },
    // Analysts read no patient's record (no route gives them one): they get counts, not rows.
    [Analyst]: NOTHING,
    // The model sees an opaque handle and clinical facts, never a direct identifier.
    agent: keep('handle', 'age', 'sex', 'deceasedAt'),
    [PrivacyOfficer]: NOTHING,
  },
  patient_encounters: {
    [Clinician]: { ...ENCOUNTER_CLINICAL, ...keep('notes.author', 'notes.text') },
    [Reviewer]: { ...ENCOUNTER_CLINICAL, ...keep('notes.author', 'notes.text') },
    [CareCoordinator]: { ...ENCOUNTER_CLINICAL, ...keep('notes.author', 'notes.text') },
    [Analyst]: NOTHING,
    // The model reads note text (as quoted data) but not who wrote it.
    agent: { ...ENCOUNTER_CLINICAL, ...keep('notes.text') },
    [PrivacyOfficer]: NOTHING,
  },
  patient_labs: {
    [Clinician]: LAB_CLINICAL,
    [Reviewer]: LAB_CLINICAL,
    [CareCoordinator]: LAB_CLINICAL,
    [Analyst]: NOTHING,
    agent: LAB_CLINICAL,
    [PrivacyOfficer]: NOTHING,
  },
  care_gap_lookup: {
    [Clinician]: CARE_GAP_CLINICAL,
    [Reviewer]: CARE_GAP_CLINICAL,
    [CareCoordinator]: CARE_GAP_CLINICAL,
    [Analyst]: NOTHING,
    agent: { ...CARE_GAP_ALL, ...ATTESTATION },
    [PrivacyOfficer]: NOTHING,
  },
  missing_data_check: {
    [Clinician]: MISSING_DATA_ALL,
    [Reviewer]: MISSING_DATA_ALL,
    [CareCoordinator]: MISSING_DATA_ALL,
    [Analyst]: NOTHING,
    agent: MISSING_DATA_ALL,
    [PrivacyOfficer]: NOTHING,
  },
  feature_attribution: {
    [Clinician]: ATTRIBUTION_ALL,
    [Reviewer]: ATTRIBUTION_ALL,
    [CareCoordinator]: ATTRIBUTION_ALL,
    [Analyst]: NOTHING,
    agent: ATTRIBUTION_ALL,
    [PrivacyOfficer]: NOTHING,
  },
  feature_attribution_summary: {
    [Clinician]: ATTRIBUTION_SUMMARY_ALL,
    [Reviewer]: ATTRIBUTION_SUMMARY_ALL,
    [CareCoordinator]: ATTRIBUTION_SUMMARY_ALL,
    [Analyst]: NOTHING,
    agent: ATTRIBUTION_SUMMARY_ALL,
    [PrivacyOfficer]: NOTHING,
  },
  cited_condition: {
    [Clinician]: CONDITION_CLINICAL,
    [Reviewer]: CONDITION_CLINICAL,
    [CareCoordinator]: CONDITION_CLINICAL,
    [Analyst]: NOTHING,
    agent: CONDITION_CLINICAL,
    [PrivacyOfficer]: NOTHING,
  },
  // A worklist row's stored measure results (the patient is the `patient` shape).
  worklist_result: {
    [Clinician]: WORKLIST_RESULT,
    [Reviewer]: WORKLIST_RESULT,
    [CareCoordinator]: WORKLIST_RESULT,
    [Analyst]: NOTHING,
    agent: NOTHING,
    [PrivacyOfficer]: NOTHING,
  },
};
