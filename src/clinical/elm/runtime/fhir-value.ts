import { Code, DateTime } from 'cql-execution';
import { parseDate, parseDateTime } from './date-parse';
import { FhirClass, FhirModel, ModelType } from './fhir-model';

/**
 * A FHIR value (resource, data type or primitive) as the compiled ELM sees it: the JSON as it came,
 * with its FHIR class. Navigation follows cql-exec-fhir's FHIRObject.get (the reference engine's
 * data source) rule for rule: choice elements are found by their typed JSON name, a primitive's
 * `x` and `_x` are merged into one object, and System-typed leaves become CQL values. It wraps only
 * what a property path reaches, when it reaches it, instead of every element of every resource.
 */

type Json = Record<string, unknown>;

/** Per-evaluation settings the data needs: the offset given to date-times written without one. */
export interface DataSettings {
  readonly model: FhirModel;
  /** Hours east of UTC (the practice's time zone); the reference engine runs with the process's, UTC in its harness. */
  readonly timezoneOffset: number;
  /** Parsed date-times by text, for this evaluation (a resource's dates are read many times). */
  readonly dateTimes: Map<string, DateTime | null>;
}

export class FhirValue {
  /** Property reads already made: every value under a retrieved resource is read through it, so each once per evaluation. */
  private memo: Map<string, unknown> | undefined;

  constructor(
    readonly cls: FhirClass,
    readonly json: Json,
    readonly settings: DataSettings,
  ) {}

  /** The FHIR type name (`Observation`, `CodeableConcept`, `dateTime`). */
  get typeName(): string {
    return this.cls.name;
  }

  /** cql-execution asks a data-model object `_is(typeSpecifier)`; the runtime checks classes itself, but keeps the hook. */
  _is(spec: { name?: string }): boolean {
    return spec.name !== undefined && this.cls.is(spec.name);
  }

  /** `path` may be dotted (`value.value`); null where the data or the FHIR model has nothing. */
  get(path: string): unknown {
    const known = this.memo?.get(path);
    if (known !== undefined) return known;
    const value = this.read(path);
    (this.memo ??= new Map()).set(path, value);
    return value;
  }

  /** The JSON property one path segment reads and its type: an explicit choice name's, else the choice the JSON holds (the first, as cql-exec-fhir picks). */
  propertyOf(name: string): { property: string; type: ModelType } | null {
    const element = this.cls.element(name);
    if (!element) return null;
    if (element.explicit) return element.explicit;
    if (element.type.kind === 'choice') {
      for (const choice of element.type.choices) {
        if (!isNil(this.json[choice.property]) || !isNil(this.json[`_${choice.property}`])) return choice;
      }
    }
    return { property: element.name, type: element.type };
  }

  private read(path: string): unknown {
    const dot = path.indexOf('.');
    const root = dot < 0 ? path : path.slice(0, dot);
    const suffix = dot < 0 ? undefined : path.slice(dot + 1);
    const found = this.propertyOf(root);
    if (!found) return null;
    const { property, type } = found;
    if (type.kind === 'system') return suffix === undefined ? this.toSystem(this.json[property], type.name) : null;
    const data = this.fromJson(property, type);
    if (isNil(data)) return null;
    return this.wrap(data, type, suffix);
  }

  /** A CQL System value from a JSON leaf (cql-exec-fhir's toSystemObject), date-times in the practice's zone. */
  toSystem(data: unknown, systemType: string): unknown {
    if (isNil(data)) return null;
    switch (systemType) {
      case 'Boolean':
      case 'Integer':
      case 'String':
      case 'Decimal':
        return data;
      case 'DateTime': {
        const text = String(data);
        let parsed = this.settings.dateTimes.get(text);
        if (parsed === undefined) this.settings.dateTimes.set(text, (parsed = parseDateTime(text, this.settings.timezoneOffset)));
        return parsed;
      }
      case 'Date':
        return parseDate(String(data));
      case 'Time': {
        const time = DateTime.parse(`0000-01-01T${String(data).replace('Z', '+00:00')}`);
        if (time) time.timezoneOffset = null;
        return time;
      }
      default:
        return null;
    }
  }

