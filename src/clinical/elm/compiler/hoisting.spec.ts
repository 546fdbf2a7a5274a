import type { ElmNode } from '../elm.types';
import { int, ivl, list, op, runDefines } from '../testing/elm-builders';
import { invariantOperands } from './hoisting';

/**
 * Which operands of a query are computed once per evaluation instead of once per row: only those
 * that read no name the query binds, nor one bound by a query nested between it and them.
 */

const alias = (name: string): ElmNode => ({ type: 'AliasRef', name });
const query = (source: [string, ElmNode][], clauses: Record<string, unknown> = {}): ElmNode => ({
  type: 'Query',
  source: source.map(([name, expression]) => ({ alias: name, expression })),
  ...clauses,
});
const period: ElmNode = { type: 'ParameterRef', name: 'Measurement Period' };

describe(invariantOperands.name, () => {
  it('hoists an operand that reads no alias (the period’s end minus a quantity), not the alias-dependent comparison around it', () => {
    const bound = op('Subtract', [op('End', period), { type: 'Quantity', value: 2, unit: 'years' }]);
    const where = op('After', [alias('X'), bound]);
    expect(invariantOperands(query([['X', list(int(1))]], { where }))).toEqual([bound]);
  });

  it('leaves cheap reads (a parameter, a literal) where they are', () => {
    const where = op('In', [alias('X'), period]);
    expect(invariantOperands(query([['X', list(int(1))]], { where }))).toEqual([]);
  });

  it('never hoists a nested query that reads the outer alias, but hoists one that reads only its own', () => {
    const readsOuter = query([['Y', list(int(1), int(2))]], { where: op('Equal', [alias('Y'), alias('X')]) });
    const ownOnly = query([['Z', list(int(1), int(2))]], { where: op('Equal', [alias('Z'), int(1)]) });
    const where = op('And', [op('Exists', readsOuter), op('Exists', ownOnly)]);
    const readsOuterSource = (readsOuter.source as { expression: ElmNode }[])[0].expression;
    // Of the query reading X, only its source (a constant list) is hoisted; the other query, whole.
    expect(invariantOperands(query([['X', list(int(1))]], { where }))).toEqual([readsOuterSource, op('Exists', ownOnly)]);
  });

  it('reads a nested query’s source in the scope around it, even where it reuses the outer alias name ($this in $this)', () => {
    // `X.item` as the source of a query whose own alias is also X: it reads the outer X, so it varies by row.
    const inner = query([['X', { type: 'Property', path: 'item', source: alias('X') }]], { return: { expression: { type: 'Property', path: 'value', scope: 'X' } } });
    expect(invariantOperands(query([['X', list(int(1))]], { return: { expression: op('Flatten', inner) } }))).toEqual([]);
  });

  it('hoists a with clause’s invariant source but not its such-that, which reads the related alias', () => {
    const source = query([['Y', list(int(1), int(2))]], { where: op('Greater', [alias('Y'), int(1)]) });
    const suchThat = op('Equal', [alias('Y'), alias('X')]);
    const relationship = [{ type: 'With', alias: 'Y', expression: source, suchThat }];
    expect(invariantOperands(query([['X', list(int(1))]], { relationship }))).toEqual([source]);
  });
});

describe('a query with hoisted operands', () => {
  it('gives each row its own answer where nested queries read the outer alias, and the same as before where they do not', () => {
    const rows = list(int(1), int(2), int(3));
    const window = ivl(op('Subtract', [int(3), int(1)]), int(3));
    const values = runDefines({
      // X in Interval[3 - 1, 3] (hoisted) and X greater than some Y of {1, 2} where Y < X (per row).
      Both: query([['X', rows]], { where: op('And', [op('In', [alias('X'), window]), op('Exists', query([['Y', list(int(1), int(2))]], { where: op('Less', [alias('Y'), alias('X')]) }))]) }),
      // The same alias name inside and out: the inner source reads the outer row.
      Shadowed: query([['X', rows]], { return: { expression: query([['X', list(alias('X'))]], { return: { expression: op('Add', [alias('X'), int(10)]) } }) } }),
    });
    expect(values.Both).toEqual([2, 3]);
    expect(values.Shadowed).toEqual([[11], [12], [13]]);
  });
});
