import { Quantity } from 'cql-execution';
import { Uncertainty } from 'cql-execution/lib/datatypes/uncertainty';
import { doAddition, doDivision, doMultiplication, doSubtraction } from 'cql-execution/lib/datatypes/quantity';
import * as MathUtil from 'cql-execution/lib/util/math';
import { isNil } from '../runtime/fhir-value';
import { Handler, Run, operands } from './compiler.types';

/**
 * Arithmetic (CQL §9.4) as cql-execution does it: numbers, UCUM quantities (through its quantity
 * operations), date-time plus or minus a calendar duration, uncertainties (a duration between
 * imprecise dates) bound by bound; a result outside CQL's ranges is null.
 */

type Value = { isQuantity?: boolean; isDateTime?: boolean; isDate?: boolean; isTime?: () => boolean; isUncertainty?: boolean; low?: Value; high?: Value; value?: number; unit?: string };
type Op = (x: Value, y: Value) => unknown;

const temporalOrQuantity = (x: Value) => x.isQuantity || x.isDateTime || x.isDate || (typeof x.isTime === 'function' && x.isTime());

function lift(x: unknown, y: unknown): [Value, Value] {
  const a = x as Value;
  const b = y as Value;
  if (a.isUncertainty && !b.isUncertainty) return [a, new Uncertainty(b, b) as Value];
  if (b.isUncertainty && !a.isUncertainty) return [new Uncertainty(a, a) as Value, b];
  return [a, b];
}

const add: Op = (x, y) => {
  [x, y] = lift(x, y);
  if (temporalOrQuantity(x)) return doAddition(x, y);
  if (x.isUncertainty && y.isUncertainty) {
    if (temporalOrQuantity(x.low!)) return new Uncertainty(doAddition(x.low, y.low), doAddition(x.high, y.high));
    return new Uncertainty((x.low as unknown as number) + (y.low as unknown as number), (x.high as unknown as number) + (y.high as unknown as number));
  }
  return (x as unknown as number) + (y as unknown as number);
};

const subtract: Op = (x, y) => {
  [x, y] = lift(x, y);
  if (x.isQuantity || x.isDateTime || x.isDate) return doSubtraction(x, y);
  if (x.isUncertainty && y.isUncertainty) {
    const l = x.low!;
    if (l.isQuantity || l.isDateTime || l.isDate) return new Uncertainty(doSubtraction(x.low, y.high), doSubtraction(x.high, y.low));
    return new Uncertainty((x.low as unknown as number) - (y.high as unknown as number), (x.high as unknown as number) - (y.low as unknown as number));
  }
  return (x as unknown as number) - (y as unknown as number);
};

const multiply: Op = (x, y) => {
  [x, y] = lift(x, y);
  if (x.isQuantity || y.isQuantity) return doMultiplication(x, y);
  if (x.isUncertainty && y.isUncertainty) {
    if (x.low!.isQuantity) return new Uncertainty(doMultiplication(x.low, y.low), doMultiplication(x.high, y.high));
    return new Uncertainty((x.low as unknown as number) * (y.low as unknown as number), (x.high as unknown as number) * (y.high as unknown as number));
  }
  return (x as unknown as number) * (y as unknown as number);
};

const divide: Op = (x, y) => {
  [x, y] = lift(x, y);
  if (x.isQuantity) return doDivision(x, y);
  if (x.isUncertainty && y.isUncertainty) {
    if (x.low!.isQuantity) return new Uncertainty(doDivision(x.low, y.high), doDivision(x.high, y.low));
    return new Uncertainty((x.low as unknown as number) / (y.high as unknown as number), (x.high as unknown as number) / (y.low as unknown as number));
  }
  return (x as unknown as number) / (y as unknown as number);
};

