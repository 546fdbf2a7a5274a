import type { Bundle, BundleEntry, CodeableConcept, Condition, DocumentReference, Observation, Patient, Practitioner, Provenance, Reference, Resource } from '@medplum/fhirtypes';
import { citationFormOf } from '../../clinical/citation-grammar';
import { ProposalKind } from '../enum';
import { closureMeasureCanonical, DeliveredEffect, effectIdentifierValue, EffectPerson, identifierSystems } from './delivered-effect';

/**
 * How each approved kind becomes the FHIR R4 resource an EHR expects (docs/delivery.md says why each):
 *
 * - `order_lab` → ServiceRequest (US Core's shape: laboratory category, LOINC code, requester);
 * - `schedule_outreach` → CommunicationRequest (a request that the patient be contacted by a medium
 *   by a date: `medium`, `recipient`, `occurrencePeriod.end`);
 * - `add_care_note` → DocumentReference (US Core clinical notes: a LOINC note type, the text as a
 *   `text/plain` attachment);
 * - `close_care_gap` → MeasureReport of type `data-collection`: DEQM's data exchange, the way a
 *   provider tells a quality system which data close a measure's gap (the cited evidence as
 *   `evaluatedResource`), never the computed measure status, which only the measure's own logic gives.
 *
 * Pure: the caller gives the Patient reference the server resolved and the identifier base.
 */
export interface FhirContext {
  /** `DELIVERY_IDENTIFIER_SYSTEM`. */
  identifierBase: string;
  /** The Patient on the server (`Patient/<id>`). */
  patient: Reference<Patient>;
}

/** The placeholder of the effect's resource inside the transaction (the Provenance's target refers to it). */
export const RESOURCE_FULL_URL = 'urn:uuid:8f4e2c1a-0000-4000-8000-000000000001';
const PROVENANCE_FULL_URL = 'urn:uuid:8f4e2c1a-0000-4000-8000-000000000002';

export const RESOURCE_TYPE_OF_KIND: Readonly<Record<ProposalKind, 'ServiceRequest' | 'CommunicationRequest' | 'DocumentReference' | 'MeasureReport'>> = {
  [ProposalKind.OrderLab]: 'ServiceRequest',
  [ProposalKind.ScheduleOutreach]: 'CommunicationRequest',
  [ProposalKind.AddCareNote]: 'DocumentReference',
  [ProposalKind.CloseCareGap]: 'MeasureReport',
};

const LOINC = 'http://loinc.org';
/** A cited row's FHIR type: clinical rows keep the type they were imported from; computed rows have none. */
const CITED_TYPES: Readonly<Record<string, Resource['resourceType']>> = {
  obs: 'Observation', enc: 'Encounter', cond: 'Condition', med: 'MedicationRequest', proc: 'Procedure', note: 'DocumentReference',
  allergy: 'AllergyIntolerance', req: 'ServiceRequest', ae: 'AdverseEvent', pat: 'Patient',
};
/** What `reasonReference` admits on ServiceRequest and CommunicationRequest; other citations are supporting information. */
const REASON_TYPES = new Set(['Observation', 'Condition', 'DocumentReference']);

/** US Core clinical-note types (LOINC document ontology) for each note type a proposal may add. */
const NOTE_TYPES: Readonly<Record<string, { code: string; display: string }>> = {
  'care-plan': { code: '18776-5', display: 'Plan of care note' },
  'follow-up': { code: '11506-3', display: 'Progress note' },
  communication: { code: '34109-9', display: 'Note' },
};

/** v3 ParticipationMode for each outreach channel (R4 has no code for SMS: written, with the channel as text). */
const MEDIA: Readonly<Record<string, string>> = { phone: 'PHONE', letter: 'MAILWRIT', 'portal-message': 'ONLINEWRIT', sms: 'WRITTEN' };

/**
 * The effect as one FHIR transaction: the resource, created only if no resource carries its
 * identifier yet, and its Provenance, created only if none targets that resource yet. A redelivery
 * (the server committed but the answer was lost) therefore changes nothing and answers the same ids.
 */
export function effectTransaction(effect: DeliveredEffect, context: FhirContext): Bundle {
  const resource = effectResource(effect, context);
  const systems = identifierSystems(context.identifierBase);
  const value = effectIdentifierValue(effect);
  const entries: BundleEntry[] = [
    {
      fullUrl: RESOURCE_FULL_URL,
      resource,
      request: { method: 'POST', url: resource.resourceType, ifNoneExist: `identifier=${encodeURIComponent(systems.proposal)}|${encodeURIComponent(value)}` },
    },
    {
      fullUrl: PROVENANCE_FULL_URL,
      resource: effectProvenance(effect, context, { reference: RESOURCE_FULL_URL }),
      // The placeholder is replaced by the resource's id, new or found (the transaction rules for references).
      request: { method: 'POST', url: 'Provenance', ifNoneExist: `target=${RESOURCE_FULL_URL}` },
    },
  ];
  return { resourceType: 'Bundle', type: 'transaction', entry: entries };
}

