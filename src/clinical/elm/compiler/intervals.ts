import { DateTime, Interval, Quantity } from 'cql-execution';
import { Expand } from 'cql-execution/lib/elm/interval';
import { doAddition } from 'cql-execution/lib/datatypes/quantity';
import { MAX_DATETIME_VALUE, MIN_DATETIME_VALUE } from 'cql-execution/lib/util/math';
import { ElmEvaluationError } from '../elm-errors';
import type { ElmNode } from '../elm.types';
import { isNil } from '../runtime/fhir-value';
import { listContains, listIncludes } from '../runtime/lists';
import { Compiler, Handler, Run, Scope, operands } from './compiler.types';

/**
 * Intervals (CQL §9.5, §19): construction with open or closed bounds, the timing relations at a
 * precision, and the operators shared with lists (`in`, `includes`, …) dispatched on the operand at
 * run time as the reference engine does. The relations themselves are cql-execution's Interval
 * methods, which handle null and uncertain bounds.
 */

const lower = (precision: unknown) => (typeof precision === 'string' ? precision.toLowerCase() : undefined);

function pair(node: ElmNode, scope: Scope, cx: Compiler): [Run, Run] {
  const [a, b] = operands(node);
  return [cx.expr(a, scope), cx.expr(b, scope)];
}

type Method = (other: unknown, precision?: string) => unknown;

/** `a.method(b, precision)`, null when either is null. */
function relation(method: string): Handler {
  return (node, scope, cx) => {
    const [a, b] = pair(node, scope, cx);
    const precision = lower(node.precision);
    return (c, f) => {
      const x = a(c, f) as Record<string, unknown> | null;
      const y = b(c, f);
      if (isNil(x) || isNil(y)) return null;
      const fn = x[method];
      if (typeof fn !== 'function') throw new ElmEvaluationError(`${method} is not defined for this operand`);
      return (fn as Method).call(x, y, precision) ?? null;
    };
  };
}

/** `in` / `contains`: a null container is false; a list is searched by equality, an interval by its bounds. */
function membership(containerFirst: boolean): Handler {
  return (node, scope, cx) => {
    const [a, b] = pair(node, scope, cx);
    const precision = lower(node.precision);
    return (c, f) => {
      const first = a(c, f);
      const second = b(c, f);
      const container = containerFirst ? first : second;
      const item = containerFirst ? second : first;
      if (isNil(container)) return false;
      if (Array.isArray(container)) return listContains(container, item);
      if (isNil(item)) return null;
      return (container as Interval).contains(item, precision) ?? null;
    };
  };
}

/** `includes` / `included in` and their proper forms, for lists or intervals. */
function inclusion(containerFirst: boolean, proper: boolean): Handler {
  return (node, scope, cx) => {
    const [a, b] = pair(node, scope, cx);
    const precision = lower(node.precision);
    return (c, f) => {
      const first = a(c, f);
      const second = b(c, f);
      const container = containerFirst ? first : second;
      const contained = containerFirst ? second : first;
      if (isNil(container) || isNil(contained)) return null;
      if (Array.isArray(container)) {
        const list = contained as unknown[];
        return proper ? container.length > list.length && listIncludes(container, list) : listIncludes(container, list);
      }
      const interval = container as Interval;
      return (proper ? interval.properlyIncludes(contained, precision) : interval.includes(contained, precision)) ?? null;
    };
  };
}

/** The interval's start or end; CQL's minimum or maximum date-time takes the evaluation's offset. */
function boundary(end: boolean): Handler {
  return (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    const extreme = end ? MAX_DATETIME_VALUE : MIN_DATETIME_VALUE;
    return (c, f) => {
      const interval = arg(c, f) as Interval | null;
      if (isNil(interval)) return null;
      const point = end ? interval.end() : interval.start();
      if (point instanceof DateTime && point.equals(extreme)) {
        // A copy: the point may be a value other expressions share.
        const fixed = point.copy();
        fixed.timezoneOffset = c.now.timezoneOffset;
        return fixed;
      }
      return point ?? null;
    };
  };
}

