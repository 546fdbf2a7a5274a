import { MappedResource, SupportedType } from './fhir-import.types';
import { MapContext, SourceResource } from './map-context';
import { mapMedicationAdministration, mapTask } from './map-measure-records';
import { mapObservation } from './map-observation';
import { mapAdverseEvent, mapAllergyIntolerance, mapCommunication, mapCondition, mapImmunization, mapProcedure } from './map-records';
import { mapMedicationDispense, mapMedicationRequest, mapRequest } from './map-requests';

/** The mapper of each clinical record type: every supported type but Patient and Encounter, which others name and the importer indexes. */
export const RECORD_MAPPERS: Record<Exclude<SupportedType, 'Patient' | 'Encounter'>, (source: SourceResource, context: MapContext) => MappedResource> = {
  Observation: mapObservation,
  Condition: mapCondition,
  MedicationRequest: mapMedicationRequest,
  MedicationDispense: mapMedicationDispense,
  Procedure: mapProcedure,
  AllergyIntolerance: mapAllergyIntolerance,
  ServiceRequest: mapRequest,
  DeviceRequest: mapRequest,
  AdverseEvent: mapAdverseEvent,
  Immunization: mapImmunization,
  Communication: mapCommunication,
  MedicationAdministration: mapMedicationAdministration,
  Task: mapTask,
};
