/**
 * Types for the two files of cql-exec-fhir (Apache-2.0; the FHIR data source of the reference
 * engine) that the ELM runtime reads: its FHIR 4.0.1 model info and the loader that parses it.
 * The package ships no declarations for these paths.
 */
declare module 'cql-exec-fhir/lib/load' {
  namespace load {
    interface TypeSpecifier {
      readonly isNamed?: boolean;
      readonly isList?: boolean;
      readonly isChoice?: boolean;
      readonly isInterval?: boolean;
      readonly name: string;
      readonly namespace: string;
      readonly fqn: string;
      readonly elementType: TypeSpecifier;
      readonly pointType: TypeSpecifier;
      readonly choices: TypeSpecifier[];
    }
    interface ClassElement {
      readonly name: string;
      readonly typeSpecifier: TypeSpecifier;
    }
    interface ClassInfo {
      readonly name: string;
      readonly namespace: string;
      readonly baseTypeSpecifier?: TypeSpecifier;
      readonly elements: ClassElement[];
      findElement(name: string, allowExplicitChoice?: boolean): ClassElement | undefined;
      parentClasses(): ClassInfo[];
    }
    interface ModelInfo {
      readonly name: string;
      readonly url: string;
      findClass(name: string): ClassInfo | undefined;
    }
  }
  function load(xml: string): load.ModelInfo;
  export = load;
}

declare module 'cql-exec-fhir/lib/modelInfos/fhir-modelinfo-4.0.1.xml.js' {
  const xml: string;
  export = xml;
}
