import { equals } from 'cql-execution/lib/util/comparison';
import { isNil } from '../runtime/fhir-value';
import { Handler, Run, operands } from './compiler.types';

/**
 * Three-valued logic, nulls and conditionals (CQL §9.1, §9.3, §9.8). And/Or stop at the first
 * operand that decides the result: the reference engine evaluates both, but an operand has no
 * effect other than its value, so the answer is the same.
 */

/** The truth value of an ELM result: true, false, or null (anything else reads as unknown). */
const truth = (value: unknown): boolean | null => (value === true ? true : value === false ? false : null);

export function and(values: readonly Run[]): Run {
  if (values.length === 2) {
    const [a, b] = values;
    return (c, f) => {
      const x = truth(a(c, f));
      if (x === false) return false;
      const y = truth(b(c, f));
      if (y === false) return false;
      return x === null || y === null ? null : true;
    };
  }
  return (c, f) => {
    let unknown = false;
    for (const value of values) {
      const x = truth(value(c, f));
      if (x === false) return false;
      if (x === null) unknown = true;
    }
    return unknown ? null : true;
  };
}

export function or(values: readonly Run[]): Run {
  return (c, f) => {
    let unknown = false;
    for (const value of values) {
      const x = truth(value(c, f));
      if (x === true) return true;
      if (x === null) unknown = true;
    }
    return unknown ? null : false;
  };
}

export function not(value: Run): Run {
  return (c, f) => {
    const x = value(c, f);
    return isNil(x) ? null : !x;
  };
}

const literal = (node: { valueType?: unknown; value?: unknown }): unknown => {
  const value = node.value;
  switch (node.valueType) {
    case '{urn:hl7-org:elm-types:r1}Boolean':
      return value === 'true' || value === true;
    case '{urn:hl7-org:elm-types:r1}Integer':
      return parseInt(String(value), 10);
    case '{urn:hl7-org:elm-types:r1}Decimal':
      return parseFloat(String(value));
    default:
      return value ?? null;
  }
};

export const logicHandlers: Record<string, Handler> = {
  And: (node, scope, cx) => and(operands(node).map((o) => cx.expr(o, scope))),
  Or: (node, scope, cx) => or(operands(node).map((o) => cx.expr(o, scope))),
  Not: (node, scope, cx) => not(cx.expr(operands(node)[0], scope)),
  Xor: (node, scope, cx) => {
    const [a, b] = operands(node).map((o) => cx.expr(o, scope));
    return (c, f) => {
      const x = a(c, f);
      const y = b(c, f);
      return isNil(x) || isNil(y) ? null : Boolean(x) !== Boolean(y);
    };
  },
  Implies: (node, scope, cx) => {
    const [a, b] = operands(node).map((o) => cx.expr(o, scope));
    return (c, f) => {
      const left = a(c, f);
      const right = b(c, f);
      if (left === true) return right ?? null;
      if (left === false) return true;
      return right === true ? true : null;
    };
  },
  IsNull: (node, scope, cx) => {
    const a = cx.expr(operands(node)[0], scope);
    return (c, f) => isNil(a(c, f));
  },
  IsTrue: (node, scope, cx) => {
    const a = cx.expr(operands(node)[0], scope);
    return (c, f) => a(c, f) === true;
  },
  IsFalse: (node, scope, cx) => {
    const a = cx.expr(operands(node)[0], scope);
    return (c, f) => a(c, f) === false;
  },
  Coalesce: (node, scope, cx) => {
    const args = operands(node).map((o) => cx.expr(o, scope));
    return (c, f) => {
      for (const arg of args) {
        const value = arg(c, f);
        // One list operand: the first non-null item of the list.
        if (args.length === 1 && Array.isArray(value)) {
          const item = value.find((x) => !isNil(x));
          if (!isNil(item)) return item;
        } else if (!isNil(value)) return value;
      }
      return null;
    };
  },
  If: (node, scope, cx) => {
    const condition = cx.expr(node.condition, scope);
    const then = cx.expr(node.then, scope);
    const otherwise = cx.expr(node.else, scope);
    return (c, f) => (condition(c, f) ? then(c, f) : otherwise(c, f));
  },
  Case: (node, scope, cx) => {
    const items = ((node.caseItem as { when: unknown; then: unknown }[] | undefined) ?? []).map((item) => ({ when: cx.expr(item.when, scope), then: cx.expr(item.then, scope) }));
    const otherwise = cx.expr(node.else, scope);
    if (node.comparand) {
      const comparand = cx.expr(node.comparand, scope);
      return (c, f) => {
        const value = comparand(c, f);
        for (const item of items) if (equals(item.when(c, f), value)) return item.then(c, f);
        return otherwise(c, f);
      };
    }
    return (c, f) => {
      for (const item of items) if (item.when(c, f)) return item.then(c, f);
      return otherwise(c, f);
    };
  },
  Null: () => () => null,
  Literal: (node) => {
    const value = literal(node as { valueType?: unknown; value?: unknown });
    return () => value;
  },
  // The reference engine reports a message to its listener (none, in fqm-execution) and returns the source.
  Message: (node, scope, cx) => {
    const source = cx.expr(node.source, scope);
    return (c, f) => source(c, f);
  },
};
