import type { ElmLibrary, ElmNode } from '../elm.types';
import { dataRequirementsOf } from './data-requirements';
import type { FhirMeasure } from './measure.types';
import { RequirementSelector } from './requirement-selector';

const QICORE = 'http://hl7.org/fhir/us/qicore/StructureDefinition/';
const FHIR = '{http://hl7.org/fhir}';

const retrieve = (type: string, profile: string, codes?: ElmNode, codeProperty = 'code'): ElmNode => ({
  type: 'Retrieve',
  dataType: `${FHIR}${type}`,
  templateId: profile,
  ...(codes ? { codes, codeProperty, codeComparator: 'in' } : {}),
});
const define = (name: string, expression: ElmNode) => ({ name, context: 'Patient', expression });

/** A main library and a shared one it includes; the shared one's unused define must not count. */
const common: ElmLibrary = {
  library: {
    identifier: { id: 'Common', version: '1.0.0' },
    valueSets: { def: [{ name: 'Hospice Encounter', id: 'urn:vs:hospice' }, { name: 'Unused', id: 'urn:vs:unused' }] },
    statements: {
      def: [
        define('Hospice', retrieve('Encounter', `${QICORE}qicore-encounter`, { type: 'ValueSetRef', name: 'Hospice Encounter' }, 'type')),
        define('Never read', retrieve('Procedure', `${QICORE}qicore-procedure`, { type: 'ValueSetRef', name: 'Unused' })),
      ],
    },
  },
};
const main: ElmLibrary = {
  library: {
    identifier: { id: 'Main', version: '2.0.0' },
    includes: { def: [{ localIdentifier: 'C', path: 'https://madie.cms.gov/Common', version: '1.0.0' }] },
    codeSystems: { def: [{ name: 'LOINC', id: 'http://loinc.org' }] },
    codes: { def: [{ name: 'HbA1c', id: '4548-4', codeSystem: { name: 'LOINC' } }] },
    valueSets: { def: [{ name: 'Office Visit', id: 'urn:vs:office' }, { name: 'Diabetes Drugs', id: 'urn:vs:drugs' }] },
    statements: {
      def: [
        define('Patient', { type: 'SingletonFrom', operand: retrieve('Patient', 'http://hl7.org/fhir/StructureDefinition/Patient') }),
        define('Visits', retrieve('Encounter', `${QICORE}qicore-encounter`, { type: 'ValueSetRef', name: 'Office Visit' }, 'type')),
        // The same retrieve twice is one requirement.
        define('Visits again', retrieve('Encounter', `${QICORE}qicore-encounter`, { type: 'ValueSetRef', name: 'Office Visit' }, 'type')),
        define('Lab', retrieve('Observation', `${QICORE}qicore-observation-lab`, { type: 'ToList', operand: { type: 'CodeRef', name: 'HbA1c' } })),
        define('Drugs', retrieve('MedicationRequest', `${QICORE}qicore-medicationrequest`, { type: 'ValueSetRef', name: 'Diabetes Drugs' }, 'medication')),
        define('Exclusion', { type: 'Exists', operand: { type: 'ExpressionRef', libraryName: 'C', name: 'Hospice' } }),
      ],
    },
  },
};
const measure = { resourceType: 'Measure', url: 'urn:m', version: '1', library: ['https://madie.cms.gov/Library/Main|2.0.0'] } as FhirMeasure;
const valueSets = [
  { url: 'urn:vs:office', expansion: { contains: [{ system: 'http://snomed.info/sct', code: '185463005' }] } },
  { url: 'urn:vs:hospice', expansion: { contains: [{ system: 'http://snomed.info/sct', code: '183919006' }] } },
  { url: 'urn:vs:drugs', expansion: { contains: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '860975' }] } },
];