  /** The JSON of one property, a primitive's value and `_`-extension merged as cql-exec-fhir merges them. */
  private fromJson(property: string, type: ModelType): unknown {
    const value = this.json[property];
    const extra = this.json[`_${property}`];
    if (isNil(value) && isNil(extra)) return null;
    if (!isPrimitive(type)) return value;
    const list = type.kind === 'list';
    // Most primitives carry no `_x`: the merge below then wraps each value alone and keeps a null item as it is
    // (an empty list it pads to one undefined item: that case is left to it).
    if (isNil(extra) && (!list || (Array.isArray(value) && value.length > 0))) return list ? (value as unknown[]).map((item) => (isNil(item) ? item : { value: item })) : { value };
    const values = list && Array.isArray(value) ? [...value] : [value];
    const extras = list && Array.isArray(extra) ? [...extra] : [extra];
    while (values.length > extras.length) extras.push(undefined);
    while (extras.length > values.length) values.push(undefined);
    const merged = values.map((item, i) => {
      if (isNil(item) && isNil(extras[i])) return item;
      const out: Json = {};
      if (item !== undefined) out.value = item;
      if (!isNil(extras[i])) Object.assign(out, extras[i]);
      return out;
    });
    return list ? merged : merged[0];
  }

  private wrap(data: unknown, type: ModelType, suffix: string | undefined): unknown {
    if (type.kind === 'class') {
      const cls = this.settings.model.classOf(type.name);
      if (!cls || typeof data !== 'object' || data === null) return null;
      const value = new FhirValue(cls, data as Json, this.settings);
      return suffix === undefined ? value : value.get(suffix);
    }
    if (type.kind === 'list') {
      if (suffix !== undefined || !Array.isArray(data)) return null;
      return data.map((item) => (isNil(item) ? item : this.wrap(item, type.element, undefined)));
    }
    return null;
  }

  /** cql-execution's `equals` defers to this: the same JSON, or JSON equal as a value. */
  equals(other: unknown): boolean {
    return other instanceof FhirValue && other.cls === this.cls && (other.json === this.json || jsonEqual(this.json, other.json));
  }

  equivalent(other: unknown): boolean {
    return this.equals(other);
  }
}

function isPrimitive(type: ModelType): boolean {
  if (type.kind === 'class') return type.primitive;
  if (type.kind === 'list') return isPrimitive(type.element);
  return false;
}

export function isNil(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  if (ak.length !== bk.length) return false;
  return ak.every((k) => jsonEqual((a as Json)[k], (b as Json)[k]));
}

/**
 * The code(s) a retrieve filters on (cql-exec-fhir's getCode): a CodeableConcept's codings, a
 * Coding, or a `code` primitive's string; a list maps over its items.
 */
export function toCodes(value: unknown): unknown {
  if (isNil(value)) return value;
  if (Array.isArray(value)) return value.map(toCodes);
  if (value instanceof Code) return value;
  if (!(value instanceof FhirValue)) return undefined;
  switch (value.typeName) {
    case 'CodeableConcept': {
      const codings = value.get('coding');
      if (!Array.isArray(codings)) return codings;
      const codes = codings.map(toCodes);
      return codes.length === 1 ? codes[0] : codes;
    }
    case 'Coding':
      return new Code(
        primitiveValue(value.get('code')) as string,
        primitiveValue(value.get('system')) as string,
        primitiveValue(value.get('version')) as string,
        primitiveValue(value.get('display')) as string,
      );
    case 'code':
      return value.get('value');
    default:
      return undefined;
  }
}

/** A FHIR primitive's System value (`.value`), null for anything else. */
export function primitiveValue(value: unknown): unknown {
  return value instanceof FhirValue ? value.get('value') : null;
}