function defaultPointType(node: unknown): string | undefined {
  const n = node as ElmNode | undefined;
  if (n?.type !== 'As') return undefined;
  const spec = n.asTypeSpecifier as { type?: string; name?: string } | undefined;
  if (spec) return spec.type === 'NamedTypeSpecifier' ? spec.name : undefined;
  return typeof n.asType === 'string' ? n.asType : undefined;
}

/**
 * Collapse (CQL §19.6), the reference engine's algorithm: sort by start, then merge each interval
 * into the previous one when they overlap or are within `per` of each other.
 */
export function collapse(intervals: readonly (Interval | null)[] | null, per: Quantity | null): Interval[] | null {
  if (isNil(intervals)) return null;
  const items = intervals.filter((i): i is Interval => !isNil(i)).map((i) => i.copy());
  if (items.length <= 1) return items;
  const width = (per ?? items[0].getPointSize()) as Quantity;
  items.sort(compareByStart);
  const out: Interval[] = [];
  let a = items.shift()!;
  for (let b = items.shift(); b; b = items.shift()) {
    if (b.low && typeof b.low.durationBetween === 'function') {
      if (!isNil(a.high) && a.high.sameOrAfter(b.low)) {
        if (isNil(b.high) || b.high.after(a.high)) a.high = b.high;
      } else if (!isNil(a.high) && a.high.durationBetween(b.low, width.unit).high <= width.value) {
        a.high = b.high;
      } else {
        out.push(a);
        a = b;
      }
    } else if (b.low && typeof b.low.sameOrBefore === 'function') {
      if (!isNil(a.high) && b.low.sameOrBefore(doAddition(a.high, width))) {
        if (isNil(b.high) || b.high.after(a.high)) a.high = b.high;
      } else {
        out.push(a);
        a = b;
      }
    } else if (b.low - a.high <= width.value) {
      if (b.high > a.high || isNil(b.high)) a.high = b.high;
    } else {
      out.push(a);
      a = b;
    }
  }
  out.push(a);
  return out;
}

function compareByStart(a: Interval, b: Interval): number {
  if (a.low && typeof a.low.before === 'function') {
    if (!isNil(b.low) && a.low.before(b.low)) return -1;
    if (isNil(b.low) || a.low.after(b.low)) return 1;
  } else if (!isNil(a.low) && !isNil(b.low)) {
    if (a.low < b.low) return -1;
    if (a.low > b.low) return 1;
  } else if (!isNil(a.low) && isNil(b.low)) return 1;
  else if (isNil(a.low) && !isNil(b.low)) return -1;
  if (a.high && typeof a.high.before === 'function') {
    if (isNil(b.high) || a.high.before(b.high)) return -1;
    if (a.high.after(b.high)) return 1;
  } else if (!isNil(a.high) && !isNil(b.high)) {
    if (a.high < b.high) return -1;
    if (a.high > b.high) return 1;
  } else if (!isNil(a.high) && isNil(b.high)) return -1;
  else if (isNil(a.high) && !isNil(b.high)) return 1;
  return 0;
}

export const intervalHandlers: Record<string, Handler> = {
  Interval: (node, scope, cx) => {
    const low = cx.expr(node.low, scope);
    const high = cx.expr(node.high, scope);
    const lowClosed: Run = typeof node.lowClosed === 'boolean' ? () => node.lowClosed : node.lowClosedExpression ? cx.expr(node.lowClosedExpression, scope) : () => undefined;
    const highClosed: Run = typeof node.highClosed === 'boolean' ? () => node.highClosed : node.highClosedExpression ? cx.expr(node.highClosedExpression, scope) : () => undefined;
    const pointType = defaultPointType(node.low) ?? defaultPointType(node.high);
    return (c, f) => {
      const l = low(c, f);
      const h = high(c, f);
      return new Interval(l, h, lowClosed(c, f) as boolean, highClosed(c, f) as boolean, isNil(l) && isNil(h) ? pointType : undefined);
    };
  },
  Start: boundary(false),
  End: boundary(true),
  In: membership(false),
  Contains: membership(true),
  Includes: inclusion(true, false),
  IncludedIn: inclusion(false, false),
  ProperIncludes: inclusion(true, true),
  ProperIncludedIn: inclusion(false, true),
  Overlaps: relation('overlaps'),
  OverlapsBefore: relation('overlapsBefore'),
  OverlapsAfter: relation('overlapsAfter'),
  Meets: relation('meets'),
  MeetsBefore: relation('meetsBefore'),
  MeetsAfter: relation('meetsAfter'),
  Starts: relation('starts'),
  Ends: relation('ends'),
  Before: relation('before'),
  After: relation('after'),
  Width: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    return (c, f) => (arg(c, f) as Interval | null)?.width() ?? null;
  },
  Size: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    return (c, f) => (arg(c, f) as Interval | null)?.size() ?? null;
  },
  Collapse: (node, scope, cx) => {
    const [list, per] = pair(node, scope, cx);
    return (c, f) => collapse(list(c, f) as Interval[] | null, per(c, f) as Quantity | null);
  },
  Expand: (node, scope, cx) => {
    const [list, per] = pair(node, scope, cx);
    return (c, f) => expand(list(c, f), per(c, f) as Quantity | null);
  },
};

