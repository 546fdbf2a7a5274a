import { Code, Concept, Date as CqlDate, DateTime, Quantity } from 'cql-execution';
import { parseQuantity } from 'cql-execution/lib/datatypes/quantity';
import { Uncertainty } from 'cql-execution/lib/datatypes/uncertainty';
import { isValidDecimal, isValidInteger, limitDecimalPrecision } from 'cql-execution/lib/util/math';
import { ElmEvaluationError } from '../elm-errors';
import { typeSpecifierOf, typeToString } from '../elm.types';
import { FhirValue, isNil } from '../runtime/fhir-value';
import { isSystemSpecifier, matchesType } from '../runtime/type-match';
import { Handler, Run, operands } from './compiler.types';

/**
 * Type tests, casts and conversions (CQL §9.7, §22.x To…), as cql-execution performs them: `as`
 * returns null for a value of another type (or fails when strict), `is` answers false for null, and
 * each To… parses or reformats as the reference engine does.
 */

function convert(fn: (value: never, c: Parameters<Run>[0]) => unknown): Handler {
  return (node, scope, cx) => {
    const arg = cx.expr(operands(node)[0], scope);
    return (c, f) => {
      const value = arg(c, f);
      return isNil(value) ? null : (fn(value as never, c) ?? null);
    };
  };
}

const toDecimal = (value: unknown): unknown => {
  if (value instanceof Uncertainty) return new Uncertainty(limitDecimalPrecision(parseFloat(String(value.low))), limitDecimalPrecision(parseFloat(String(value.high))));
  const decimal = limitDecimalPrecision(parseFloat(String(value)));
  return isValidDecimal(decimal) ? decimal : null;
};

const toQuantity = (value: unknown): unknown => {
  if (typeof value === 'number') return new Quantity(value, '1');
  const v = value as { isRatio?: boolean; isUncertainty?: boolean; numerator?: { dividedBy(d: unknown): unknown }; denominator?: unknown; low?: unknown; high?: unknown };
  if (v.isRatio) return v.numerator!.dividedBy(v.denominator);
  if (v.isUncertainty) return new Uncertainty(toQuantity(v.low), toQuantity(v.high));
  return parseQuantity(String(value));
};

export const conversionHandlers: Record<string, Handler> = {
  As: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    const spec = typeSpecifierOf(node.asType, node.asTypeSpecifier);
    const strict = node.strict === true;
    return (c, f) => {
      const value = arg(c, f);
      if (isNil(value)) return null;
      if (matchesType(value, spec)) return value;
      if (strict) throw new ElmEvaluationError(`cannot cast as ${typeToString(spec)}`);
      return null;
    };
  },
  Is: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    const spec = typeSpecifierOf(node.isType, node.isTypeSpecifier);
    const system = isSystemSpecifier(spec);
    return (c, f) => {
      const value = arg(c, f);
      if (value === null || value === undefined) return false;
      if (!system && !(value instanceof FhirValue)) throw new ElmEvaluationError(`'is ${typeToString(spec)}' on a value that is not FHIR data`);
      return matchesType(value, spec);
    };
  },
  ToBoolean: convert((value: unknown) => {
    const text = String(value).toLowerCase();
    if (['true', 't', 'yes', 'y', '1'].includes(text)) return true;
    if (['false', 'f', 'no', 'n', '0'].includes(text)) return false;
    return null;
  }),
  ToConcept: convert((value: Code) => new Concept([value], value.display)),
  ToDate: convert((value: unknown) => (value instanceof DateTime ? value.getDate() : CqlDate.parse(String(value)))),
  ToDateTime: convert((value: unknown, c) => (value instanceof CqlDate ? value.getDateTime(c.now.timezoneOffset) : DateTime.parse(String(value)))),
  ToDecimal: convert(toDecimal),
  ToInteger: convert((value: unknown) => {
    if (typeof value === 'string') {
      const integer = parseInt(value, 10);
      return isValidInteger(integer) ? integer : null;
    }
    if (typeof value === 'boolean') return value ? 1 : 0;
    return null;
  }),
  ToQuantity: convert(toQuantity),
  ToString: convert((value: unknown) => String(value)),
  ConvertQuantity: (node, scope, cx) => {
    const [q, unit] = operands(node).map((o) => cx.expr(o, scope));
    return (c, f) => {
      const quantity = q(c, f) as Quantity | null;
      const target = unit(c, f);
      if (isNil(quantity) || isNil(target)) return null;
      try {
        return quantity.convertUnit(target);
      } catch {
        return null;
      }
    };
  },
  CanConvertQuantity: (node, scope, cx) => {
    const [q, unit] = operands(node).map((o) => cx.expr(o, scope));
    return (c, f) => {
      const quantity = q(c, f) as Quantity | null;
      const target = unit(c, f);
      if (isNil(quantity) || isNil(target)) return null;
      try {
        quantity.convertUnit(target);
        return true;
      } catch {
        return false;
      }
    };
  },
};
