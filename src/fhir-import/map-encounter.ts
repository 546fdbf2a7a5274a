import { EncounterStatus } from '../cohort/enum';
import { codingsOf, ENCOUNTER_CLASSES, FALLBACK_ENCOUNTER_CLASS, firstCode, otherCodings } from './codes';
import { asArray, asNumber, asObject, asObjects, asString } from './json';
import { afterDeath, identity, idOf, lenientInstant, MapContext, mappedStatus, optionalCode, optionalInstant, patientOf, requiredInstant, SourceResource } from './map-context';
import { EncounterTarget, keysOf, recordReference, referenceOf } from './references';
import { MappedResource, SkipResource } from './fhir-import.types';
import { cleanText } from './text';

/** Every R4 status is stored as it is: the eCQMs' own status rules decide which count. */
const STATUSES = identity(EncounterStatus);

/**
 * The schema class of an encounter, and its code as the source wrote it (the eCQMs compare the raw
 * code: CMS165 excludes PRENC and SS, which Vigil's classes group with ambulatory and observation
 * stays). R4 has one Coding; R5 a list of CodeableConcepts. A missing class, or one outside v3
 * ActEncounterCode (the stewards' test data has a HCPCS code there), is stored as the fallback class
 * with a warning: the encounter itself is a fact the measures read.
 */
function classOf(resource: Record<string, unknown>, warnings: string[]) {
  const code = firstCode(asObject(resource.class) ?? asArray(resource.class)[0]) ?? null;
  const mapped = code ? ENCOUNTER_CLASSES[code.toUpperCase()] : undefined;
  if (mapped) return { encounterClass: mapped, code };
  warnings.push(`class ${code ? 'outside v3 ActEncounterCode' : 'missing'} (stored as ${FALLBACK_ENCOUNTER_CLASS})`);
  return { encounterClass: FALLBACK_ENCOUNTER_CLASS, code };
}

/**
 * `diagnosis`, `reasonReference` and `location` (with the Location's type, its status and period), each reference rebuilt as `Type/<row id>` (the row the named
 * Condition has in this import), which the measures follow by id (CQMCommon's encounterDiagnosis()
 * reads `reasonReference`). One naming no type cannot be rebuilt: left out, with a warning.
 */
function conditionsNamed(context: MapContext, resource: Record<string, unknown>, warnings: string[]) {
  const reference = (element: unknown, field: string) => {
    const rebuilt = recordReference(context.namespace, element);
    if (rebuilt === null) warnings.push(`${field} reference names no resource type (left out)`);
    return rebuilt;
  };
  const diagnoses = asObjects(resource.diagnosis).flatMap((diagnosis) => {
    const condition = reference(diagnosis.condition, 'diagnosis.condition');
    if (condition === null) return [];
    const use = optionalCode(context, diagnosis.use, 'diagnosis.use', warnings);
    return [{ condition, useSystem: use?.system ?? null, useCode: use?.code ?? null, rank: asNumber(diagnosis.rank) ?? null }];
  });
  const reasons = asObjects(resource.reasonReference).map((element) => reference(element, 'reasonReference')).filter((value) => value !== null);
  const locations = asObjects(resource.location).flatMap((entry) => {
    const location = reference(entry.location, 'location');
    if (location === null) return [];
    // The Location's type, when the import holds it: what the measures read of it (CQMCommon's getLocation()).
    const target = context.locations.resolve(referenceOf(entry.location));
    const types = 'found' in target ? codingsOf(...asArray(target.found.concept)).map(({ system, code }) => ({ system, code })) : [];
    const period = asObject(entry.period);
    const start = lenientInstant(period?.start, 'location.period.start', warnings);
    const end = lenientInstant(period?.end, 'location.period.end', warnings);
    return [{ location, types, status: asString(entry.status)?.trim() || null, start: start?.instant ?? null, end: end?.instant ?? null }];
  });
  return {
    diagnoses: diagnoses.length > 0 ? JSON.stringify(diagnoses) : null,
    reason_references: reasons.length > 0 ? JSON.stringify(reasons) : null,
    locations: locations.length > 0 ? JSON.stringify(locations) : null,
  };
}

export function mapEncounter(source: SourceResource, context: MapContext): { mapped: MappedResource; target: EncounterTarget; keys: string[] } {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.subject);
  const status = mappedStatus(resource.status, STATUSES, Object.values(EncounterStatus));
  const { encounterClass, code: classCode } = classOf(resource, warnings);
  const period = asObject(resource.period);
  const start = requiredInstant(period?.start, 'period.start');
  const end = optionalInstant(period?.end, 'period.end');
  if (end && end.millis < start.millis) throw new SkipResource('period.end is before period.start');
  if (afterDeath(patient, start.millis)) warnings.push("starts after the patient's death (kept)");

  // Every `type` and `reasonCode` is a candidate: the stored coding is the one a value set knows, else the first.
  const type = optionalCode(context, asArray(resource.type), 'type', warnings);
  const reason = optionalCode(context, asArray(resource.reasonCode), 'reasonCode', warnings);
  const disposition = asObject(asObject(resource.hospitalization)?.dischargeDisposition);
  const dispositionCode = optionalCode(context, disposition, 'hospitalization.dischargeDisposition', warnings);
  const id = idOf(context, source);
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
          class_code: classCode,
          status,
          type_system: type?.system ?? null,
          type_code: type?.code ?? null,
          type_display: type?.display ?? null,
          type_other_codings: otherCodings(asArray(resource.type), type),
          reason_system: reason?.system ?? null,
          reason_code: reason?.code ?? null,
          reason_display: reason?.display ?? null,
          start_at: start.instant,
          end_at: end?.instant ?? null,
          disposition: cleanText(disposition?.text) ?? cleanText(asObjects(disposition?.coding)[0]?.display) ?? firstCode(disposition) ?? null,
          discharge_disposition_system: dispositionCode?.system ?? null,
          discharge_disposition_code: dispositionCode?.code ?? null,
          ...conditionsNamed(context, resource, warnings),
        },
      ],
    },
  };
  return { mapped, target: { rowId: id, patientRowId: patient.rowId }, keys: keysOf('Encounter', source.sourceId, source.fullUrl) };
}
