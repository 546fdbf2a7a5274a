import { Code, Concept, Interval, Quantity } from 'cql-execution';
import { FhirValue, isNil } from './fhir-value';
import { distinct } from './lists';
import { getProperty } from './property';

/**
 * FHIRHelpers 4.x run natively: the same results as the library's CQL run by the reference engine
 * (which the compiler would otherwise compile), without a CQL `case` over thirty type tests on each
 * of the thousands of conversions a patient's evaluation makes. Each function is the library's
 * definition, clause for clause; where its CQL calls `Message(null, true, …, 'Error', …)`, the
 * reference engine returns the message's source (null) rather than failing, and so does this.
 */

type Native = (args: unknown[]) => unknown;

const UCUM = 'http://unitsofmeasure.org';
const CALENDAR = 'http://hl7.org/fhirpath/CodeSystem/calendar-units';

const CALENDAR_UNITS: Record<string, string> = { ms: 'millisecond', s: 'second', min: 'minute', h: 'hour', d: 'day', wk: 'week', mo: 'month', a: 'year' };

export function toCalendarUnit(unit: unknown): unknown {
  if (typeof unit !== 'string') return unit ?? null;
  return CALENDAR_UNITS[unit] ?? unit;
}

/** `x.value` of a FHIR primitive (or whatever Property reads on another value). */
const valueOf = (x: unknown) => getProperty(x, 'value');

function quantityFields(q: unknown): { value: unknown; unit: unknown } | null {
  if (isNil(q)) return null;
  const valueElement = getProperty(q, 'value');
  if (isNil(valueElement)) return null;
  const system = valueOf(getProperty(q, 'system'));
  if (!isNil(system) && system !== UCUM && system !== CALENDAR) return null;
  const code = valueOf(getProperty(q, 'code'));
  const unit = valueOf(getProperty(q, 'unit'));
  return { value: valueOf(valueElement), unit: toCalendarUnit(code ?? unit ?? '1') };
}

export function toQuantityIgnoringComparator(q: unknown): Quantity | null {
  const fields = quantityFields(q);
  return fields ? new Quantity(fields.value, fields.unit) : null;
}

export function toQuantity(q: unknown): Quantity | null {
  if (isNil(q) || isNil(getProperty(q, 'value'))) return null;
  if (!isNil(getProperty(q, 'comparator'))) return null;
  return toQuantityIgnoringComparator(q);
}

export function periodToInterval(period: unknown): Interval | null {
  if (isNil(period)) return null;
  const start = getProperty(period, 'start');
  const end = getProperty(period, 'end');
  return new Interval(valueOf(start), valueOf(end), !isNil(start), true);
}

export function quantityToInterval(q: unknown): Interval | null {
  if (isNil(q)) return null;
  switch (valueOf(getProperty(q, 'comparator'))) {
    case '<':
      return new Interval(null, toQuantityIgnoringComparator(q), true, false);
    case '<=':
      return new Interval(null, toQuantityIgnoringComparator(q), true, true);
    case '>=':
      return new Interval(toQuantityIgnoringComparator(q), null, true, true);
    case '>':
      return new Interval(toQuantityIgnoringComparator(q), null, false, true);
    default:
      return new Interval(toQuantity(q), toQuantity(q), true, true);
  }
}

export function rangeToInterval(range: unknown): Interval | null {
  if (isNil(range)) return null;
  return new Interval(toQuantity(getProperty(range, 'low')), toQuantity(getProperty(range, 'high')), true, true);
}

export function toCode(coding: unknown): Code | null {
  if (isNil(coding)) return null;
  const field = (name: string) => valueOf(getProperty(coding, name)) as string;
  return new Code(field('code'), field('system'), field('version'), field('display'));
}

export function toConcept(concept: unknown): Concept | null {
  if (isNil(concept)) return null;
  const codings = getProperty(concept, 'coding');
  // `concept.coding C return ToCode(C)`: a query, so its result is distinct; null when there are no codings.
  const codes = isNil(codings) ? null : distinct((Array.isArray(codings) ? codings : [codings]).map(toCode));
  return new Concept(codes as Code[], valueOf(getProperty(concept, 'text')) as string);
}

function toRatio(ratio: unknown): unknown {
  if (isNil(ratio)) return null;
  // System.Ratio { … } is an Instance the reference engine builds as a plain tuple.
  return { numerator: toQuantity(getProperty(ratio, 'numerator')), denominator: toQuantity(getProperty(ratio, 'denominator')) };
}

/** ToInterval's three overloads, told apart by the FHIR type of the argument. */
function toInterval(value: unknown): unknown {
  if (isNil(value)) return null;
  if (value instanceof FhirValue) {
    if (value.cls.is('{http://hl7.org/fhir}Period')) return periodToInterval(value);
    if (value.cls.is('{http://hl7.org/fhir}Range')) return rangeToInterval(value);
    if (value.cls.is('{http://hl7.org/fhir}Quantity')) return quantityToInterval(value);
  }
  return periodToInterval(value);
}

const QUANTITY_TYPES = ['Age', 'Count', 'Distance', 'Duration', 'Quantity'].map((t) => `{http://hl7.org/fhir}${t}`);

/** FHIRHelpers.ToValue: a choice element's value as a System value, in the library's order of cases. */
export function toValue(value: unknown): unknown {
  if (isNil(value)) return null;
  if (!(value instanceof FhirValue)) return value;
  const cls = value.cls;
  if (cls.valueType !== undefined && cls.name[0] === cls.name[0].toLowerCase()) return valueOf(value);
  if (QUANTITY_TYPES.some((t) => cls.is(t))) return toQuantity(value);
  if (cls.is('{http://hl7.org/fhir}CodeableConcept')) return toConcept(value);
  if (cls.is('{http://hl7.org/fhir}Coding')) return toCode(value);
  if (cls.is('{http://hl7.org/fhir}Range')) return rangeToInterval(value);
  if (cls.is('{http://hl7.org/fhir}Period')) return periodToInterval(value);
  if (cls.is('{http://hl7.org/fhir}Ratio')) return toRatio(value);
  return value;
}

/** The FHIRHelpers functions run natively, by name (every overload of the name). */
export const NATIVE_FHIR_HELPERS: Readonly<Record<string, Native>> = {
  ToValue: ([v]) => toValue(v),
  ToString: ([v]) => valueOf(v),
  ToBoolean: ([v]) => valueOf(v),
  ToDate: ([v]) => valueOf(v),
  ToDateTime: ([v]) => valueOf(v),
  ToDecimal: ([v]) => valueOf(v),
  ToInteger: ([v]) => valueOf(v),
  ToTime: ([v]) => valueOf(v),
  ToQuantity: ([v]) => toQuantity(v),
  ToQuantityIgnoringComparator: ([v]) => toQuantityIgnoringComparator(v),
  ToInterval: ([v]) => toInterval(v),
  ToRatio: ([v]) => toRatio(v),
  ToCode: ([v]) => toCode(v),
  ToConcept: ([v]) => toConcept(v),
  ToCalendarUnit: ([v]) => toCalendarUnit(v),
  ToValueSet: ([v]) => (isNil(v) ? null : { id: v }),
  reference: ([v]) => (isNil(v) ? null : { reference: { value: v } }),
};