/** The reference engine's per-interval expansion helpers, which are synchronous; its `exec` is not. */
const expander = Object.create(Expand.prototype) as {
  expandDTishInterval(i: Interval, per: Quantity): Interval[] | null;
  expandQuantityInterval(i: Interval, per: Quantity): Interval[] | null;
  expandNumericInterval(i: Interval, per: Quantity): Interval[] | null;
};

/** Expand (CQL §19.10): a list of intervals (or one) into unit intervals of `per`. */
export function expand(argument: unknown, perArgument: Quantity | null): Interval[] | null {
  const intervals = (Array.isArray(argument) ? argument : [argument]) as (Interval | null)[];
  const type = pointKind(intervals);
  if (type === 'mismatch') throw new ElmEvaluationError('Expand: a list of intervals of different point types');
  if (type === null) return null;
  const collapsed = collapse(intervals, perArgument);
  if (!collapsed || collapsed.length === 0) return [];
  const results: Interval[] = [];
  let per = perArgument;
  for (const interval of collapsed) {
    if (isNil(interval.low) || isNil(interval.high)) return null;
    if (type === 'datetime') {
      interval.low = interval.low.getDateTime();
      interval.high = interval.high.getDateTime();
    }
    if (type === 'quantity') per ??= new Quantity(1, interval.low.unit);
    else if (type === 'integer' || type === 'decimal') per ??= new Quantity(1, '1');
    else per ??= new Quantity(1, interval.low.getPrecision());
    const items =
      type === 'quantity' ? expander.expandQuantityInterval(interval, per) : type === 'integer' || type === 'decimal' ? expander.expandNumericInterval(interval, per) : expander.expandDTishInterval(interval, per);
    if (items === null) return null;
    results.push(...(items ?? []));
  }
  return results;
}

type PointKind = 'time' | 'date' | 'datetime' | 'quantity' | 'integer' | 'decimal' | 'mismatch' | null;

function pointKind(intervals: readonly (Interval | null)[]): PointKind {
  let kind: PointKind = null;
  const join = (next: Exclude<PointKind, null | 'mismatch'>, compatible: PointKind[]): boolean => {
    if (kind === null) kind = next;
    else if (kind !== next && !compatible.includes(kind)) return false;
    if (next === 'datetime' || (next === 'decimal' && kind === 'integer')) kind = next;
    return true;
  };
  for (const interval of intervals) {
    if (isNil(interval) || (isNil(interval.low) && isNil(interval.high))) continue;
    const low = interval.low ?? interval.high;
    const high = interval.high ?? interval.low;
    let ok: boolean;
    if (typeof low.isTime === 'function' && low.isTime() && typeof high.isTime === 'function' && high.isTime()) ok = join('time', []);
    else if ((low.isDateTime || high.isDateTime) && (low.isDateTime || low.isDate) && (high.isDateTime || high.isDate)) ok = join('datetime', ['date']);
    else if (low.isDate && high.isDate) ok = join('date', ['datetime']);
    else if (low.isQuantity && high.isQuantity) ok = join('quantity', []);
    else if (Number.isInteger(low) && Number.isInteger(high)) ok = join('integer', ['decimal']);
    else if (typeof low === 'number' && typeof high === 'number') ok = join('decimal', ['integer']);
    else ok = false;
    if (!ok) return 'mismatch';
  }
  return kind;
}
