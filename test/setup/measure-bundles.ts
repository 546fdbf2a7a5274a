/**
 * Small, invented measure content in the stewards' shapes (a FHIR Measure, Libraries with base64 ELM
 * JSON and CQL, expanded ValueSets), for the tests of `measures-load` and the catalogue that must not
 * depend on the published content beside the checkout.
 */
type Json = Record<string, unknown>;

const VSAC = 'http://cts.nlm.nih.gov/fhir/ValueSet/';
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** A Library whose ELM includes `includes` and declares the value sets `valueSets` ([name, oid]). */
export function elmLibrary(name: string, version: string, includes: [string, string][] = [], valueSets: [string, string][] = []): Json {
  const elm = {
    library: {
      identifier: { id: name, version },
      includes: { def: includes.map(([include, at]) => ({ localIdentifier: include, path: `https://example.org/${include}`, version: at })) },
      valueSets: { def: valueSets.map(([valueSetName, oid]) => ({ name: valueSetName, id: `${VSAC}${oid}` })) },
    },
  };
  return {
    resourceType: 'Library', url: `https://example.org/Library/${name}`, name, version,
    content: [{ contentType: 'text/cql', data: b64(`library ${name} version '${version}'`) }, { contentType: 'application/elm+json', data: b64(JSON.stringify(elm)) }],
  };
}

/** An expanded ValueSet; `total` above the codes given makes it one cut short. */
export function expandedValueSet(oid: string, codes: [system: string, code: string][], total = codes.length): Json {
  return {
    resourceType: 'ValueSet', url: `${VSAC}${oid}`, version: '20250101', title: `Value set ${oid}`,
    expansion: { timestamp: '2025-01-01T00:00:00Z', total, contains: codes.map(([system, code]) => ({ system, code, display: `Code ${code}` })) },
  };
}

/** A patient-based proportion Measure `key` (short name `<key>FHIR`) over `library`, for `period`. */
export function proportionMeasure(key: string, version: string, library: string, period: { start: string; end: string }): Json {
  const population = (code: string, expression: string) => ({ id: code, code: { coding: [{ code }] }, criteria: { language: 'text/cql-identifier', expression } });
  return {
    resourceType: 'Measure', url: `https://example.org/Measure/${key}`, version, title: `Invented measure ${key}`,
    identifier: [{ system: 'https://madie.cms.gov/measure/shortName', value: `${key}FHIR` }],
    effectivePeriod: period,
    library: [`https://example.org/Library/${library}`],
    group: [{
      id: 'Group_1',
      extension: [
        { url: 'http://hl7.org/fhir/us/cqfmeasures/StructureDefinition/cqfm-scoring', valueCodeableConcept: { coding: [{ code: 'proportion' }] } },
        { url: 'http://hl7.org/fhir/us/cqfmeasures/StructureDefinition/cqfm-populationBasis', valueCode: 'boolean' },
      ],
      population: [population('initial-population', 'Initial Population'), population('denominator', 'Denominator'), population('numerator', 'Numerator')],
    }],
  };
}

export const collectionBundle = (resources: Json[]): Json => ({ resourceType: 'Bundle', type: 'collection', entry: resources.map((resource) => ({ resource })) });
