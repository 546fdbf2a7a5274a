import { StaffRole } from '../../src/common/roles';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { patientIdOf, patients } from './cohort';
import { dueInDays } from './due-dates';

/**
 * The table of `test/e2e/audit-matrix.e2e-case.ts`: every operation of the OpenAPI document, who may
 * call it, how to call it to success and to each refusal it has, and the audit row each call must
 * leave (`cells`: the operation × caller × outcome rows the case runs).
 */

export const NORTH_PATIENT = 'diabetes-a1c-stale';
export const SOUTH_PATIENT = 'south-asthma';
export const HBA1C = `obs:${fixtureId('patient', NORTH_PATIENT, 'observation', '0')}`;
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';
export const REASON = 'Unconscious in ED, own team unreachable';
export const OUTREACH = { kind: 'schedule_outreach', content: { channel: 'phone', dueDate: dueInDays(30), reason: 'Book an HbA1c recheck' }, rationale: 'Last HbA1c is older than 12 months.' };
let filed = 0;
/** OUTREACH with a due date of its own: a second live proposal for the same date would be its duplicate. */
export const outreach = () => ({ ...OUTREACH, content: { ...OUTREACH.content, dueDate: dueInDays(filed += 1) } });

/** North users by role (the south clinician files the other team's proposals). */
export const USER: Record<StaffRole, string> = {
  [StaffRole.Clinician]: 'dr.okafor',
  [StaffRole.CareCoordinator]: 'cc.mensah',
  [StaffRole.Reviewer]: 'rev.santos',
  [StaffRole.Analyst]: 'an.whitfield',
  [StaffRole.PrivacyOfficer]: 'po.achebe',
};
export const ALL_ROLES = Object.values(StaffRole);
export const QUEUE_READERS = [StaffRole.Clinician, StaffRole.CareCoordinator, StaffRole.Reviewer];
export const TOOL_READERS = [StaffRole.Clinician, StaffRole.CareCoordinator, StaffRole.Reviewer];

export interface Call {
  method: 'get' | 'post';
  url: string;
  body?: object;
  headers?: Record<string, string>;
}

export interface Expected {
  status: number;
  outcome: string;
  breakGlass?: boolean;
  /** The patient the row must name (null: none). Omitted: not checked. */
  patientId?: string | null;
}

/** One cell: who calls, how the request is built (it may file a proposal first), what must come back. */
export interface Cell {
  caller: StaffRole | 'anonymous';
  kind: string;
  call: (fx: Fixtures) => Promise<Call>;
  expect: Expected | ((body: { rowCount?: number }) => Expected);
}

export interface Operation {
  id: string;
  action: string;
  roles: readonly StaffRole[];
  /** A request as an allowed role, to success; refusals by the anonymous and the wrong roles reuse it. */
  call: (fx: Fixtures, role: StaffRole) => Promise<Call>;
  success: number;
  /** The outcome of the success: `success`, or computed from the response (`empty` without rows). */
  successOutcome?: (body: { rowCount?: number; items?: unknown[] }) => string;
  /** Refusals by an allowed role (the first, unless `caller` says which). */
  refusals: (Omit<Cell, 'caller'> & { caller?: StaffRole })[];
}

export interface Fixtures {
  /** A pending proposal for the north patient, filed by `by` (a fresh one per call). */
  proposal(by?: string): Promise<string>;
  /** A pending proposal of the south team. */
  southProposal(): Promise<string>;
  /** A pending order_lab for the north patient (two approvals needed) with one approval, by `reviewer`. */
  orderLabApprovedBy(reviewer: string): Promise<string>;
  /** A draft for the north patient, as an agent turn of `by` files it (a fresh one per call). */
  draft(by?: string): Promise<string>;
  turnId: string;
}

