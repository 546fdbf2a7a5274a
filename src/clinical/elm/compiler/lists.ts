import { Interval, Quantity } from 'cql-execution';
import { greaterThan, lessThan } from 'cql-execution/lib/util/comparison';
import { ElmEvaluationError } from '../elm-errors';
import type { ElmNode } from '../elm.types';
import { isNil } from '../runtime/fhir-value';
import { distinct, listExcept, listIntersect, listUnion } from '../runtime/lists';
import { Handler, operands } from './compiler.types';

/**
 * Lists and aggregates (CQL §9.6, §9.14, §20): set operators shared with intervals, dispatched on
 * the operand at run time; distinct by value; aggregates that skip nulls and refuse (null) a list
 * mixing quantities of units that do not convert.
 */

const notNull = (list: readonly unknown[]) => list.filter((x) => !isNil(x));

/** The reference engine answers [] for a union of two nulls cast to lists, null otherwise. */
const listCast = (node: ElmNode) => operands(node).some((o) => (o as ElmNode).type === 'As' && ((o as ElmNode).asTypeSpecifier as { type?: string } | undefined)?.type === 'ListTypeSpecifier');

/** cql-execution's processQuantities: quantities converted to the first one's unit; a mix fails. */
function sameUnits(values: readonly unknown[]): unknown[] {
  const items = notNull(values);
  const quantities = items.filter((x) => x instanceof Quantity) as Quantity[];
  if (quantities.length === 0) return items;
  if (quantities.length !== items.length) throw new ElmEvaluationError('aggregate over quantities and other values');
  return quantities.map((q) => q.convertUnit(quantities[0].unit));
}

function aggregate(fn: (list: unknown[]) => unknown, onNull: unknown = null): Handler {
  return (node, scope, cx) => {
    const source = cx.expr(node.source, scope);
    return (c, f) => {
      const list = source(c, f);
      if (!Array.isArray(list)) return onNull;
      return fn(list) ?? null;
    };
  };
}

function extremum(better: (a: unknown, b: unknown) => unknown): (list: unknown[]) => unknown {
  return (list) => {
    try {
      sameUnits(list);
    } catch {
      return null;
    }
    const items = notNull(list);
    if (items.length === 0) return null;
    let best = items[0];
    for (const item of items) if (better(item, best)) best = item;
    return best;
  };
}

export const listHandlers: Record<string, Handler> = {
  List: (node, scope, cx) => {
    const elements = ((node.element as unknown[] | undefined) ?? []).map((e) => cx.expr(e, scope));
    return (c, f) => elements.map((e) => e(c, f));
  },
  Exists: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    return (c, f) => {
      const list = arg(c, f);
      return Array.isArray(list) ? list.some((x) => !isNil(x)) : false;
    };
  },
  Union: (node, scope, cx) => {
    const [a, b] = operands(node).map((o) => cx.expr(o, scope));
    const castToList = listCast(node);
    return (c, f) => {
      const x = a(c, f);
      const y = b(c, f);
      if (isNil(x) && isNil(y)) return castToList ? [] : null;
      if (isNil(x) || isNil(y)) {
        const present = x ?? y;
        return Array.isArray(present) ? present : null;
      }
      return Array.isArray(x) ? listUnion(x, y as unknown[]) : (x as Interval).union(y);
    };
  },
  Except: (node, scope, cx) => {
    const [a, b] = operands(node).map((o) => cx.expr(o, scope));
    return (c, f) => {
      const x = a(c, f);
      const y = b(c, f);
      if (isNil(x)) return null;
      if (isNil(y)) return Array.isArray(x) ? x : null;
      return Array.isArray(x) ? listExcept(x, y as unknown[]) : ((x as Interval).except(y) ?? null);
    };
  },
  Intersect: (node, scope, cx) => {
    const [a, b] = operands(node).map((o) => cx.expr(o, scope));
    return (c, f) => {
      const x = a(c, f);
      const y = b(c, f);
      if (isNil(x) || isNil(y)) return null;
      return Array.isArray(x) ? listIntersect(x, y as unknown[]) : ((x as Interval).intersect(y) ?? null);
    };
  },
  First: aggregate((list) => (list.length > 0 ? list[0] : null)),
  Last: aggregate((list) => (list.length > 0 ? list[list.length - 1] : null)),
  SingletonFrom: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    return (c, f) => {
      const list = arg(c, f) as unknown[] | null;
      if (isNil(list)) return null;
      if (list.length > 1) throw new ElmEvaluationError("'singleton from' a list of more than one item");
      return list.length === 1 ? (list[0] ?? null) : null;
    };
  },
  ToList: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    return (c, f) => {
      const value = arg(c, f);
      return isNil(value) ? [] : [value];
    };
  },
  Flatten: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    return (c, f) => {
      const value = arg(c, f);
      if (Array.isArray(value) && value.every(Array.isArray)) return (value as unknown[][]).flat();
      return value ?? null;
    };
  },
  Distinct: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    return (c, f) => {
      const value = arg(c, f);
      return isNil(value) ? null : distinct(value as unknown[]);
    };
  },
  Indexer: (node, scope, cx) => {
    const [a, b] = operands(node).map((o) => cx.expr(o, scope));
    return (c, f) => {
      const list = a(c, f) as unknown[] | string | null;
      const index = b(c, f) as number | null;
      if (isNil(list) || isNil(index) || index < 0 || index >= list.length) return null;
      return list[index] ?? null;
    };
  },
  Count: aggregate((list) => notNull(list).length, 0),
  Sum: aggregate((list) => {
    let items: unknown[];
    try {
      items = sameUnits(list);
    } catch {
      return null;
    }
    if (items.length === 0) return null;
    if (items[0] instanceof Quantity) {
      const total = (items as Quantity[]).reduce((sum, q) => sum + q.value, 0);
      return new Quantity(total, (items[0] as Quantity).unit);
    }
    return (items as number[]).reduce((x, y) => x + y);
  }),
  Min: aggregate(extremum(lessThan)),
  Max: aggregate(extremum(greaterThan)),
  AnyTrue: aggregate((list) => list.some((x) => x), false),
  AllTrue: aggregate((list) => notNull(list).every((x) => x), true),
};