/** The resource the effect becomes, carrying Vigil's identifier (the proposal id and approved version). */
export function effectResource(effect: DeliveredEffect, context: FhirContext): Resource {
  const systems = identifierSystems(context.identifierBase);
  const identifier = [{ system: systems.proposal, value: effectIdentifierValue(effect) }];
  const content = effect.content as Record<string, string>;
  const requester = practitioner(effect.proposer, context.identifierBase);
  const cited = effect.citations.map((citation) => citedReference(citation, context.identifierBase));
  const reasons = cited.filter((reference) => REASON_TYPES.has(reference.type ?? '')) as Reference<Observation | Condition | DocumentReference>[];
  const supporting = cited.filter((reference) => !REASON_TYPES.has(reference.type ?? ''));
  const note = [{ text: effect.rationale }];
  switch (effect.kind) {
    case ProposalKind.OrderLab:
      return {
        resourceType: 'ServiceRequest',
        identifier,
        status: 'active',
        intent: 'order',
        category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] }],
        priority: content.priority === 'urgent' ? 'urgent' : 'routine',
        code: { coding: [{ system: LOINC, code: content.loincCode }] },
        subject: context.patient,
        authoredOn: effect.executedAt,
        requester,
        reasonCode: [{ text: content.reason }],
        ...(reasons.length ? { reasonReference: reasons } : {}),
        ...(supporting.length ? { supportingInfo: supporting } : {}),
        note,
      };
    case ProposalKind.ScheduleOutreach:
      return {
        resourceType: 'CommunicationRequest',
        identifier,
        status: 'active',
        category: [{ text: 'Patient outreach' }],
        medium: [medium(content.channel)],
        subject: context.patient,
        recipient: [context.patient],
        payload: [{ contentString: content.reason }],
        occurrencePeriod: { end: content.dueDate },
        authoredOn: effect.executedAt,
        requester,
        reasonCode: [{ text: content.reason }],
        ...(reasons.length ? { reasonReference: reasons } : {}),
        note,
      };
    case ProposalKind.AddCareNote: {
      const type = NOTE_TYPES[content.noteType] ?? NOTE_TYPES.communication;
      return {
        resourceType: 'DocumentReference',
        identifier,
        status: 'current',
        docStatus: 'final',
        type: { coding: [{ system: LOINC, code: type.code, display: type.display }], text: content.noteType },
        category: [{ coding: [{ system: 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category', code: 'clinical-note', display: 'Clinical Note' }] }],
        subject: context.patient,
        date: effect.executedAt,
        author: [requester],
        authenticator: effect.approvers[0] ? practitioner(effect.approvers[0], context.identifierBase) : undefined,
        content: [{ attachment: { contentType: 'text/plain; charset=utf-8', data: Buffer.from(content.text, 'utf8').toString('base64') } }],
        ...(cited.length ? { context: { related: cited } } : {}),
      };
    }
    case ProposalKind.CloseCareGap: {
      // The period stored with the closure, which Vigil reads the attestation back by: recomputing it
      // from the execution's time would be a second copy of the executor's rule, free to disagree.
      const period = effect.measurementPeriod;
      if (!period) throw new Error('a care-gap closure without its measurement period');
      return {
        resourceType: 'MeasureReport',
        identifier,
        status: 'complete',
        type: 'data-collection',
        measure: closureMeasureCanonical(effect) as string,
        subject: context.patient,
        date: effect.executedAt,
        reporter: requester,
        period: { start: period.start, end: period.end },
        ...(content.remarkCode ? { extension: [{ url: `${systems.extension}/care-gap-remark`, valueCode: content.remarkCode }] } : {}),
        evaluatedResource: cited,
      };
    }
  }
}

/**
 * Who did what: the proposer as author, each counting approver as verifier, Vigil as the assembler.
 * `recorded` is the execution's commit, `occurredDateTime` the approval that completed the quorum.
 */
export function effectProvenance(effect: DeliveredEffect, context: FhirContext, target: Reference): Provenance {
  const systems = identifierSystems(context.identifierBase);
  const lastApproval = effect.approvers.map((approver) => approver.approvedAt).sort().at(-1);
  return {
    resourceType: 'Provenance',
    target: [target],
    ...(lastApproval ? { occurredDateTime: lastApproval } : {}),
    recorded: effect.executedAt,
    activity: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-DataOperation', code: 'CREATE', display: 'create' }] },
    agent: [
      { type: participant('author', 'Author'), who: practitioner(effect.proposer, context.identifierBase) },
      ...effect.approvers.map((approver) => ({ type: participant('verifier', 'Verifier'), who: practitioner(approver, context.identifierBase) })),
      { type: participant('assembler', 'Assembler'), who: { display: 'Vigil' } },
    ],
    entity: [{ role: 'source', what: { identifier: { system: systems.proposal, value: effectIdentifierValue(effect) }, display: 'Vigil proposal, as approved' } }],
  };
}

function participant(code: string, display: string): CodeableConcept {
  return { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/provenance-participant-type', code, display }] };
}

/** The person's Practitioner on the server when they were imported from it; else by NPI; else by Vigil's staff id. */
export function practitioner(person: EffectPerson, identifierBase: string): Reference<Practitioner> {
  const display = person.name ?? undefined;
  if (person.fhirPractitionerId) return { reference: `Practitioner/${person.fhirPractitionerId}`, ...(display ? { display } : {}) };
  const identifier = person.npi
    ? { system: 'http://hl7.org/fhir/sid/us-npi', value: person.npi }
    : { system: identifierSystems(identifierBase).staff, value: person.staffId };
  return { type: 'Practitioner', identifier, ...(display ? { display } : {}) };
}

/**
 * A cited row as a logical reference: its FHIR type and Vigil's citation id. Vigil keeps its own ids
 * for imported rows (not the source's), so the server cannot resolve these; the reviewer-approved
 * citation travels with the effect all the same.
 */
export function citedReference(citation: string, identifierBase: string): Reference {
  const form = citationFormOf(citation);
  const type = form ? CITED_TYPES[form.kind] : undefined;
  return {
    ...(type ? { type } : {}),
    identifier: { system: identifierSystems(identifierBase).citation, value: citation },
    display: `${form?.names ?? 'evidence'} cited in Vigil`,
  };
}

function medium(channel: string): CodeableConcept {
  const code = MEDIA[channel];
  return { ...(code ? { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationMode', code }] } : {}), text: channel };
}
