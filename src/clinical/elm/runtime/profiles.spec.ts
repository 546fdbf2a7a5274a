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

describe('inferProfiles reading codings', () => {
  const LAB = 'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-observation-lab';
  const BP = 'http://hl7.org/fhir/StructureDefinition/bp';
  const category = (code: string) => ({ coding: [{ code }] });

  it('reads categories in nested lists and a coding that is not a list, as a flatMap over them does', () => {
    expect(inferProfiles({ resourceType: 'Observation', category: [[category('x')], [category('laboratory')]], code: {} })).toContain(LAB);
    expect(inferProfiles({ resourceType: 'Observation', category: [{ coding: { code: 'laboratory' } }], code: {} })).toContain(LAB);
    expect(inferProfiles({ resourceType: 'Observation', category: category('laboratory'), code: {} })).toContain(LAB);
    expect(inferProfiles({ resourceType: 'Observation', category: [null, 'text'], code: {} })).not.toContain(LAB);
  });

  it('finds a vital sign among several codings of the code, once per profile', () => {
    const profiles = inferProfiles({ resourceType: 'Observation', code: { coding: [{ system: 'http://loinc.org', code: '1' }, { system: 'http://loinc.org', code: '85354-9' }] } });
    expect(profiles.filter((profile) => profile === BP)).toHaveLength(1);
  });
});
