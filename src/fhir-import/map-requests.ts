import { MedicationDispenseStatus, MedicationStatus, QICORE_EXTENSION, RequestIntent, RequestKind, RequestStatus } from '../cohort/enum';
import { asArray, asNumber, asObject, asObjects, asString, Json } from './json';
import {
  firstPresent,
  identity,
  idOf,
  lenientInstant,
  MapContext,
  mappedStatus,
  optionalCode,
  optionalInstant,
  patientOf,
  requiredCode,
  requiredInstant,
  SourceResource,
} from './map-context';
import { dosageTiming, durationDays, medicationSupply } from './medication-supply';
import { one } from './map-records';
import { referenceOf, TargetIndex, CodeTarget } from './references';
import { SkipResource } from './fhir-import.types';
import { cleanText } from './text';

/**
 * The concept a `…Reference` names: a Medication or Device of this import (any file of the run),
 * or one `contained` in the resource (`#id`).
 */
function referencedConcept(resource: Json, reference: unknown, index: TargetIndex<CodeTarget>, type: 'Medication' | 'Device', codeField: string): unknown {
  const target = referenceOf(reference);
  if (target === undefined) throw new SkipResource(`${type.toLowerCase()} reference without a reference`);
  if (target.startsWith('#')) {
    const contained = asObjects(resource.contained).find((item) => item.resourceType === type && `#${asString(item.id)}` === target);
    if (!contained) throw new SkipResource(`contained ${type} not found`);
    return codeField === 'type' ? contained.type : contained.code;
  }
  const resolved = index.resolve(target);
  if ('found' in resolved) return resolved.found.concept;
  throw new SkipResource(`${type.toLowerCase()} reference does not resolve to a ${type} in this import`);
}

/**
 * The medication a request or dispense names: `medicationCodeableConcept`, else `medicationReference`
 * to a Medication of this import or a contained one. A referenced Medication's code is stored, and
 * flagged (`fromReference`): the eCQM retrieves read only the resource's own concept.
 */
export function medicationOf(resource: Json, context: MapContext) {
  const fromReference = resource.medicationCodeableConcept === undefined && resource.medicationReference !== undefined;
  const concept = fromReference
    ? referencedConcept(resource, resource.medicationReference, context.medications, 'Medication', 'code')
    : resource.medicationCodeableConcept;
  return { code: requiredCode(context, concept, 'medication code'), fromReference };
}

/** A request's `reasonCode` (every one is a candidate, see `preferredCoding`). */
const reasonOf = (context: MapContext, resource: Json, warnings: string[]) => optionalCode(context, asArray(resource.reasonCode), 'reasonCode', warnings);

/**
 * The day a request is listed from: its first date (dosage bounds start, authoredOn, validity start),
 * else the end of its dosage bounds, the only date some orders carry (the stewards' prostate cancer
 * cases test an active order dated only so; the measures read that end). The bounds themselves go
 * to `supply` as given, so the measures still see a period with no start.
 */
function startOf(first: unknown, boundsEnd: unknown, warnings: string[]) {
  if (first !== undefined || boundsEnd === undefined) return requiredInstant(first, 'start (dosage bounds, authoredOn or validity)');
  warnings.push('dated only by the end of its dosage bounds (listed from that day)');
  return requiredInstant(boundsEnd, 'end of dosage bounds');
}

/**
 * A medication order, or a recorded decision not to order (`doNotPerform`: QI-Core
 * MedicationNotRequested, stored with its status, authoredOn and reason). The medication is
 * `medicationCodeableConcept` or `medicationReference` (to a Medication of this import, or a
 * contained one). The start is the first dosage's bounds start, else authoredOn, else the dispense
 * validity start, else the bounds end (`startOf`); the end is the bounds end, else the validity end (an end before the start is left
 * empty, with a warning). Dosage and dispense elements go to `supply` as given.
 */
export function mapMedicationRequest(source: SourceResource, context: MapContext) {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.subject);
  const { code, fromReference } = medicationOf(resource, context);
  const status = mappedStatus(resource.status, identity(MedicationStatus), Object.values(MedicationStatus));
  const intent = asString(resource.intent)?.trim();
  const knownIntent = intent !== undefined && (Object.values(RequestIntent) as string[]).includes(intent) ? intent : null;
  if (!knownIntent) warnings.push(`intent ${intent ? 'outside the FHIR value set' : 'missing'} (left empty)`);
  const supply = medicationSupply(resource, warnings);
  const dosage = asObjects(resource.dosageInstruction)[0];
  const bounds = asObject(asObject(asObject(dosage?.timing)?.repeat)?.boundsPeriod);
  const validity = asObject(asObject(resource.dispenseRequest)?.validityPeriod);
  const authored = optionalInstant(resource.authoredOn, 'authoredOn');
  const start = startOf(firstPresent(bounds?.start, resource.authoredOn, validity?.start), bounds?.end, warnings);
  let end = optionalInstant(firstPresent(bounds?.end, validity?.end), 'end of dosage bounds or validity');
  if (end && end.day < start.day) {
    warnings.push('end is before start (end left empty)');
    end = null;
  }
  const reason = reasonOf(context, resource, warnings);
  return one(
    source,
    'medications',
    {
      id: idOf(context, source),
      patient_id: patient.rowId,
      code_system: code.system,
      code: code.code,
      display: code.display,
      status,
      start_date: start.day,
      end_date: end?.day ?? null,
      dosage_text: cleanText(dosage?.text),
      intent: knownIntent,
      do_not_perform: String(resource.doNotPerform === true),
      code_from_reference: String(fromReference),
      authored_at: authored?.instant ?? null,
      reason_system: reason?.system ?? null,
      reason_code: reason?.code ?? null,
      supply: supply === null ? null : JSON.stringify(supply),
    },
    warnings,
  );
}

