import type { TypeSpecifier } from '../elm.types';
import { FhirValue, isNil } from './fhir-value';

/**
 * Whether a runtime value is of an ELM type, as the reference engine decides it (cql-execution's
 * Context.matchesTypeSpecifier, with cql-exec-fhir's class hierarchy for FHIR types). Its quirks
 * are kept on purpose: an Integer is any whole number, and a value that is neither a FHIR value, a
 * list nor an interval matches any non-System named type.
 */

const SYSTEM = '{urn:hl7-org:elm-types:r1}';

interface Flags {
  isConcept?: boolean;
  isCode?: boolean;
  isDateTime?: boolean;
  isDate?: boolean;
  isQuantity?: boolean;
  isInterval?: boolean;
  isRatio?: boolean;
  isTime?: () => boolean;
  low?: unknown;
  high?: unknown;
}

export function matchesType(value: unknown, spec: TypeSpecifier | undefined): boolean {
  if (!spec) return true;
  switch (spec.type) {
    case 'NamedTypeSpecifier':
      return matchesNamed(value, spec.name ?? '');
    case 'ListTypeSpecifier':
      return Array.isArray(value) && value.every((item) => matchesType(item, spec.elementType));
    case 'TupleTypeSpecifier': {
      if (isNil(value) || typeof value !== 'object' || Array.isArray(value)) return false;
      const v = value as Flags & Record<string, unknown>;
      if (v.isInterval || v.isConcept || v.isCode || v.isDateTime || v.isDate || v.isQuantity) return false;
      return (spec.element ?? []).every((e) => v[e.name] === undefined || matchesType(v[e.name], e.elementType ?? e.type));
    }
    case 'IntervalTypeSpecifier': {
      const v = value as Flags | null | undefined;
      if (isNil(v) || !v.isInterval) return false;
      return (isNil(v.low) || matchesType(v.low, spec.pointType)) && (isNil(v.high) || matchesType(v.high, spec.pointType));
    }
    case 'ChoiceTypeSpecifier':
      return (spec.choice ?? []).some((choice) => matchesType(value, choice));
    default:
      return true;
  }
}

function matchesNamed(value: unknown, name: string): boolean {
  if (isNil(value)) return true;
  const v = value as Flags;
  switch (name) {
    case `${SYSTEM}Boolean`:
      return typeof value === 'boolean';
    case `${SYSTEM}Decimal`:
      return typeof value === 'number';
    case `${SYSTEM}Integer`:
      return typeof value === 'number' && Math.floor(value) === value;
    case `${SYSTEM}String`:
      return typeof value === 'string';
    case `${SYSTEM}Concept`:
      return v.isConcept === true;
    case `${SYSTEM}Code`:
      return v.isCode === true;
    case `${SYSTEM}DateTime`:
      return v.isDateTime === true;
    case `${SYSTEM}Date`:
      return v.isDate === true;
    case `${SYSTEM}Quantity`:
      return v.isQuantity === true;
    case `${SYSTEM}Time`:
      return typeof v.isTime === 'function' && v.isTime();
    default:
      if (value instanceof FhirValue) return value.cls.is(name);
      if (Array.isArray(value) || v.isInterval) return false;
      return true;
  }
}

/** True when every named type in a specifier is a System type (cql-execution's isSystemType). */
export function isSystemSpecifier(spec: TypeSpecifier | undefined): boolean {
  if (!spec) return false;
  switch (spec.type) {
    case 'NamedTypeSpecifier':
      return (spec.name ?? '').startsWith(SYSTEM);
    case 'ListTypeSpecifier':
      return isSystemSpecifier(spec.elementType);
    case 'IntervalTypeSpecifier':
      return isSystemSpecifier(spec.pointType);
    case 'TupleTypeSpecifier':
      return (spec.element ?? []).every((e) => isSystemSpecifier(e.elementType ?? e.type));
    case 'ChoiceTypeSpecifier':
      return (spec.choice ?? []).every(isSystemSpecifier);
    default:
      return false;
  }
}
