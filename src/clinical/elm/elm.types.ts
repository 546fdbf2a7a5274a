/**
 * The shapes of ELM JSON (the CQL translator's output, as the stewards publish it in a Library's
 * `application/elm+json` content) that the compiler reads. Deliberately loose: an ELM node is an
 * object with a `type` and whatever fields that type has; the compiler checks what it reads.
 */

export interface TypeSpecifier {
  type: 'NamedTypeSpecifier' | 'ListTypeSpecifier' | 'IntervalTypeSpecifier' | 'ChoiceTypeSpecifier' | 'TupleTypeSpecifier' | string;
  name?: string;
  elementType?: TypeSpecifier;
  pointType?: TypeSpecifier;
  choice?: TypeSpecifier[];
  element?: { name: string; elementType?: TypeSpecifier; type?: TypeSpecifier }[];
}

/** Any ELM expression node. */
export interface ElmNode {
  type: string;
  localId?: string;
  resultTypeName?: string;
  resultTypeSpecifier?: TypeSpecifier;
  [field: string]: unknown;
}

export interface ElmOperandDef {
  name: string;
  operandType?: string;
  operandTypeSpecifier?: TypeSpecifier;
}

export interface ElmStatement {
  name: string;
  context?: string;
  type?: 'FunctionDef' | string;
  expression?: ElmNode;
  operand?: ElmOperandDef[];
  external?: boolean;
  fluent?: boolean;
}

export interface ElmIncludeDef {
  localIdentifier: string;
  path: string;
  version?: string;
}

export interface ElmValueSetDef {
  name: string;
  id: string;
  version?: string;
}

export interface ElmCodeSystemDef {
  name: string;
  id: string;
  version?: string;
}

export interface ElmCodeDef {
  name: string;
  id: string;
  display?: string;
  codeSystem: { name: string; libraryName?: string };
}

export interface ElmConceptDef {
  name: string;
  display?: string;
  code: { name: string; libraryName?: string }[];
}

export interface ElmParameterDef {
  name: string;
  default?: ElmNode;
}

/** One translated library (`{ library: … }` at the top of the ELM JSON). */
export interface ElmLibrary {
  library: {
    identifier: { id: string; version?: string };
    includes?: { def?: ElmIncludeDef[] };
    parameters?: { def?: ElmParameterDef[] };
    codeSystems?: { def?: ElmCodeSystemDef[] };
    valueSets?: { def?: ElmValueSetDef[] };
    codes?: { def?: ElmCodeDef[] };
    concepts?: { def?: ElmConceptDef[] };
    statements?: { def?: ElmStatement[] };
  };
}

const SYSTEM = '{urn:hl7-org:elm-types:r1}';
const FHIR = '{http://hl7.org/fhir}';

export const SYSTEM_TYPE = (name: string) => `${SYSTEM}${name}`;
export const isSystemTypeName = (name: string) => name.startsWith(SYSTEM);
export const isFhirTypeName = (name: string) => name.startsWith(FHIR);
/** `{http://hl7.org/fhir}Observation` → `Observation`; `{urn:…}DateTime` → `DateTime`. */
export const localTypeName = (name: string) => name.replace(/^\{[^}]*\}/, '');

/** A type specifier in the translator's two spellings (`asType` name or `asTypeSpecifier`). */
export function typeSpecifierOf(name: unknown, specifier: unknown): TypeSpecifier | undefined {
  if (specifier && typeof specifier === 'object') return specifier as TypeSpecifier;
  if (typeof name === 'string') return { type: 'NamedTypeSpecifier', name };
  return undefined;
}

/** Readable type, for error messages. */
export function typeToString(spec: TypeSpecifier | undefined): string {
  if (!spec) return '?';
  switch (spec.type) {
    case 'NamedTypeSpecifier':
      return localTypeName(spec.name ?? '?');
    case 'ListTypeSpecifier':
      return `List<${typeToString(spec.elementType)}>`;
    case 'IntervalTypeSpecifier':
      return `Interval<${typeToString(spec.pointType)}>`;
    case 'ChoiceTypeSpecifier':
      return `Choice<${(spec.choice ?? []).map(typeToString).join(', ')}>`;
    case 'TupleTypeSpecifier':
      return `Tuple<${(spec.element ?? []).map((e) => `${e.name} ${typeToString(e.elementType ?? e.type)}`).join(', ')}>`;
    default:
      return spec.type;
  }
}