/**
 * A supply handed over (MedicationDispense) → `medication_dispenses`, by the medication it names
 * (`medicationCodeableConcept`, or a Medication referenced or contained, flagged as for requests).
 * The elements CumulativeMedicationDuration reads are kept as given: when it was handed over or
 * prepared, days supplied (in days; another unit is left empty, with a warning), quantity and the
 * first dosage's timing. A status outside FHIR's codes is a skip.
 */
export function mapMedicationDispense(source: SourceResource, context: MapContext) {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.subject);
  const { code, fromReference } = medicationOf(resource, context);
  const status = mappedStatus(resource.status, identity(MedicationDispenseStatus), Object.values(MedicationDispenseStatus));
  const handedOver = lenientInstant(resource.whenHandedOver, 'whenHandedOver', warnings);
  const prepared = lenientInstant(resource.whenPrepared, 'whenPrepared', warnings);
  const days = durationDays(asObject(resource.daysSupply));
  if (days === undefined) warnings.push('daysSupply in a unit that is no duration (left empty)');
  const dosage = dosageTiming(resource);
  return one(
    source,
    'medication_dispenses',
    {
      id: idOf(context, source),
      patient_id: patient.rowId,
      code_system: code.system,
      code: code.code,
      display: code.display,
      status,
      code_from_reference: String(fromReference),
      handed_over_at: handedOver?.instant ?? null,
      prepared_at: prepared?.instant ?? null,
      days_supply: days === null || days === undefined ? null : String(days),
      quantity: asNumber(asObject(resource.quantity)?.value)?.toString() ?? null,
      dosage: dosage === null ? null : JSON.stringify(dosage),
    },
    warnings,
  );
}

/**
 * DeviceRequest has no `doNotPerform` in R4; QI-Core carries it as a modifier extension. Every URL
 * it has gone by is read: the QI-Core one, the misspelt one the stewards' test cases use, and the
 * R5 cross-version extension.
 */

const DEVICE_DO_NOT_PERFORM = new Set([
  'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-doNotPerform',
  'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-doNotPeform',
  'http://hl7.org/fhir/5.0/StructureDefinition/extension-DeviceRequest.doNotPerform',
]);

/**
 * A ServiceRequest (hospice care, a referral…) or DeviceRequest (a walker…) → `clinical_requests`.
 * Status and intent are required by FHIR and by the table: outside their value sets, a skip.
 */
export function mapRequest(source: SourceResource, context: MapContext) {
  const { resource } = source;
  const warnings: string[] = [];
  const kind = source.type === 'DeviceRequest' ? RequestKind.Device : RequestKind.Service;
  const patient = patientOf(context, resource.subject);
  const concept =
    kind === RequestKind.Service
      ? resource.code
      : (resource.codeCodeableConcept ??
        (resource.codeReference !== undefined ? referencedConcept(resource, resource.codeReference, context.devices, 'Device', 'type') : undefined));
  const code = requiredCode(context, concept);
  const status = mappedStatus(resource.status, identity(RequestStatus), Object.values(RequestStatus));
  const intent = mappedStatus(resource.intent, identity(RequestIntent), Object.values(RequestIntent), 'intent');
  const doNotPerform =
    kind === RequestKind.Service
      ? resource.doNotPerform === true
      : asObjects(resource.modifierExtension).some((extension) => DEVICE_DO_NOT_PERFORM.has(asString(extension.url) ?? '') && extension.valueBoolean === true);
  const authored = optionalInstant(resource.authoredOn, 'authoredOn');
  const reason = reasonOf(context, resource, warnings);
  const refusal = optionalCode(context, asObjects(resource.extension).find((extension) => extension.url === QICORE_EXTENSION.doNotPerformReason)?.valueCodeableConcept, 'doNotPerformReason', warnings);
  return one(
    source,
    'clinical_requests',
    {
      id: idOf(context, source),
      patient_id: patient.rowId,
      kind,
      code_system: code.system,
      code: code.code,
      display: code.display,
      status,
      intent,
      do_not_perform: String(doNotPerform),
      authored_at: authored?.instant ?? null,
      reason_system: reason?.system ?? null,
      reason_code: reason?.code ?? null,
      refusal_reason_system: refusal?.system ?? null,
      refusal_reason_code: refusal?.code ?? null,
    },
    warnings,
  );
}

/** A Medication or Device of this import, by the concept a request naming it is coded with (Device: its `type`). */
export function codeTargetOf(resource: Json): CodeTarget | null {
  const concept = resource.resourceType === 'Device' ? resource.type : resource.code;
  return asObjects(asObject(concept)?.coding).length > 0 ? { concept } : null;
}
