import type { ElmNode } from '../elm.types';
import { runDefines } from '../testing/elm-builders';

/**
 * A retrieve's code filter reads a resource's codes straight from its JSON where the code path is a
 * CodeableConcept, a list of them or a choice holding one, and through `FhirValue` otherwise: both
 * must select what cql-exec-fhir's getCode selects, malformed and extended JSON included.
 */

const SNOMED = 'http://snomed.info/sct';
const OFFICE = { resourceType: 'ValueSet', url: 'http://example.org/ValueSet/office', expansion: { contains: [{ system: SNOMED, code: '185463005' }] } };
const retrieve = (dataType: string, codeProperty: string): ElmNode => ({ type: 'Retrieve', dataType: `{http://hl7.org/fhir}${dataType}`, codeProperty, codes: { type: 'ValueSetRef', name: 'Office' } });
const office = { system: SNOMED, code: '185463005' };

describe('Retrieve code filters', () => {
  const ids = (value: unknown) => (value as { json: { id: string } }[]).map((resource) => resource.json.id);
  const select = (dataType: string, codeProperty: string, resources: Record<string, unknown>[]) =>
    ids(runDefines({ X: retrieve(dataType, codeProperty) }, { resources: [{ resourceType: 'Patient', id: 'p' }, ...resources] as never, valueSets: [OFFICE], parts: { valueSets: { def: [{ name: 'Office', id: OFFICE.url }] } } }).X);

  it('reads a list of concepts, skipping null and malformed items', () => {
    const encounters = [
      { resourceType: 'Encounter', id: 'plain', type: [{ coding: [office] }] },
      { resourceType: 'Encounter', id: 'second-concept', type: [{ coding: [{ system: SNOMED, code: '1' }] }, null, 'text', { coding: [null, 7, office] }] },
      { resourceType: 'Encounter', id: 'no-system', type: [{ coding: [{ code: '185463005' }] }] },
      { resourceType: 'Encounter', id: 'not-a-list', type: { coding: [office] } },
      { resourceType: 'Encounter', id: 'coding-not-a-list', type: [{ coding: office }] },
      // A code spread over `code` and `_code` is read through FhirValue, which merges the two.
      { resourceType: 'Encounter', id: 'extended', type: [{ coding: [{ ...office, _code: { extension: [] } }] }] },
      { resourceType: 'Encounter', id: 'none' },
    ];
    expect(select('Encounter', 'type', encounters)).toEqual(['plain', 'second-concept', 'extended']);
  });

  it('reads one concept, and the concept a choice holds (not its reference)', () => {
    const conditions = [
      { resourceType: 'Condition', id: 'coded', code: { coding: [office] } },
      { resourceType: 'Condition', id: 'listed', code: [{ coding: [office] }] },
    ];
    expect(select('Condition', 'code', conditions)).toEqual(['coded']);
    const requests = [
      { resourceType: 'MedicationRequest', id: 'concept', medicationCodeableConcept: { coding: [office] } },
      { resourceType: 'MedicationRequest', id: 'reference', medicationReference: { reference: 'Medication/1' } },
    ];
    expect(select('MedicationRequest', 'medication', requests)).toEqual(['concept']);
  });
});
