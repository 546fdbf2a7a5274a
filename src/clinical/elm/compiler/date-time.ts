import { Date as CqlDate, DateTime } from 'cql-execution';
import { ElmEvaluationError } from '../elm-errors';
import { dateDurationBetween } from '../runtime/date-duration';
import { isNil } from '../runtime/fhir-value';
import { Compiler, Handler, Run, Scope, operands } from './compiler.types';
import type { ElmNode } from '../elm.types';

/**
 * Date and time (CQL §9.9, §22.x): construction, components, durations and differences at a
 * precision, age, and the same-as family. The arithmetic and comparison with precision are
 * cql-execution's own DateTime and Date methods.
 */

const DATE_TIME_FIELDS = ['year', 'month', 'day', 'hour', 'minute', 'second', 'millisecond'] as const;

function fields(node: ElmNode, scope: Scope, cx: Compiler, names: readonly string[]): (Run | undefined)[] {
  return names.map((name) => (node[name] !== undefined && node[name] !== null ? cx.expr(node[name], scope) : undefined));
}

const lower = (precision: unknown) => (typeof precision === 'string' ? precision.toLowerCase() : undefined);

/** DurationBetween / DifferenceBetween: a point result is its value, an uncertain one an uncertainty. */
function between(method: 'durationBetween' | 'differenceBetween'): Handler {
  return (node, scope, cx) => {
    const [a, b] = operands(node).map((o) => cx.expr(o, scope));
    const precision = lower(node.precision);
    return (c, f) => {
      const x = a(c, f) as Record<string, unknown> | null;
      const y = b(c, f) as Record<string, unknown> | null;
      if (isNil(x) || isNil(y) || typeof x[method] !== 'function' || typeof y[method] !== 'function') return null;
      if (method === 'durationBetween') {
        const fast = dateDurationBetween(x, y, precision);
        if (fast !== undefined) return fast;
      }
      const result = (x[method] as (o: unknown, p?: string) => { isPoint(): boolean; low: unknown } | null).call(x, y, precision);
      if (!isNil(result) && result.isPoint()) return result.low;
      return result ?? null;
    };
  };
}

type Comparable = { sameAs(o: unknown, p?: string): boolean | null; sameOrBefore(o: unknown, p?: string): boolean | null; sameOrAfter(o: unknown, p?: string): boolean | null };

function same(method: keyof Comparable): Handler {
  return (node, scope, cx) => {
    const [a, b] = operands(node).map((o) => cx.expr(o, scope));
    const precision = lower(node.precision);
    return (c, f) => {
      const x = a(c, f) as Comparable | null;
      const y = b(c, f);
      if (isNil(x) || isNil(y)) return null;
      return x[method](y, precision) ?? null;
    };
  };
}

/** Age at a date (cql-execution's calculateAge): like types first, then the duration at the precision. */
export function calculateAge(precision: string, birthDate: unknown, asOf: unknown, offset: number | null): unknown {
  if (isNil(birthDate) || isNil(asOf)) return null;
  let birth = birthDate as CqlDate | DateTime;
  if (asOf instanceof CqlDate && birth instanceof DateTime) birth = birth.getDate();
  else if (asOf instanceof DateTime && birth instanceof CqlDate) birth = birth.getDateTime(offset);
  const fast = dateDurationBetween(birth, asOf, precision.toLowerCase());
  if (fast !== undefined) return fast;
  const result = (birth as DateTime).durationBetween(asOf, precision.toLowerCase());
  if (!isNil(result) && result.isPoint()) return result.low;
  return result ?? null;
}

export const dateTimeHandlers: Record<string, Handler> = {
  DateTime: (node, scope, cx) => {
    const parts = fields(node, scope, cx, DATE_TIME_FIELDS);
    const offset = node.timezoneOffset !== undefined && node.timezoneOffset !== null ? cx.expr(node.timezoneOffset, scope) : undefined;
    return (c, f) => {
      const v = parts.map((p) => (p ? p(c, f) : null)) as (number | null)[];
      const tz = offset ? (offset(c, f) as number | null) : c.now.timezoneOffset;
      return new DateTime(v[0], v[1], v[2], v[3], v[4], v[5], v[6], tz);
    };
  },
  Date: (node, scope, cx) => {
    const parts = fields(node, scope, cx, ['year', 'month', 'day']);
    return (c, f) => {
      const v = parts.map((p) => (p ? p(c, f) : null)) as (number | null)[];
      return new CqlDate(v[0], v[1], v[2]);
    };
  },
  Time: (node, scope, cx) => {
    const parts = fields(node, scope, cx, ['hour', 'minute', 'second', 'millisecond']);
    return (c, f) => {
      const v = parts.map((p) => (p ? p(c, f) : null)) as (number | null)[];
      return new DateTime(0, 1, 1, v[0], v[1], v[2], v[3], null).getTime();
    };
  },
  Now: () => (c) => c.now.copy(),
  Today: () => (c) => c.now.getDate(),
  TimeOfDay: () => (c) => c.now.getTime(),
  DateFrom: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    return (c, f) => {
      const value = arg(c, f) as DateTime | null;
      return isNil(value) ? null : value.getDate();
    };
  },
  TimeFrom: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    return (c, f) => {
      const value = arg(c, f) as DateTime | null;
      return isNil(value) ? null : value.getTime();
    };
  },
  TimezoneOffsetFrom: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    return (c, f) => (arg(c, f) as DateTime | null)?.timezoneOffset ?? null;
  },
  DateTimeComponentFrom: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    const field = String(node.precision).toLowerCase();
    return (c, f) => {
      const value = arg(c, f) as Record<string, unknown> | null;
      return isNil(value) ? null : (value[field] ?? null);
    };
  },
  DurationBetween: between('durationBetween'),
  DifferenceBetween: between('differenceBetween'),
  SameAs: same('sameAs'),
  SameOrBefore: same('sameOrBefore'),
  SameOrAfter: same('sameOrAfter'),
  CalculateAgeAt: (node, scope, cx) => {
    const [birth, asOf] = operands(node).map((o) => cx.expr(o, scope));
    const precision = String(node.precision);
    return (c, f) => calculateAge(precision, birth(c, f), asOf(c, f), c.now.timezoneOffset);
  },
  CalculateAge: (node, scope, cx) => {
    const birth = cx.expr(operands(node)[0], scope);
    const precision = String(node.precision);
    return (c, f) => {
      const yearsOrMonths = ['year', 'month'].includes(precision.toLowerCase());
      return calculateAge(precision, birth(c, f), yearsOrMonths ? c.now.getDate() : c.now, c.now.timezoneOffset);
    };
  },
  Precision: (node, scope, cx) => {
    const arg = cx.expr(operands(node)[0], scope);
    return (c, f) => {
      const value = arg(c, f) as { getPrecisionValue?: () => unknown } | null;
      if (isNil(value)) return null;
      if (typeof value.getPrecisionValue !== 'function') throw new ElmEvaluationError('Precision of a value that is not a date or time');
      return value.getPrecisionValue();
    };
  },
};
