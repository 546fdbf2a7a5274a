import { ObservationCategory } from '../../cohort/enum';
import { IdFactory } from '../ids';
import { generatePatientRecord } from '../patient-record';
import { FHIR_RESOURCE_TYPES, patientResources } from './fhir-resources';

const TEAMS = ['0b6c1a4e-8a0f-5d7e-9b3c-1e2f3a4b5c6d'];
const records = Array.from({ length: 40 }, (_, index) =>
  generatePatientRecord({ seed: 11, anchorMs: Date.parse('2026-01-01T00:00:00Z'), careTeamIds: TEAMS, ids: new IdFactory(11) }, index),
);

describe('patientResources (the generator as FHIR R4)', () => {
  const all = records.map((record) => ({ record, resources: patientResources(record) }));

  it('gives one resource per row, except blood pressures: one Observation per systolic/diastolic pair', () => {
    for (const { record, resources } of all) {
      const bpRows = record.observations.filter((row) => row.panelId !== null && row.category === ObservationCategory.VitalSigns);
      const panels = new Set(bpRows.map((row) => row.panelId));
      expect(bpRows.length).toBe(panels.size * 2);
      expect(resources.Observation.length).toBe(record.observations.length - panels.size);
      expect([resources.Encounter.length, resources.Condition.length, resources.MedicationRequest.length, resources.Procedure.length, resources.AllergyIntolerance.length]).toEqual([
        record.encounters.length,
        record.conditions.length,
        record.medications.length,
        record.procedures.length,
        record.allergies.length,
      ]);
    }
  });

  it('codes every blood pressure as the FHIR bp profile does: 85354-9 with systolic and diastolic components', () => {
    const panels = all.flatMap(({ resources }) => resources.Observation.filter((resource) => 'component' in resource));
    expect(panels.length).toBeGreaterThan(200);
    const shapes = new Set(
      panels.map((panel) =>
        JSON.stringify([
          (panel.code as { coding: { code: string }[] }).coding.map((coding) => coding.code),
          (panel.component as { code: { coding: { code: string }[] }; valueQuantity: { code: string } }[]).map((component) => [component.code.coding[0].code, component.valueQuantity.code]),
          panel.status,
          panel.category,
          typeof panel.effectiveDateTime,
        ]),
      ),
    );
    expect([...shapes]).toEqual([
      JSON.stringify([['85354-9'], [['8480-6', 'mm[Hg]'], ['8462-4', 'mm[Hg]']], 'final', [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] }], 'string']),
    ]);
  });

  it('points every resource at its own patient and at encounters of the same patient, with unique ids', () => {
    const wrong: string[] = [];
    for (const { resources } of all) {
      const patient = resources.Patient[0];
      const encounters = new Set(resources.Encounter.map((encounter) => `Encounter/${encounter.id}`));
      for (const type of FHIR_RESOURCE_TYPES.filter((name) => name !== 'Patient')) {
        for (const resource of resources[type]) {
          if (((resource.subject ?? resource.patient) as { reference: string }).reference !== `Patient/${patient.id}`) wrong.push(`${type} subject`);
          const encounter = resource.encounter as { reference: string } | undefined;
          if (encounter && !encounters.has(encounter.reference)) wrong.push(`${type} encounter`);
        }
      }
    }
    expect(wrong).toEqual([]);
    const ids = all.flatMap(({ resources }) => FHIR_RESOURCE_TYPES.flatMap((type) => resources[type].map((resource) => `${type}/${resource.id}`)));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('writes no empty element: FHIR has no nulls, empty strings or empty arrays', () => {
    const empty = (value: unknown): boolean =>
      value === null || value === undefined || value === '' || (Array.isArray(value) && (value.length === 0 || value.some(empty))) ||
      (typeof value === 'object' && !Array.isArray(value) && (Object.keys(value as object).length === 0 || Object.values(value as object).some(empty)));
    const withEmpty = all.flatMap(({ resources }) => FHIR_RESOURCE_TYPES.flatMap((type) => resources[type].filter(empty).map(() => type)));
    expect(withEmpty).toEqual([]);
  });
});
