// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- a program compiling only part of src (the benchmarks') must see these declarations too
/// <reference path="./cql-exec-fhir.d.ts" />
import load from 'cql-exec-fhir/lib/load';

type ClassInfo = load.ClassInfo;
type ModelInfo = load.ModelInfo;
type TypeSpecifier = load.TypeSpecifier;

/**
 * The FHIR R4 (4.0.1) type system as the reference engine sees it: cql-exec-fhir's model info,
 * parsed once per process (about 0.4 s, on first use). The stewards' ELM names QI-Core types by
 * their FHIR base (`{http://hl7.org/fhir}Observation`), and the reference engine navigates every
 * resource with this FHIR model, so an element the QI-Core profile adds but FHIR lacks reads as
 * null there; the runtime here does the same.
 */

export const FHIR_NS = '{http://hl7.org/fhir}';
const SYSTEM_NS = '{urn:hl7-org:elm-types:r1}';

/** How an element is typed: a System type, a FHIR class, a list, or a choice (`value[x]`). */
export type ModelType =
  | { kind: 'system'; name: string }
  | { kind: 'class'; name: string; primitive: boolean }
  | { kind: 'list'; element: ModelType }
  | { kind: 'choice'; choices: { property: string; type: ModelType }[] };

export interface ModelElement {
  /** The element's name in the model (`value` for `value[x]`). */
  name: string;
  type: ModelType;
  /** For an explicit choice name (`medicationCodeableConcept`): the one choice it names. */
  explicit?: { property: string; type: ModelType };
}

/** One FHIR class (resource, data type, backbone element or primitive) with its elements resolved. */
export class FhirClass {
  /** Its ELM type names and its ancestors', most specific first, then System.Any (cql-exec-fhir's `_typeHierarchy`). */
  readonly typeNames: readonly string[];
  readonly typeNameSet: ReadonlySet<string>;
  /** The System type of `value` for a FHIR primitive or code enumeration (`DateTime` for dateTime). */
  readonly valueType: string | undefined;
  private readonly elements = new Map<string, ModelElement | null>();

  constructor(
    readonly name: string,
    private readonly info: ClassInfo,
    private readonly model: FhirModel,
  ) {
    this.typeNames = [info, ...info.parentClasses()].map((c) => `${FHIR_NS}${c.name}`).concat(`${SYSTEM_NS}Any`);
    this.typeNameSet = new Set(this.typeNames);
    const value = info.findElement('value');
    this.valueType = value && value.typeSpecifier.namespace === 'System' ? value.typeSpecifier.name : undefined;
  }

  /** True for `{http://hl7.org/fhir}Quantity` on an Age, as cql-exec-fhir's `_is` answers. */
  is(typeName: string): boolean {
    return this.typeNameSet.has(typeName);
  }

  /** The element a property path segment names, explicit choice names included; null if none. */
  element(name: string): ModelElement | null {
    let element = this.elements.get(name);
    if (element === undefined) {
      element = this.resolve(name);
      this.elements.set(name, element);
    }
    return element;
  }

  private resolve(name: string): ModelElement | null {
    const found = this.info.findElement(name, true);
    if (!found) return null;
    const type = this.model.toModelType(found.typeSpecifier, found.name);
    if (found.name !== name && type.kind === 'choice') {
      const explicit = type.choices.find((choice) => choice.property === name);
      return explicit ? { name: found.name, type, explicit } : null;
    }
    return { name: found.name, type };
  }
}

/** SimpleQuantity is serialised as Quantity in a choice name (cql-exec-fhir's normalizeChoiceName). */
const choiceSuffix = (name: string) => {
  const normalised = name === 'SimpleQuantity' ? 'Quantity' : name;
  return normalised[0].toUpperCase() + normalised.slice(1);
};

export class FhirModel {
  private readonly classes = new Map<string, FhirClass | null>();

  constructor(private readonly info: ModelInfo) {}

  /** A class by FHIR name (`Observation`, `dateTime`, `MedicationRequest.DispenseRequest`) or ELM name. */
  classOf(name: string): FhirClass | null {
    let cls = this.classes.get(name);
    if (cls === undefined) {
      const info = this.info.findClass(name.startsWith(FHIR_NS) ? name.slice(FHIR_NS.length) : name);
      cls = info ? new FhirClass(info.name, info, this) : null;
      this.classes.set(name, cls);
    }
    return cls;
  }

  toModelType(spec: TypeSpecifier, elementName: string): ModelType {
    if (spec.isList) return { kind: 'list', element: this.toModelType(spec.elementType, elementName) };
    if (spec.isChoice) {
      return {
        kind: 'choice',
        choices: spec.choices.filter((c) => c.isNamed).map((c) => ({ property: `${elementName}${choiceSuffix(c.name)}`, type: this.toModelType(c, elementName) })),
      };
    }
    if (spec.namespace === 'System') return { kind: 'system', name: spec.name };
    return { kind: 'class', name: spec.name, primitive: this.isPrimitive(spec) };
  }

  /**
   * cql-exec-fhir's rule for a value spread over `x` and `_x` in JSON: a lower-case FHIR type, or a
   * code enumeration (a class on Element with one String `value`).
   */
  private isPrimitive(spec: TypeSpecifier): boolean {
    if (spec.namespace === 'FHIR' && spec.name[0] === spec.name[0].toLowerCase()) return true;
    const info = this.info.findClass(spec.fqn);
    if (!info || info.baseTypeSpecifier?.fqn !== 'FHIR.Element' || info.elements.length !== 1) return false;
    return info.findElement('value')?.typeSpecifier.fqn === 'System.String';
  }
}

let shared: FhirModel | undefined;

/** The FHIR 4.0.1 model, loaded on first use. */
export function fhirModel(): FhirModel {
  if (!shared) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a large generated string module, loaded only when first needed
    const xml = require('cql-exec-fhir/lib/modelInfos/fhir-modelinfo-4.0.1.xml.js') as string;
    shared = new FhirModel(load(xml));
  }
  return shared;
}
