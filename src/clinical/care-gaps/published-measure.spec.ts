import { compileMeasure, ElmEvaluationError, FhirMeasure, MeasurePatient } from '../elm';
import type { ElmNode } from '../elm/elm.types';
import { library, op } from '../elm/testing/elm-builders';
import { publishedCareGap, PublishedMeasure } from './published-measure';

/**
 * A loaded measure read as a care gap: a patient outside the initial population has no evidence to
 * show (`scoreGroup`), so nothing but the initial population is evaluated for it.
 */

const SNOMED = 'http://snomed.info/sct';
const OFFICE = { resourceType: 'ValueSet', url: 'http://example.org/ValueSet/office', expansion: { contains: [{ system: SNOMED, code: '185463005' }] } };
const period = { start: '2025-01-01', end: '2025-12-31' };

describe(publishedCareGap.name, () => {
  const encounters: ElmNode = { type: 'Retrieve', dataType: '{http://hl7.org/fhir}Encounter', codeProperty: 'type', codes: { type: 'ValueSetRef', name: 'Office' } };
  // Fails whenever evaluated: retrieve codes that are neither codes nor a value set.
  const failing: ElmNode = op('Exists', { type: 'Retrieve', dataType: '{http://hl7.org/fhir}Encounter', codeProperty: 'type', codes: { type: 'Literal', valueType: '{urn:hl7-org:elm-types:r1}String', value: 'x' } });
  const main = library({ Visits: encounters, 'Initial Population': op('Exists', { type: 'ExpressionRef', name: 'Visits' }), Denominator: { type: 'ExpressionRef', name: 'Initial Population' }, Numerator: failing }, { valueSets: { def: [{ name: 'Office', id: OFFICE.url }] } });
  const codes = ['initial-population', 'denominator', 'numerator'];
  const expressions = ['Initial Population', 'Denominator', 'Numerator'];
  const fhirMeasure: FhirMeasure = {
    resourceType: 'Measure',
    library: ['https://example.org/Library/T|1'],
    group: [{ id: 'g', population: codes.map((code, i) => ({ code: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/measure-population', code }] }, criteria: { language: 'text/cql-identifier', expression: expressions[i] } })) }],
  };
  const compiled = compileMeasure(fhirMeasure, [main], [OFFICE]);
  const sut: PublishedMeasure = { key: 'T1', version: '1', title: 'T', groups: [{ id: 'g', scoring: 'proportion', basis: 'boolean', improvementNotation: 'increase', populations: codes.map((code, i) => ({ code, expression: expressions[i] })) }] };
  const patientOf = (resources: Record<string, unknown>[]) => new MeasurePatient([{ resourceType: 'Patient', id: 'p' }, ...resources] as never, { now: new Date('2026-01-01T00:00:00Z') });
  const office = { resourceType: 'Encounter', id: 'e1', status: 'finished', type: [{ coding: [{ system: SNOMED, code: '185463005' }] }] };

  it('evaluates only the initial population of a patient outside it: no numerator, no evidence', () => {
    const result = publishedCareGap(sut, { compiled, mainLibrary: main, patient: patientOf([]), period });
    expect(result.status).toBe('not-applicable');
    expect(result.reason.code).toBe('initial-population:published-criteria');
    expect(result.evidence).toEqual([]);
  });

  it('evaluates the rest, with its evidence, for a patient inside it', () => {
    expect(() => publishedCareGap(sut, { compiled, mainLibrary: main, patient: patientOf([office]), period })).toThrow(ElmEvaluationError);
  });
});