export const tool = (id: string, path: string, query = ''): Operation => ({
  id: `GET /patients/{patientId}/${path}`,
  action: id,
  roles: TOOL_READERS,
  call: async () => ({ method: 'get', url: `/patients/${patientIdOf(NORTH_PATIENT)}/${path}${query}` }),
  success: 200,
  successOutcome: (body) => ((body.rowCount ?? 0) > 0 ? 'success' : 'empty'),
  refusals: [
    { kind: 'invalid', call: async () => ({ method: 'get', url: `/patients/${patientIdOf(NORTH_PATIENT)}/${path}?unknownField=1` }), expect: { status: 400, outcome: 'invalid', patientId: patientIdOf(NORTH_PATIENT) } },
    { kind: 'not found (other team)', call: async () => ({ method: 'get', url: `/patients/${patientIdOf(SOUTH_PATIENT)}/${path}${query}` }), expect: { status: 404, outcome: 'not_found', patientId: patientIdOf(SOUTH_PATIENT) } },
    {
      kind: 'break glass accepted',
      call: async () => ({ method: 'get', url: `/patients/${patientIdOf(SOUTH_PATIENT)}/${path}${query}`, headers: { 'x-break-glass-reason': REASON } }),
      expect: (body) => ({ status: 200, outcome: (body.rowCount ?? 0) > 0 ? 'success' : 'empty', breakGlass: true, patientId: patientIdOf(SOUTH_PATIENT) }),
    },
    {
      kind: 'break glass refused (not a clinician)',
      caller: StaffRole.Reviewer,
      call: async () => ({ method: 'get', url: `/patients/${patientIdOf(SOUTH_PATIENT)}/${path}${query}`, headers: { 'x-break-glass-reason': REASON } }),
      expect: { status: 403, outcome: 'denied', breakGlass: false, patientId: patientIdOf(SOUTH_PATIENT) },
    },
  ],
});

export const decision = (path: string, action: string, body: (version: number) => object, invalidBody: object): Operation => ({
  id: `POST /proposals/{proposalId}/${path}`,
  action,
  roles: [StaffRole.Reviewer],
  call: async (fx) => ({ method: 'post', url: `/proposals/${await fx.proposal()}/${path}`, body: body(1) }),
  success: 200,
  refusals: [
    { kind: 'invalid', call: async (fx) => ({ method: 'post', url: `/proposals/${await fx.proposal()}/${path}`, body: invalidBody }), expect: { status: 400, outcome: 'invalid' } },
    { kind: 'not found (other team)', call: async (fx) => ({ method: 'post', url: `/proposals/${await fx.southProposal()}/${path}`, body: body(1) }), expect: { status: 404, outcome: 'not_found', patientId: null } },
    { kind: 'conflict (stale version)', call: async (fx) => ({ method: 'post', url: `/proposals/${await fx.proposal()}/${path}`, body: body(2) }), expect: { status: 409, outcome: 'conflict', patientId: patientIdOf(NORTH_PATIENT) } },
  ],
});

/** The author's moves on their draft: another clinician's draft is "not found", a proposal in review a conflict, someone else's one denied. */
export const draftAction = (path: string, action: string): Operation => ({
  id: `POST /proposals/{proposalId}/${path}`,
  action,
  roles: [StaffRole.Clinician],
  call: async (fx, role) => ({ method: 'post', url: `/proposals/${await fx.draft(USER[role])}/${path}` }),
  success: 200,
  refusals: [
    { kind: 'invalid', call: async () => ({ method: 'post', url: `/proposals/not-a-uuid/${path}` }), expect: { status: 400, outcome: 'invalid' } },
    { kind: 'not found (another clinician’s draft)', call: async (fx) => ({ method: 'post', url: `/proposals/${await fx.draft('dr.lindqvist')}/${path}` }), expect: { status: 404, outcome: 'not_found', patientId: null } },
    { kind: 'denied (another clinician’s proposal in review)', call: async (fx) => ({ method: 'post', url: `/proposals/${await fx.proposal('dr.lindqvist')}/${path}` }), expect: { status: 403, outcome: 'denied', patientId: patientIdOf(NORTH_PATIENT) } },
    { kind: 'conflict (not a draft)', call: async (fx) => ({ method: 'post', url: `/proposals/${await fx.proposal()}/${path}` }), expect: { status: 409, outcome: 'conflict', patientId: patientIdOf(NORTH_PATIENT) } },
  ],
});

/** A DEQM $care-gaps request for a subject over the fixture cohort's trailing year, open gaps. */
export const careGaps = (subject: string) => `/fhir/Measure/$care-gaps?subject=${subject}&periodStart=2025-07-01&periodEnd=2026-06-30&status=open-gap`;
/** The same request in the POST form: a FHIR Parameters resource. */
export const careGapsParameters = (subject: string, status = 'open-gap') => ({
  resourceType: 'Parameters',
  parameter: [{ name: 'subject', valueString: subject }, { name: 'periodStart', valueDate: '2025-07-01' }, { name: 'periodEnd', valueDate: '2026-06-30' }, { name: 'status', valueCode: status }],
});

