import { inferProfiles } from './profiles';

const SMOKING = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-smokingstatus';
const observation = (code: string, category: string) => ({
  resourceType: 'Observation',
  status: 'final',
  category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: category }] }],
  code: { coding: [{ system: 'http://loinc.org', code }] },
});

describe(inferProfiles.name, () => {
  it.each([
    ['72166-2', 'social-history', true],
    ['72166-2', 'survey', true],
    ['39240-7', 'social-history', true],
    ['11367-0', 'social-history', true],
    ['39240-7', 'laboratory', false],
    ['4548-4', 'social-history', false],
  ])('tags an Observation %s of category %s as US Core smoking status: %s', (code, category, tagged) => {
    expect(inferProfiles(observation(code, category)).includes(SMOKING)).toBe(tagged);
  });
});