describe(dataRequirementsOf.name, () => {
  const sut = dataRequirementsOf(measure, [main, common]);

  it('lists each retrieve the measure can reach once, across included libraries, with type, profile, code path and value set or codes', () => {
    expect(sut.map(({ key: _key, ...rest }) => rest)).toEqual([
      { resourceType: 'Patient' },
      { resourceType: 'Encounter', profile: `${QICORE}qicore-encounter`, codePath: 'type', valueSet: { url: 'urn:vs:office', name: 'Office Visit' } },
      { resourceType: 'Observation', profile: `${QICORE}qicore-observation-lab`, codePath: 'code', codes: [{ system: 'http://loinc.org', code: '4548-4', name: 'HbA1c' }] },
      { resourceType: 'MedicationRequest', profile: `${QICORE}qicore-medicationrequest`, codePath: 'medication', valueSet: { url: 'urn:vs:drugs', name: 'Diabetes Drugs' } },
      { resourceType: 'Encounter', profile: `${QICORE}qicore-encounter`, codePath: 'type', valueSet: { url: 'urn:vs:hospice', name: 'Hospice Encounter' } },
    ]);
  });

  it('leaves out what nothing of the measure reaches, and finds nothing without the main library', () => {
    expect(sut.some((requirement) => requirement.resourceType === 'Procedure')).toBe(false);
    expect(dataRequirementsOf(measure, [common])).toEqual([]);
  });
});

describe(RequirementSelector.name, () => {
  const requirements = dataRequirementsOf(measure, [main, common]);
  const index = (type: string, name?: string) =>
    requirements.findIndex((r) => r.resourceType === type && (name === undefined || r.valueSet?.name === name || r.codes?.[0].name === name));
  const oids: Record<string, string> = { 'urn:oid:2.16.840.1.113883.6.1': 'http://loinc.org' };
  const sut = new RequirementSelector(requirements, valueSets, { normaliseSystem: (system) => oids[system] ?? system });

  it('selects by type, code at the code path and value set, choice elements included', () => {
    expect(sut.select({ resourceType: 'Patient', id: 'p' })).toEqual([index('Patient')]);
    const office = { resourceType: 'Encounter', type: [{ coding: [{ system: 'http://snomed.info/sct', code: '185463005' }] }] };
    expect(sut.select(office)).toEqual([index('Encounter', 'Office Visit')]);
    const hospice = { resourceType: 'Encounter', type: [{ coding: [{ system: 'http://snomed.info/sct', code: '1' }, { system: 'http://snomed.info/sct', code: '183919006' }] }] };
    expect(sut.select(hospice)).toEqual([index('Encounter', 'Hospice Encounter')]);
    const drug = { resourceType: 'MedicationRequest', medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '860975' }] } };
    expect(sut.select(drug)).toEqual([index('MedicationRequest')]);
  });

  it('selects by the profile a stored resource is given (category), reading an OID system as the import stores it', () => {
    const lab = (category: string) => ({
      resourceType: 'Observation',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: category }] }],
      code: { coding: [{ system: 'urn:oid:2.16.840.1.113883.6.1', code: '4548-4' }] },
      // A source's own tag neither adds nor hides a profile: Vigil gives stored resources back untagged.
      meta: { profile: ['http://example.org/other'] },
    });
    expect(sut.select(lab('laboratory'))).toEqual([index('Observation', 'HbA1c')]);
    expect(sut.select(lab('vital-signs'))).toEqual([]);
  });

  it('selects nothing for codes outside every value set, a code elsewhere than the code path, or a type no retrieve reads', () => {
    expect(sut.select({ resourceType: 'Encounter', type: [{ coding: [{ system: 'http://snomed.info/sct', code: '999' }] }] })).toEqual([]);
    expect(sut.select({ resourceType: 'Encounter', reasonCode: [{ coding: [{ system: 'http://snomed.info/sct', code: '185463005' }] }] })).toEqual([]);
    expect(sut.select({ resourceType: 'MedicationRequest', medicationReference: { reference: 'Medication/1' } })).toEqual([]);
    expect(sut.select({ resourceType: 'Claim' })).toEqual([]);
  });
});
