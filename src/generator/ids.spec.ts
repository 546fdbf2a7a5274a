import { v5 as uuidv5 } from 'uuid';
import { generatedMrn, GENERATOR_NAMESPACE, IdFactory } from './ids';

describe(IdFactory.name, () => {
  it('makes the same RFC 9562 version-5 UUID as the uuid package, for the name seed/patient/kind/ordinal', () => {
    const sut = new IdFactory(12);
    expect(sut.id(345, 'observation', 6)).toBe(uuidv5('12/345/observation/6', GENERATOR_NAMESPACE));
    expect(sut.id(0, 'patient')).toBe(uuidv5('12/0/patient/0', GENERATOR_NAMESPACE));
    expect(sut.id(0, 'patient')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('gives different ids to different seeds, patients, kinds and ordinals', () => {
    const ids = new Set([
      new IdFactory(1).id(1, 'encounter', 1),
      new IdFactory(2).id(1, 'encounter', 1),
      new IdFactory(1).id(2, 'encounter', 1),
      new IdFactory(1).id(1, 'observation', 1),
      new IdFactory(1).id(1, 'encounter', 2),
    ]);
    expect(ids.size).toBe(5);
  });
});

describe(generatedMrn.name, () => {
  it('is SYN-<seed>-<1-based index>, never the fixtures’ VGL- form', () => {
    expect(generatedMrn(1, 0)).toBe('SYN-1-0000001');
    expect(generatedMrn(42, 99_999)).toBe('SYN-42-0100000');
  });
});
