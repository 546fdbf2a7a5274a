import { MedicationAdministrationStatus, QICORE_EXTENSION, TaskStatus } from '../cohort/enum';
import { asArray, asObject, asObjects, asString } from './json';
import { identity, idOf, lenientInstant, MapContext, mappedStatus, optionalCode, patientOf, SourceResource } from './map-context';
import { one } from './map-records';
import { medicationOf } from './map-requests';
import { recordReference } from './references';

/**
 * Record types only the published measures read, mapped with every element their ELM retrieves and
 * reads (and nothing else): MedicationAdministration and Task.
 */

/** QI-Core's `qicore-recorded` extension of a resource, if any. */
const recordedOf = (resource: Record<string, unknown>) => asObjects(resource.extension).find((extension) => extension.url === QICORE_EXTENSION.recorded)?.valueDateTime;

/**
 * A MedicationAdministration by the medication it names (as requests and dispenses name it): status
 * (outside FHIR's a skip), why not given (`statusReason`), when (`effectiveDateTime`, or
 * `effectivePeriod` kept as a period) and QI-Core's `qicore-recorded` extension.
 */
export function mapMedicationAdministration(source: SourceResource, context: MapContext) {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.subject);
  const { code, fromReference } = medicationOf(resource, context);
  const status = mappedStatus(resource.status, identity(MedicationAdministrationStatus), Object.values(MedicationAdministrationStatus));
  const reason = optionalCode(context, asArray(resource.statusReason), 'statusReason', warnings);
  const period = asObject(resource.effectivePeriod);
  const start = lenientInstant(resource.effectiveDateTime ?? period?.start, resource.effectiveDateTime !== undefined ? 'effectiveDateTime' : 'effectivePeriod.start', warnings);
  const end = lenientInstant(period?.end, 'effectivePeriod.end', warnings);
  return one(
    source,
    'medication_administrations',
    {
      id: idOf(context, source),
      patient_id: patient.rowId,
      code_system: code.system,
      code: code.code,
      display: code.display,
      code_from_reference: String(fromReference),
      status,
      status_reason_system: reason?.system ?? null,
      status_reason_code: reason?.code ?? null,
      effective_at: start?.instant ?? null,
      effective_end_at: end?.instant ?? null,
      effective_is_period: String(resource.effectiveDateTime === undefined && period !== undefined),
      recorded_at: lenientInstant(recordedOf(resource), 'recorded', warnings)?.instant ?? null,
    },
    warnings,
  );
}

/**
 * A Task (`for` is its patient): code, status (outside FHIR's a skip), intent, why (`statusReason`,
 * `reasonCode`), authoredOn, `executionPeriod`, and the request it is about (`focus`, `basedOn`) as
 * a reference to that request's row, which the measures follow by id. A reference that names no
 * type cannot be rebuilt: dropped, with a warning.
 */
export function mapTask(source: SourceResource, context: MapContext) {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.for);
  const code = optionalCode(context, resource.code, 'code', warnings);
  const status = mappedStatus(resource.status, identity(TaskStatus), Object.values(TaskStatus));
  const statusReason = optionalCode(context, resource.statusReason, 'statusReason', warnings);
  const reason = optionalCode(context, resource.reasonCode, 'reasonCode', warnings);
  const reference = (element: unknown, field: string) => {
    const rebuilt = recordReference(context.namespace, element);
    if (rebuilt === null) warnings.push(`${field} reference names no resource type (left out)`);
    return rebuilt;
  };
  const focus = resource.focus === undefined ? null : reference(resource.focus, 'focus');
  const basedOn = asObjects(resource.basedOn).map((element) => reference(element, 'basedOn')).filter((value) => value !== null);
  const execution = asObject(resource.executionPeriod);
  return one(
    source,
    'tasks',
    {
      id: idOf(context, source),
      patient_id: patient.rowId,
      code_system: code?.system ?? null,
      code: code?.code ?? null,
      display: code?.display ?? null,
      status,
      intent: asString(resource.intent)?.trim() || null,
      status_reason_system: statusReason?.system ?? null,
      status_reason_code: statusReason?.code ?? null,
      reason_system: reason?.system ?? null,
      reason_code: reason?.code ?? null,
      focus,
      based_on: basedOn.length > 0 ? JSON.stringify(basedOn) : null,
      authored_at: lenientInstant(resource.authoredOn, 'authoredOn', warnings)?.instant ?? null,
      execution_start_at: lenientInstant(execution?.start, 'executionPeriod.start', warnings)?.instant ?? null,
      execution_end_at: lenientInstant(execution?.end, 'executionPeriod.end', warnings)?.instant ?? null,
    },
    warnings,
  );
}
