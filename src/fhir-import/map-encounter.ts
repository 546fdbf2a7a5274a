import { EncounterStatus } from '../cohort/enum';
import { ALLOWED_SYSTEMS, ENCOUNTER_CLASSES, firstCode, pickCoding } from './codes';
import { asArray, asObject, asObjects } from './json';
import { afterDeath, MapContext, mappedStatus, optionalInstant, patientOf, requiredInstant, SourceResource, idOf } from './map-context';
import { EncounterTarget, keysOf } from './references';
import { MappedResource, SkipResource } from './fhir-import.types';
import { cleanText } from './text';

const FHIR_STATUSES = ['planned', 'arrived', 'triaged', 'in-progress', 'onleave', 'finished', 'cancelled', 'entered-in-error', 'unknown'];

/** Arrived, triaged and on leave are stages of an encounter in progress; entered-in-error and unknown have no place. */
const STATUSES: Record<string, EncounterStatus> = {
  planned: EncounterStatus.Planned,
  arrived: EncounterStatus.InProgress,
  triaged: EncounterStatus.InProgress,
  'in-progress': EncounterStatus.InProgress,
  onleave: EncounterStatus.InProgress,
  finished: EncounterStatus.Finished,
  cancelled: EncounterStatus.Cancelled,
};

/** An optional coded field (type, reason): a code in a system the schema does not allow is left empty, with a warning. */
function optionalCoding(concept: unknown, field: string, warnings: string[]) {
  const picked = pickCoding(concept, ALLOWED_SYSTEMS.encounter);
  if (picked === 'disallowed') warnings.push(`${field} coded outside the schema's systems (left empty)`);
  return typeof picked === 'string' ? null : picked;
}

export function mapEncounter(source: SourceResource, context: MapContext): { mapped: MappedResource; target: EncounterTarget; keys: string[] } {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.subject);
  const status = mappedStatus(resource.status, STATUSES, FHIR_STATUSES);
  // R4 has one Coding; R5 a list of CodeableConcepts. Either way the v3 ActCode is what maps.
  const classCode = firstCode(asObject(resource.class) ?? asArray(resource.class)[0]);
  if (!classCode) throw new SkipResource('class missing');
  const encounterClass = ENCOUNTER_CLASSES[classCode.toUpperCase()];
  if (!encounterClass) throw new SkipResource('class has no counterpart in the schema');
  const period = asObject(resource.period);
  const start = requiredInstant(period?.start, 'period.start');
  const end = optionalInstant(period?.end, 'period.end');
  if (end && end.millis < start.millis) throw new SkipResource('period.end is before period.start');
  if (afterDeath(patient, start.millis)) warnings.push("starts after the patient's death (kept)");

  const type = optionalCoding(asArray(resource.type)[0], 'type', warnings);
  const reason = optionalCoding(asArray(resource.reasonCode)[0], 'reasonCode', warnings);
  const disposition = asObject(asObject(resource.hospitalization)?.dischargeDisposition);
  const id = idOf(source);
  const mapped: MappedResource = {
    type: 'Encounter',
    key: `Encounter/${source.sourceId}`,
    position: source.position,
    warnings,
    rows: {
      encounters: [
        {
          id,
          patient_id: patient.rowId,
          class: encounterClass,
          status,
          type_system: type?.system ?? null,
          type_code: type?.code ?? null,
          type_display: type?.display ?? null,
          reason_system: reason?.system ?? null,
          reason_code: reason?.code ?? null,
          reason_display: reason?.display ?? null,
          start_at: start.instant,
          end_at: end?.instant ?? null,
          disposition: cleanText(disposition?.text) ?? cleanText(asObjects(disposition?.coding)[0]?.display) ?? firstCode(disposition) ?? null,
        },
      ],
    },
  };
  return { mapped, target: { rowId: id, patientRowId: patient.rowId }, keys: keysOf('Encounter', source.sourceId, source.fullUrl) };
}
