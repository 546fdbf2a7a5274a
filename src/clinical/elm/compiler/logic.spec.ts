import { bool, int, list, nul, nullAs, op, run, str } from '../testing/elm-builders';

/**
 * Three-valued logic and nulls, transcribed from the cqframework cql-tests suite
 * (tests/cql/CqlLogicalOperatorsTest.xml, CqlNullologicalOperatorsTest.xml, CqlConditionalOperatorsTest.xml;
 * Apache-2.0): each row is a test's expression and its expected output.
 */

const T = bool(true);
const F = bool(false);
const N = nul();

describe('three-valued logic (cql-tests CqlLogicalOperatorsTest)', () => {
  const truth: [string, ReturnType<typeof bool>, ReturnType<typeof bool>, Record<string, boolean | null>][] = [
    ['true,true', T, T, { And: true, Or: true, Xor: false, Implies: true }],
    ['true,false', T, F, { And: false, Or: true, Xor: true, Implies: false }],
    ['true,null', T, N, { And: null, Or: true, Xor: null, Implies: null }],
    ['false,true', F, T, { And: false, Or: true, Xor: true, Implies: true }],
    ['false,false', F, F, { And: false, Or: false, Xor: false, Implies: true }],
    ['false,null', F, N, { And: false, Or: null, Xor: null, Implies: true }],
    ['null,true', N, T, { And: null, Or: true, Xor: null, Implies: true }],
    ['null,false', N, F, { And: false, Or: null, Xor: null, Implies: null }],
    ['null,null', N, N, { And: null, Or: null, Xor: null, Implies: null }],
  ];
  it.each(truth)('%s', (_name, a, b, expected) => {
    for (const [operator, value] of Object.entries(expected)) expect([operator, run(op(operator, [a, b]))]).toEqual([operator, value]);
  });

  it('not', () => {
    expect([run(op('Not', T)), run(op('Not', F)), run(op('Not', N))]).toEqual([false, true, null]);
  });

  it('stops an and at false and an or at true, whatever follows (the answer the reference engine gives by evaluating both)', () => {
    const failing = op('SingletonFrom', list(int(1), int(2)));
    expect(run(op('And', [F, op('IsNull', failing)]))).toBe(false);
    expect(run(op('Or', [T, op('IsNull', failing)]))).toBe(true);
    expect(() => run(op('And', [T, op('IsNull', failing)]))).toThrow(/singleton from/);
  });
});

describe('nulls (cql-tests CqlNullologicalOperatorsTest)', () => {
  it.each([
    ['CoalesceANull', op('Coalesce', [str('a'), N]), 'a'],
    ['CoalesceNullA', op('Coalesce', [N, str('a')]), 'a'],
    ['CoalesceEmptyList', op('Coalesce', [list()]), null],
    ['CoalesceListFirstA', op('Coalesce', [list(str('a'), N, N)]), 'a'],
    ['CoalesceListLastA', op('Coalesce', [list(N, N, str('a'))]), 'a'],
    ['CoalesceFirstList', op('Coalesce', [list(str('a')), N, N]), ['a']],
    ['IsNullTrue', op('IsNull', N), true],
    ['IsNullFalseEmptyString', op('IsNull', str('')), false],
    ['IsNullAlsoFalseAbcString', op('IsNull', str('abc')), false],
    ['IsTrueTrue', op('IsTrue', T), true],
    ['IsTrueNull', op('IsTrue', N), false],
    ['IsFalseFalse', op('IsFalse', F), true],
    ['IsFalseNull', op('IsFalse', N), false],
  ])('%s', (_name, expression, expected) => {
    expect(run(expression)).toEqual(expected);
  });
});

describe('conditionals (cql-tests CqlConditionalOperatorsTest)', () => {
  const standardCase = (x: number) => ({
    type: 'Case',
    caseItem: [
      { when: op('Greater', [int(x), int(5)]), then: str('GT') },
      { when: op('Less', [int(x), int(5)]), then: str('LT') },
    ],
    else: str('EQ'),
  });
  it.each([
    ['StandardCase1', standardCase(10), 'GT'],
    ['StandardCase2', standardCase(3), 'LT'],
    ['StandardCase3', standardCase(5), 'EQ'],
    ['IfTrue1', { type: 'If', condition: op('Greater', [int(10), int(5)]), then: int(5), else: int(10) }, 5],
    ['IfNull1', { type: 'If', condition: op('Equal', [int(10), nullAs('Integer')]), then: int(5), else: int(10) }, 10],
    ['SelectedCase1', { type: 'Case', comparand: int(5), caseItem: [{ when: int(5), then: str('five') }, { when: int(6), then: str('six') }], else: str('?') }, 'five'],
    ['SelectedCaseNull', { type: 'Case', comparand: N, caseItem: [{ when: int(5), then: str('five') }], else: str('none') }, 'none'],
  ])('%s', (_name, expression, expected) => {
    expect(run(expression)).toEqual(expected);
  });
});
