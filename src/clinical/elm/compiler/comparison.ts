import { Uncertainty } from 'cql-execution/lib/datatypes/uncertainty';
import { equals, equivalent } from 'cql-execution/lib/util/comparison';
import { isNil } from '../runtime/fhir-value';
import { Handler, Run, Scope, Compiler, operands } from './compiler.types';
import type { ElmNode } from '../elm.types';

/**
 * Equality, equivalence and ordering (CQL §9.2), with cql-execution's comparison functions: null
 * propagates through `=` and `<`, `~` treats two nulls as equivalent, date-times compare at their
 * common precision and quantities through UCUM. Uncertainties (a duration between imprecise dates)
 * order as the reference engine orders them.
 */

type Order = 'lessThan' | 'lessThanOrEquals' | 'greaterThan' | 'greaterThanOrEquals';

function binary(node: ElmNode, scope: Scope, cx: Compiler): [Run, Run] {
  const [a, b] = operands(node);
  return [cx.expr(a, scope), cx.expr(b, scope)];
}

function ordering(order: Order): Handler {
  return (node, scope, cx) => {
    const [a, b] = binary(node, scope, cx);
    return (c, f) => {
      const x = a(c, f);
      const y = b(c, f);
      if (isNil(x) || isNil(y)) return null;
      if ((typeof x === 'number' && typeof y === 'number') || (typeof x === 'string' && typeof y === 'string')) {
        switch (order) {
          case 'lessThan':
            return x < y;
          case 'lessThanOrEquals':
            return x <= y;
          case 'greaterThan':
            return x > y;
          default:
            return x >= y;
        }
      }
      return Uncertainty.from(x)[order](Uncertainty.from(y)) ?? null;
    };
  };
}

export const equalRun = (a: Run, b: Run): Run => (c, f) => {
  const x = a(c, f);
  const y = b(c, f);
  return isNil(x) || isNil(y) ? null : (equals(x, y) ?? null);
};

export const comparisonHandlers: Record<string, Handler> = {
  Equal: (node, scope, cx) => equalRun(...binary(node, scope, cx)),
  NotEqual: (node, scope, cx) => {
    const eq = equalRun(...binary(node, scope, cx));
    return (c, f) => {
      const value = eq(c, f);
      return isNil(value) ? null : !value;
    };
  },
  Equivalent: (node, scope, cx) => {
    const [a, b] = binary(node, scope, cx);
    return (c, f) => {
      const x = a(c, f);
      const y = b(c, f);
      if (isNil(x) && isNil(y)) return true;
      if (isNil(x) || isNil(y)) return false;
      return equivalent(x, y) ?? null;
    };
  },
  Less: ordering('lessThan'),
  LessOrEqual: ordering('lessThanOrEquals'),
  Greater: ordering('greaterThan'),
  GreaterOrEqual: ordering('greaterThanOrEquals'),
};
