/**
 * The FHIR resource types `chartToFhir` gives back to the published measures: what a measure can
 * retrieve from Vigil's store. Location is rebuilt from the encounters that name one. A Medication is
 * kept only as the code of the request, dispense or administration that names it (given back
 * contained in it, which a `[Medication]` retrieve does not see), so it is not listed; nor is any
 * other type a measure retrieves and Vigil never stores (Coverage, Claim, DiagnosticReport…). A spec
 * beside chartToFhir holds its output, and the import's stored types, to this list.
 */
export const READ_BACK_TYPES: readonly string[] = [
  'Patient',
  'Encounter',
  'Location',
  'Observation',
  'Condition',
  'Procedure',
  'MedicationRequest',
  'MedicationDispense',
  'MedicationAdministration',
  'Immunization',
  'Communication',
  'Task',
  'ServiceRequest',
  'DeviceRequest',
  'AllergyIntolerance',
  'AdverseEvent',
];
