import { worklistKeysetOf } from './worklist-page';

const ID = '6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11';

describe(worklistKeysetOf.name, () => {
  it.each([
    ['name', { key1: "O'Brien-Núñez", key2: 'Siobhán', patientId: ID }],
    ['name', { key1: '高橋', key2: '', patientId: ID }],
    ['age', { key1: '1992-02-29', key2: null, patientId: ID }],
    ['lastResult', { key1: '0001-01-01', key2: null, patientId: ID }],
    ['lastResult', { key1: '2026-06-30', key2: null, patientId: ID }],
  ] as const)('takes a %s keyset of its shape', (sort, keyset) => {
    expect(worklistKeysetOf(keyset, sort)).toEqual(keyset);
  });

  // Each would fail as a cast or a bind in Postgres (a 500), or is not a keyset the statements issue.
  it.each([
    ['age', { key1: '2026-13-45', key2: null, patientId: ID }],
    ['age', { key1: '0000-00-00', key2: null, patientId: ID }],
    ['age', { key1: '0000-01-01', key2: null, patientId: ID }],
    ['lastResult', { key1: '2026-02-30', key2: null, patientId: ID }],
    ['lastResult', { key1: '2025-02-29', key2: null, patientId: ID }],
    ['lastResult', { key1: '20260630', key2: null, patientId: ID }],
    ['age', { key1: '1992-02-29', key2: 'x', patientId: ID }],
    ['age', { key1: 19920229, key2: null, patientId: ID }],
    ['name', { key1: 'Pru\u0000itt', key2: 'Deshawn', patientId: ID }],
    ['name', { key1: 'Pruitt', key2: 'De\ud800shawn', patientId: ID }],
    ['name', { key1: 'x'.repeat(501), key2: 'Deshawn', patientId: ID }],
    ['name', { key1: 'Pruitt', key2: null, patientId: ID }],
    ['name', { key1: '1992-02-29', patientId: ID }],
    ['name', { key1: 'Pruitt', key2: 'Deshawn', patientId: 'not-a-uuid' }],
    ['name', { key1: 'Pruitt', key2: 'Deshawn', patientId: '-'.repeat(36) }],
    ['name', null],
    ['name', ['Pruitt', 'Deshawn', ID]],
    ['name', 'Pruitt'],
  ] as const)('refuses a %s keyset that does not fit: %j', (sort, value) => {
    expect(worklistKeysetOf(value, sort)).toBeNull();
  });
});
