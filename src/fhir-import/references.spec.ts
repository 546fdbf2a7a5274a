import { keysOf, normaliseReference, referenceOf, rowId, TargetIndex } from './references';

describe(normaliseReference.name, () => {
  it.each([
    ['urn:uuid:5F6D256F-fc32-4b10-ba9c-51aba830cfa4', 'urn:uuid:5f6d256f-fc32-4b10-ba9c-51aba830cfa4'],
    ['Patient/pat-1', 'Patient/pat-1'],
    ['http://example.org/fhir/Patient/pat-1', 'Patient/pat-1'],
    ['http://example.org/fhir/Patient/pat-1/_history/3', 'Patient/pat-1'],
    ['#contained', undefined],
  ])('%s → %s', (reference, expected) => {
    expect(normaliseReference(reference)).toBe(expected);
  });

  it('reads a Reference element and ignores anything else', () => {
    expect(referenceOf({ reference: ' Patient/p1 ' })).toBe('Patient/p1');
    expect(referenceOf({ display: 'no reference' })).toBeUndefined();
    expect(referenceOf('Patient/p1')).toBeUndefined();
  });
});

describe(TargetIndex.name, () => {
  it('resolves every form a resource may be referenced by', () => {
    const sut = new TargetIndex<string>();
    sut.add(keysOf('Patient', 'ABC-1', 'http://example.org/fhir/Patient/ABC-1'), 'row');
    expect(sut.resolve('Patient/ABC-1')).toEqual({ found: 'row' });
    expect(sut.resolve(normaliseReference('urn:uuid:ABC-1'))).toEqual({ found: 'row' });
    expect(sut.resolve('Patient/other')).toEqual({ dangling: true });
    expect(sut.resolve(undefined)).toEqual({ dangling: true });
  });

  it('tells a refused target from a missing one, and never un-finds a written one', () => {
    const sut = new TargetIndex<string>();
    sut.refuse(['Patient/bad']);
    sut.add(['Patient/good'], 'row');
    sut.refuse(['Patient/good']);
    expect(sut.resolve('Patient/bad')).toEqual({ skipped: true });
    expect(sut.resolve('Patient/good')).toEqual({ found: 'row' });
  });
});

describe(rowId.name, () => {
  it('is stable for a source identity and differs between identities', () => {
    expect(rowId('Patient/p1')).toBe(rowId('Patient/p1'));
    expect(rowId('Patient/p1')).not.toBe(rowId('Encounter/p1'));
    expect(rowId('Observation/o1', 'http://loinc.org|8480-6')).not.toBe(rowId('Observation/o1', 'http://loinc.org|8462-4'));
  });
});