/** An n-ary operator reduced left to right; any null operand gives null, and so does an overflow. */
function reduce(op: Op, checkOverflow = true): Handler {
  return (node, scope, cx) => {
    const args = operands(node).map((o) => cx.expr(o, scope));
    return (c, f) => {
      const values = args.map((arg) => arg(c, f));
      if (values.some(isNil)) return null;
      let result = values[0] as Value;
      for (let i = 1; i < values.length; i++) result = op(result, values[i] as Value) as Value;
      return checkOverflow && MathUtil.overflowsOrUnderflows(result) ? null : (result ?? null);
    };
  };
}

function unary(op: (x: Value & number) => unknown): Handler {
  return (node, scope, cx) => {
    const arg = cx.expr(operands(node)[0], scope);
    return (c, f) => {
      const x = arg(c, f);
      return isNil(x) ? null : op(x as Value & number);
    };
  };
}

function extreme(kind: 'MIN' | 'MAX'): Handler {
  const table: Record<string, unknown> = {
    '{urn:hl7-org:elm-types:r1}Integer': MathUtil[`${kind}_INT_VALUE`],
    '{urn:hl7-org:elm-types:r1}Decimal': MathUtil[`${kind}_FLOAT_VALUE`],
    '{urn:hl7-org:elm-types:r1}DateTime': MathUtil[`${kind}_DATETIME_VALUE`],
    '{urn:hl7-org:elm-types:r1}Date': MathUtil[`${kind}_DATE_VALUE`],
    '{urn:hl7-org:elm-types:r1}Time': MathUtil[`${kind}_TIME_VALUE`],
  };
  return (node, scope, cx) => {
    const valueType = String(node.valueType);
    if (!(valueType in table)) return cx.unsupported(`${node.type} of ${valueType}`, scope);
    const value = table[valueType] as { copy?: () => { timezoneOffset: number | null } };
    if (valueType.endsWith('}DateTime')) {
      return (c) => {
        const copy = value.copy!();
        copy.timezoneOffset = c.now.timezoneOffset;
        return copy;
      };
    }
    return () => value;
  };
}

const round = (x: number, precision: number) => Math.round(x * 10 ** precision) / 10 ** precision;

export const arithmeticHandlers: Record<string, Handler> = {
  Add: reduce(add),
  Subtract: reduce(subtract),
  Multiply: reduce(multiply),
  Divide: reduce(divide),
  Power: reduce((x, y) => Math.pow(x as unknown as number, y as unknown as number)),
  TruncatedDivide: reduce((x, y) => {
    const q = (x as unknown as number) / (y as unknown as number);
    return q >= 0 ? Math.floor(q) : Math.ceil(q);
  }),
  Modulo: (node, scope, cx) => {
    const inner = reduce((x, y) => (x as unknown as number) % (y as unknown as number), false)(node, scope, cx);
    return (c, f) => MathUtil.decimalOrNull(inner(c, f));
  },
  Negate: unary((x) => (x.isQuantity ? new Quantity(x.value! * -1, x.unit) : x * -1)),
  Abs: unary((x) => (x.isQuantity ? new Quantity(Math.abs(x.value!), x.unit) : Math.abs(x))),
  Ceiling: unary((x) => Math.ceil(x)),
  Floor: unary((x) => Math.floor(x)),
  Truncate: unary((x) => (x >= 0 ? Math.floor(x) : Math.ceil(x))),
  Round: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    const precision: Run = node.precision ? cx.expr(node.precision, scope) : () => 0;
    return (c, f) => {
      const x = arg(c, f);
      if (isNil(x)) return null;
      return round(x as number, (precision(c, f) as number) ?? 0);
    };
  },
  Successor: unary((x) => MathUtil.successor(x)),
  Predecessor: unary((x) => MathUtil.predecessor(x)),
  MinValue: extreme('MIN'),
  MaxValue: extreme('MAX'),
  Quantity: (node) => {
    const value = new Quantity(parseFloat(String(node.value)), node.unit as string);
    // A fresh copy each time: the reference engine builds a new quantity per evaluation, and callers may not expect sharing.
    return () => value.clone();
  },
};
