import { Code, Concept, DateTime, Interval, Quantity } from 'cql-execution';
import { fhirModel } from './fhir-model';
import { FhirValue, toCodes } from './fhir-value';
import { toValue } from './fhir-helpers';
import { PatientData } from './patient-data';

/**
 * FHIR navigation as the reference engine's data source (cql-exec-fhir) does it, and the native
 * FHIRHelpers conversions over it.
 */

const settings = () => ({ model: fhirModel(), timezoneOffset: 0, dateTimes: new Map() });
const wrap = (json: Record<string, unknown> & { resourceType: string }) => new FhirValue(fhirModel().classOf(json.resourceType)!, json, settings());

describe(FhirValue.name, () => {
  const observation = wrap({
    resourceType: 'Observation',
    id: 'o1',
    status: 'final',
    code: { coding: [{ system: 'http://loinc.org', code: '4548-4' }, { system: 'http://loinc.org', code: '17856-6' }] },
    effectivePeriod: { start: '2025-03-01T10:00:00Z', end: '2025-03-01T11:00:00+02:00' },
    valueQuantity: { value: 9.5, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
    _status: { extension: [{ url: 'http://example.org/x', valueString: 'y' }] },
  });

  it('finds a choice element by its typed JSON name, and an explicit choice name only for its own type', () => {
    expect((observation.get('effective') as FhirValue).typeName).toBe('Period');
    expect((observation.get('value') as FhirValue).typeName).toBe('Quantity');
    expect(observation.get('valueQuantity')).toBeInstanceOf(FhirValue);
    expect(observation.get('valueCodeableConcept')).toBeNull();
  });

  it('merges a primitive with its _extension and reads the value as a CQL value', () => {
    const status = observation.get('status') as FhirValue;
    expect(status.typeName).toBe('ObservationStatus');
    expect(status.get('value')).toBe('final');
    expect((status.get('extension') as FhirValue[])[0].get('url')).toBeInstanceOf(FhirValue);
    expect(observation.get('effective.start.value')).toEqual(new DateTime(2025, 3, 1, 10, 0, 0, null, 0));
  });

  it('reads an element the FHIR model does not have (a QI-Core slice name) as null, as the reference engine does', () => {
    expect(wrap({ resourceType: 'Patient', id: 'p' }).get('race')).toBeNull();
  });

  it('gives the codes a retrieve filters on: every coding of a concept, each item of a list', () => {
    const codes = toCodes(observation.get('code')) as Code[];
    expect(codes.map((c) => `${c.system}|${c.code}`)).toEqual(['http://loinc.org|4548-4', 'http://loinc.org|17856-6']);
    const encounter = wrap({ resourceType: 'Encounter', type: [{ coding: [{ system: 's', code: 'a' }] }, { coding: [{ system: 's', code: 'b' }] }] });
    expect((toCodes(encounter.get('type')) as Code[]).map((c) => [c.system, c.code])).toEqual([['s', 'a'], ['s', 'b']]);
  });

  it('converts choices as FHIRHelpers.ToValue: a period to an interval, a quantity through UCUM, a concept to a concept', () => {
    const period = toValue(observation.get('effective')) as Interval;
    expect([String(period.low), String(period.high), period.lowClosed, period.highClosed]).toEqual(['2025-03-01T10:00:00+00:00', '2025-03-01T11:00:00+02:00', true, true]);
    expect(toValue(observation.get('value'))).toEqual(new Quantity(9.5, '%'));
    expect(toValue(observation.get('code'))).toBeInstanceOf(Concept);
    const comparator = wrap({ resourceType: 'Observation', valueQuantity: { value: 5, comparator: '<', unit: 'mg' } });
    expect(toValue(comparator.get('value'))).toBeNull();
    const openStart = toValue(wrap({ resourceType: 'Encounter', period: { end: '2025-01-02' } }).get('period')) as Interval;
    expect([openStart.low, openStart.lowClosed]).toEqual([null, false]);
  });
});

describe(PatientData.name, () => {
  const QICORE = 'http://hl7.org/fhir/us/qicore/StructureDefinition/';
  const resources = [
    { resourceType: 'Patient', id: 'p' },
    { resourceType: 'Encounter', id: 'tagged', meta: { profile: [`${QICORE}qicore-encounter`] } },
    { resourceType: 'Encounter', id: 'untagged' },
    { resourceType: 'MedicationRequest', id: 'declined', doNotPerform: true },
  ];
  const ids = (values: FhirValue[]) => values.map((v) => v.json.id);

  it('selects by meta.profile as the reference engine does, and tags untagged resources only when asked', () => {
    const strict = new PatientData(resources, settings(), false);
    expect(ids(strict.withProfile('Encounter', `${QICORE}qicore-encounter`))).toEqual(['tagged']);
    expect(ids(strict.withProfile('Encounter', 'http://hl7.org/fhir/StructureDefinition/Encounter'))).toEqual(['tagged', 'untagged']);
    const inferred = new PatientData(resources, settings(), true);
    expect(ids(inferred.withProfile('Encounter', `${QICORE}qicore-encounter`))).toEqual(['tagged', 'untagged']);
    expect(ids(inferred.withProfile('MedicationRequest', `${QICORE}qicore-mednotrequested`))).toEqual(['declined']);
    expect(ids(inferred.withProfile('MedicationRequest', `${QICORE}qicore-medicationrequest`))).toEqual([]);
  });

  it('wraps each resource once, so a resource is the same value in every retrieve', () => {
    const data = new PatientData(resources, settings());
    expect(data.all('Encounter')[0]).toBe(data.withProfile('Encounter', `${QICORE}qicore-encounter`)[0]);
  });
});
