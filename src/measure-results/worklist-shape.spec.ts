import { fixedShapeOf, worklistStatementName } from './worklist-shape';
import { WORKLIST_STATEMENTS } from './worklist.sql';

describe(fixedShapeOf.name, () => {
  it('fixes the measure, the status and the keyset of a page without a reason or attestation filter', () => {
    expect(fixedShapeOf({}, 'probe', false)).toEqual({ measure: false, status: false, after: false });
    expect(fixedShapeOf({ measureId: 'CMS165', status: 'open-gap' }, 'probe', true)).toEqual({ measure: true, status: true, after: true });
  });

  it('fixes a walk checked hashed when the page has a measure', () => {
    expect(fixedShapeOf({ measureId: 'CMS122', status: 'open-gap' }, 'hashed', false)).toEqual({ measure: true, status: true, after: false });
    expect(fixedShapeOf({ measureId: 'CMS122' }, 'hashed', true)).toEqual({ measure: true, status: false, after: true });
  });

  it.each([
    ['a reason', { reason: 'not-numerator' }, 'probe'],
    ['an attestation filter', { attestation: 'attested' }, 'probe'],
    ['a hashed check without a measure', { status: 'open-gap' }, 'hashed'],
    ['a reason, checked hashed', { measureId: 'CMS122', reason: 'not-numerator' }, 'hashed'],
  ] as const)('leaves a page with %s to the NULL-able statements', (_case, query, check) => {
    expect(fixedShapeOf(query, check, false)).toBeNull();
  });
});

describe(worklistStatementName.name, () => {
  it('names a statement that exists for every order, direction, check and shape', () => {
    const shapes = [null, ...[false, true].flatMap((measure) => [false, true].flatMap((status) => [false, true].map((after) => ({ measure, status, after }))))];
    for (const sort of ['name', 'age', 'lastResult'] as const)
      for (const order of ['asc', 'desc'] as const)
        for (const shape of shapes)
          for (const check of sort === 'lastResult' || (shape && !shape.measure) ? (['probe'] as const) : (['probe', 'hashed'] as const)) {
            const name = worklistStatementName(sort, order, shape?.measure ?? false, check, shape);
            expect([name, typeof WORKLIST_STATEMENTS[name]]).toEqual([name, 'string']);
          }
  });
});