export const OPERATIONS: Operation[] = [
  tool('patient_encounters', 'encounters'),
  tool('patient_labs', 'labs'),
  tool('care_gap_lookup', 'care-gaps', '?asOf=2026-06-30'),
  tool('missing_data_check', 'missing-data', '?asOf=2026-06-30'),
  tool('feature_attribution', 'readmission-risk', '?asOf=2026-06-30'),
  {
    // One patient: one audited access, break glass included (a care team's answer is one row per patient shown: deqm-care-gaps.e2e-case).
    id: 'GET /fhir/Measure/$care-gaps',
    action: 'deqm.care_gaps',
    roles: TOOL_READERS,
    call: async () => ({ method: 'get', url: careGaps(`Patient/${patientIdOf(NORTH_PATIENT)}`) }),
    success: 200,
    successOutcome: (body) => ((body as { parameter?: unknown[] }).parameter?.length ? 'success' : 'empty'),
    refusals: [
      { kind: 'invalid', call: async () => ({ method: 'get', url: careGaps(`Patient/${patientIdOf(NORTH_PATIENT)}`).replace('&status=open-gap', '') }), expect: { status: 400, outcome: 'invalid', patientId: null } },
      { kind: 'not found (other team)', call: async () => ({ method: 'get', url: careGaps(`Patient/${patientIdOf(SOUTH_PATIENT)}`) }), expect: { status: 404, outcome: 'not_found', patientId: patientIdOf(SOUTH_PATIENT) } },
      { kind: 'not found (another team by its code)', call: async () => ({ method: 'get', url: careGaps('Group/primary-care-south') }), expect: { status: 404, outcome: 'not_found', patientId: null } },
      {
        kind: 'break glass accepted',
        call: async () => ({ method: 'get', url: careGaps(`Patient/${patientIdOf(SOUTH_PATIENT)}`), headers: { 'x-break-glass-reason': REASON } }),
        expect: (body) => ({ status: 200, outcome: (body as { parameter?: unknown[] }).parameter?.length ? 'success' : 'empty', breakGlass: true, patientId: patientIdOf(SOUTH_PATIENT) }),
      },
      {
        kind: 'break glass refused (not a clinician)',
        caller: StaffRole.Reviewer,
        call: async () => ({ method: 'get', url: careGaps(`Patient/${patientIdOf(SOUTH_PATIENT)}`), headers: { 'x-break-glass-reason': REASON } }),
        expect: { status: 403, outcome: 'denied', breakGlass: false, patientId: patientIdOf(SOUTH_PATIENT) },
      },
      { kind: 'denied (a care team, to a reviewer)', caller: StaffRole.Reviewer, call: async () => ({ method: 'get', url: careGaps('Group/primary-care-north') }), expect: { status: 403, outcome: 'denied', patientId: null } },
    ],
  },
  {
    // The POST form: the same action, access and audit as the GET form.
    id: 'POST /fhir/Measure/$care-gaps',
    action: 'deqm.care_gaps',
    roles: TOOL_READERS,
    call: async () => ({ method: 'post', url: '/fhir/Measure/$care-gaps', body: careGapsParameters(`Patient/${patientIdOf(NORTH_PATIENT)}`) }),
    success: 200,
    successOutcome: (body) => ((body as { parameter?: unknown[] }).parameter?.length ? 'success' : 'empty'),
    refusals: [
      { kind: 'invalid', call: async () => ({ method: 'post', url: '/fhir/Measure/$care-gaps', body: careGapsParameters(`Patient/${patientIdOf(NORTH_PATIENT)}`, 'not-applicable') }), expect: { status: 400, outcome: 'invalid', patientId: null } },
      { kind: 'not found (other team)', call: async () => ({ method: 'post', url: '/fhir/Measure/$care-gaps', body: careGapsParameters(`Patient/${patientIdOf(SOUTH_PATIENT)}`) }), expect: { status: 404, outcome: 'not_found', patientId: patientIdOf(SOUTH_PATIENT) } },
      {
        kind: 'break glass accepted',
        call: async () => ({ method: 'post', url: '/fhir/Measure/$care-gaps', body: careGapsParameters(`Patient/${patientIdOf(SOUTH_PATIENT)}`), headers: { 'x-break-glass-reason': REASON } }),
        expect: (body) => ({ status: 200, outcome: (body as { parameter?: unknown[] }).parameter?.length ? 'success' : 'empty', breakGlass: true, patientId: patientIdOf(SOUTH_PATIENT) }),
      },
      { kind: 'denied (a care team, to a reviewer)', caller: StaffRole.Reviewer, call: async () => ({ method: 'post', url: '/fhir/Measure/$care-gaps', body: careGapsParameters('Group/primary-care-north') }), expect: { status: 403, outcome: 'denied', patientId: null } },
    ],
  },
  {
    id: 'POST /patients/{patientId}/proposals',
    action: 'proposal.create',
    roles: [StaffRole.Clinician, StaffRole.CareCoordinator],
    call: async () => ({ method: 'post', url: `/patients/${patientIdOf(NORTH_PATIENT)}/proposals`, body: { ...outreach(), citations: [HBA1C] } }),
    success: 201,
    refusals: [
      { kind: 'invalid', call: async () => ({ method: 'post', url: `/patients/${patientIdOf(NORTH_PATIENT)}/proposals`, body: { ...OUTREACH, citations: [HBA1C], approvedBy: 'me' } }), expect: { status: 400, outcome: 'invalid', patientId: patientIdOf(NORTH_PATIENT) } },
      { kind: 'not found (other team)', call: async () => ({ method: 'post', url: `/patients/${patientIdOf(SOUTH_PATIENT)}/proposals`, body: { ...OUTREACH, citations: [] } }), expect: { status: 404, outcome: 'not_found', patientId: patientIdOf(SOUTH_PATIENT) } },
    ],
  },
  {
    id: 'POST /patients/{patientId}/agent/turns',
    action: 'agent_turn',
    roles: [StaffRole.Clinician],
    call: async () => ({ method: 'post', url: `/patients/${patientIdOf(NORTH_PATIENT)}/agent/turns`, body: { question: 'When was the last HbA1c?' } }),
    success: 200,
    successOutcome: () => 'empty', // the scripted model answers without reading anything
    refusals: [
      { kind: 'invalid', call: async () => ({ method: 'post', url: `/patients/${patientIdOf(NORTH_PATIENT)}/agent/turns`, body: { question: '' } }), expect: { status: 400, outcome: 'invalid' } },
      { kind: 'not found (other team)', call: async () => ({ method: 'post', url: `/patients/${patientIdOf(SOUTH_PATIENT)}/agent/turns`, body: { question: 'When was the last HbA1c?' } }), expect: { status: 404, outcome: 'not_found', patientId: patientIdOf(SOUTH_PATIENT) } },
    ],
  },
  {
    id: 'GET /patients/{patientId}/agent/turns/{turnId}',
    action: 'agent_turn.read',
    roles: [StaffRole.Clinician],
    call: async (fx) => ({ method: 'get', url: `/patients/${patientIdOf(NORTH_PATIENT)}/agent/turns/${fx.turnId}` }),
    success: 200,
    successOutcome: () => 'success',
    refusals: [
      { kind: 'invalid', call: async () => ({ method: 'get', url: `/patients/${patientIdOf(NORTH_PATIENT)}/agent/turns/not-a-uuid` }), expect: { status: 400, outcome: 'invalid' } },
      { kind: 'not found (no such turn)', call: async () => ({ method: 'get', url: `/patients/${patientIdOf(NORTH_PATIENT)}/agent/turns/${UNKNOWN}` }), expect: { status: 404, outcome: 'not_found' } },
    ],
  },
  {
    // An MRN search that shows exactly one patient: one row naming them (each patient shown is one row).
    id: 'GET /patients',
    action: 'patient.search',
    roles: QUEUE_READERS,
    call: async () => ({ method: 'get', url: `/patients?mrn=${patients.find((patient) => patient.key === NORTH_PATIENT)!.mrn}` }),
    success: 200,
    refusals: [
      { kind: 'invalid', call: async () => ({ method: 'get', url: '/patients' }), expect: { status: 400, outcome: 'invalid', patientId: null } },
      { kind: 'empty (nobody on my teams)', call: async () => ({ method: 'get', url: `/patients?mrn=${patients.find((patient) => patient.key === SOUTH_PATIENT)!.mrn}` }), expect: { status: 200, outcome: 'empty', patientId: null } },
    ],
  },
  {
    // A one-patient page: one row naming the patient shown (each patient shown is one row).
    id: 'GET /care-teams/{code}/worklist',
    action: 'worklist.read',
    roles: [StaffRole.Clinician, StaffRole.CareCoordinator],
    call: async () => ({ method: 'get', url: '/care-teams/primary-care-north/worklist?limit=1' }),
    success: 200,
    refusals: [
      { kind: 'invalid', call: async () => ({ method: 'get', url: '/care-teams/primary-care-north/worklist?limit=0' }), expect: { status: 400, outcome: 'invalid', patientId: null } },
      { kind: 'not found (another team)', call: async () => ({ method: 'get', url: '/care-teams/primary-care-south/worklist' }), expect: { status: 404, outcome: 'not_found', patientId: null } },
    ],
  },
  {
    // A one-proposal page: one row naming its patient (each patient a page names is one row, as on a worklist).
    id: 'GET /proposals',
    action: 'proposal.list',
    roles: QUEUE_READERS,
    call: async () => ({ method: 'get', url: '/proposals?limit=1' }),
    success: 200,
    successOutcome: (body) => ((body.items?.length ?? 0) > 0 ? 'success' : 'empty'),
    refusals: [{ kind: 'invalid', call: async () => ({ method: 'get', url: '/proposals?limit=0' }), expect: { status: 400, outcome: 'invalid' } }],
  },
  {
    id: 'GET /proposals/events',
    action: 'proposal.events.subscribe',
    roles: QUEUE_READERS,
    call: async () => ({ method: 'get', url: '/proposals/events' }),
    success: 200,
    refusals: [{ kind: 'invalid', call: async () => ({ method: 'get', url: '/proposals/events?access_token=x' }), expect: { status: 400, outcome: 'invalid' } }],
  },
  {
    id: 'GET /proposals/{proposalId}',
    action: 'proposal.read',
    roles: QUEUE_READERS,
    call: async (fx) => ({ method: 'get', url: `/proposals/${await fx.proposal()}` }),
    success: 200,
    refusals: [
      { kind: 'invalid', call: async () => ({ method: 'get', url: '/proposals/not-a-uuid' }), expect: { status: 400, outcome: 'invalid' } },
      { kind: 'not found (other team)', call: async (fx) => ({ method: 'get', url: `/proposals/${await fx.southProposal()}` }), expect: { status: 404, outcome: 'not_found', patientId: null } },
    ],
  },
  decision('approve', 'proposal.approve', (version) => ({ version }), {}),
  decision('reject', 'proposal.reject', (version) => ({ version, reason: 'Not needed now.' }), { version: 1 }),
  decision('edit-and-approve', 'proposal.edit_and_approve', (version) => ({ version, content: { ...OUTREACH.content, channel: 'letter' } }), { version: 1 }),
  {
    id: 'POST /proposals/{proposalId}/withdraw-approval',
    action: 'proposal.withdraw_approval',
    roles: [StaffRole.Reviewer],
    call: async (fx, role) => ({ method: 'post', url: `/proposals/${await fx.orderLabApprovedBy(USER[role])}/withdraw-approval`, body: { version: 1 } }),
    success: 200,
    refusals: [
      { kind: 'invalid', call: async (fx) => ({ method: 'post', url: `/proposals/${await fx.orderLabApprovedBy(USER[StaffRole.Reviewer])}/withdraw-approval`, body: {} }), expect: { status: 400, outcome: 'invalid' } },
      { kind: 'not found (other team)', call: async (fx) => ({ method: 'post', url: `/proposals/${await fx.southProposal()}/withdraw-approval`, body: { version: 1 } }), expect: { status: 404, outcome: 'not_found', patientId: null } },
      { kind: 'conflict (no approval to withdraw)', call: async (fx) => ({ method: 'post', url: `/proposals/${await fx.proposal()}/withdraw-approval`, body: { version: 1 } }), expect: { status: 409, outcome: 'conflict', patientId: patientIdOf(NORTH_PATIENT) } },
    ],
  },
  {
    id: 'POST /proposals/{proposalId}/cancel',
    action: 'proposal.cancel',
    roles: [StaffRole.Clinician, StaffRole.CareCoordinator],
    call: async (fx, role) => ({ method: 'post', url: `/proposals/${await fx.proposal(USER[role])}/cancel`, body: { version: 1, reason: 'Filed twice.' } }),
    success: 200,
    refusals: [
      { kind: 'invalid', call: async (fx) => ({ method: 'post', url: `/proposals/${await fx.proposal()}/cancel`, body: { version: 1 } }), expect: { status: 400, outcome: 'invalid' } },
      { kind: 'not found (other team)', call: async (fx) => ({ method: 'post', url: `/proposals/${await fx.southProposal()}/cancel`, body: { version: 1, reason: 'Filed twice.' } }), expect: { status: 404, outcome: 'not_found', patientId: null } },
      { kind: 'denied (not the proposer)', caller: StaffRole.CareCoordinator, call: async (fx) => ({ method: 'post', url: `/proposals/${await fx.proposal('dr.okafor')}/cancel`, body: { version: 1, reason: 'Filed twice.' } }), expect: { status: 403, outcome: 'denied' } },
      { kind: 'conflict (stale version)', call: async (fx) => ({ method: 'post', url: `/proposals/${await fx.proposal()}/cancel`, body: { version: 2, reason: 'Filed twice.' } }), expect: { status: 409, outcome: 'conflict' } },
    ],
  },
  draftAction('submit', 'proposal.submit'),
  draftAction('discard', 'proposal.discard'),
  {
    id: 'GET /audit/break-glass',
    action: 'audit.break_glass.list',
    roles: [StaffRole.PrivacyOfficer],
    call: async () => ({ method: 'get', url: '/audit/break-glass' }),
    success: 200,
    successOutcome: (body) => ((body.items?.length ?? 0) > 0 ? 'success' : 'empty'),
    refusals: [{ kind: 'invalid', call: async () => ({ method: 'get', url: '/audit/break-glass?limit=0' }), expect: { status: 400, outcome: 'invalid' } }],
  },
  {
    id: 'GET /population/measures',
    action: 'population.measures.read',
    roles: [StaffRole.Analyst],
    call: async () => ({ method: 'get', url: '/population/measures' }),
    success: 200,
    refusals: [
      { kind: 'invalid', call: async () => ({ method: 'get', url: '/population/measures?periodEnd=yesterday' }), expect: { status: 400, outcome: 'invalid', patientId: null } },
      { kind: 'not found (period not stored)', call: async () => ({ method: 'get', url: '/population/measures?periodEnd=2020-06-30' }), expect: { status: 404, outcome: 'not_found', patientId: null } },
    ],
  },
  {
    id: 'GET /measures',
    action: 'measures.catalogue.read',
    roles: ALL_ROLES,
    call: async () => ({ method: 'get', url: '/measures' }),
    success: 200,
    refusals: [{ kind: 'invalid', call: async () => ({ method: 'get', url: '/measures?key=CMS-122' }), expect: { status: 400, outcome: 'invalid', patientId: null } }],
  },
];

/** Routes that touch no PHI: no audit row at all. */
export const NOT_AUDITED = ['GET /health', 'GET /health/ready'];

export function cells(operation: Operation): Cell[] {
  const allowed = operation.roles[0];
  const successes: Cell[] = operation.roles.map((role) => ({
    caller: role,
    kind: 'success',
    call: (fx) => operation.call(fx, role),
    expect: (body) => ({ status: operation.success, outcome: operation.successOutcome?.(body) ?? 'success', breakGlass: false }),
  }));
  const anonymous: Cell = { caller: 'anonymous', kind: 'unauthenticated', call: (fx) => operation.call(fx, allowed), expect: { status: 401, outcome: 'unauthenticated' } };
  const wrongRoles: Cell[] = ALL_ROLES.filter((role) => !operation.roles.includes(role)).map((role) => ({
    caller: role,
    kind: 'role not allowed',
    call: (fx) => operation.call(fx, allowed),
    expect: { status: 403, outcome: 'denied' },
  }));
  const refusals: Cell[] = operation.refusals.map((refusal) => ({ ...refusal, caller: refusal.caller ?? allowed }));
  return [...successes, anonymous, ...wrongRoles, ...refusals];
}
