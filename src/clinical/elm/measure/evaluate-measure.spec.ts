import { ElmEvaluationError } from '../elm-errors';
import type { ElmLibrary, ElmNode } from '../elm.types';
import { library, op } from '../testing/elm-builders';
import { compileMeasure } from './compile-measure';
import { evaluateMeasure, evaluateMeasureExplained, MeasurePatient } from './evaluate-measure';
import type { FhirMeasure } from './measure.types';

/**
 * Several measures over one patient's prepared data (`MeasurePatient`): each answers what it answers
 * over data of its own, though the measures' retrieves read the same resources with different codes
 * and their defines share names and memo slots; a retrieve two measures both make is made once, and
 * so is a define of a library both include, the same in both.
 */

const QICORE = 'http://hl7.org/fhir/us/qicore/StructureDefinition/';
const SNOMED = 'http://snomed.info/sct';
const valueSet = (url: string, code: string) => ({ resourceType: 'ValueSet', url, expansion: { contains: [{ system: SNOMED, code }] } });
const INPATIENT = valueSet('http://example.org/ValueSet/inpatient', '183452005');
const OFFICE = valueSet('http://example.org/ValueSet/office', '185463005');

const retrieveIn = (name: string): ElmNode => ({
  type: 'Retrieve',
  dataType: '{http://hl7.org/fhir}Encounter',
  templateId: `${QICORE}qicore-encounter`,
  codeProperty: 'type',
  codes: { type: 'ValueSetRef', name },
});
const ref = (name: string): ElmNode => ({ type: 'ExpressionRef', name });

/** A patient-based measure whose initial population is "an encounter in this value set" (its numerator the same). */
function encounterMeasure(vs: { url: string }, valueSets = [INPATIENT, OFFICE]): ReturnType<typeof compileMeasure> {
  const elm: ElmLibrary = library({ Encounters: retrieveIn('Codes'), 'Initial Population': op('Exists', ref('Encounters')), Numerator: ref('Initial Population') }, { valueSets: { def: [{ name: 'Codes', id: vs.url }] } });
  const population = (code: string, expression: string) => ({ code: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/measure-population', code }] }, criteria: { language: 'text/cql-identifier', expression } });
  const measure: FhirMeasure = { resourceType: 'Measure', library: ['https://example.org/Library/T|1'], group: [{ id: 'g', population: [population('initial-population', 'Initial Population'), population('numerator', 'Numerator')] }] };
  return compileMeasure(measure, [elm], valueSets);
}

const encounter = (id: string, code: string) => ({ resourceType: 'Encounter', id, meta: { profile: [`${QICORE}qicore-encounter`] }, status: 'finished', type: [{ coding: [{ system: SNOMED, code }] }] });
const patient = { resourceType: 'Patient', id: 'p' };
const period = { start: '2025-01-01', end: '2025-12-31' };

describe(MeasurePatient.name, () => {
  const inpatient = encounterMeasure(INPATIENT);
  const office = encounterMeasure(OFFICE);
  const idsOf = (value: unknown) => (value as { json: { id: string } }[]).map((resource) => resource.json.id);

  it('gives each measure its own retrieves and defines over one patient’s data, as data of its own would', () => {
    const resources = [patient, encounter('office-visit', '185463005')];
    const shared = new MeasurePatient(resources);
    // Same define names, same memo slots, same retrieve shape: only the value set tells them apart.
    expect(evaluateMeasure(inpatient, shared, period).groups[0].populations).toEqual({ 'initial-population': 0, numerator: 0 });
    expect(evaluateMeasure(office, shared, period).groups[0].populations).toEqual({ 'initial-population': 1, numerator: 1 });
    expect(evaluateMeasure(inpatient, shared, period)).toEqual(evaluateMeasure(inpatient, resources, period));
    expect(idsOf(evaluateMeasureExplained(office, ['Encounters'], shared, period).defines.Encounters)).toEqual(['office-visit']);
    expect(idsOf(evaluateMeasureExplained(inpatient, ['Encounters'], shared, period).defines.Encounters)).toEqual([]);
  });

  it('computes a retrieve once for every measure that selects the same resources, whatever its value set is called', () => {
    const renamed = encounterMeasure({ ...OFFICE, url: 'http://example.org/ValueSet/office-again' }, [INPATIENT, { ...OFFICE, url: 'http://example.org/ValueSet/office-again' }]);
    const shared = new MeasurePatient([patient, encounter('office-visit', '185463005'), encounter('stay', '183452005')]);
    const encounters = (measure: ReturnType<typeof compileMeasure>) => evaluateMeasureExplained(measure, ['Encounters'], shared, period).defines.Encounters;
    expect(idsOf(encounters(office))).toEqual(['office-visit']);
    // Identity, compared as a boolean: a failure message would print the FHIR model each value points to.
    expect(encounters(renamed) === encounters(office)).toBe(true);
    expect(idsOf(encounters(inpatient))).toEqual(['stay']);
  });

  it('reads a define of a library two measures include from the first one’s evaluation, only where both copies are the same', () => {
    // Library Shared: its visits, a query (a new list at each evaluation) over its value set's encounters.
    const shared = (vs: { url: string }): ElmLibrary => ({
      library: {
        ...library({ Visits: { type: 'Query', source: [{ alias: 'E', expression: retrieveIn('Codes') }] } }, { valueSets: { def: [{ name: 'Codes', id: vs.url }] } }).library,
        identifier: { id: 'Shared', version: '1' },
      },
    });
    const visits: ElmNode = { type: 'ExpressionRef', libraryName: 'Shared', name: 'Visits' };
    const includes = { def: [{ localIdentifier: 'Shared', path: 'Shared', version: '1' }] };
    const measureOf = (main: Record<string, ElmNode>, sharedLibrary: ElmLibrary, valueSets: typeof OFFICE[]) => {
      const population = { code: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/measure-population', code: 'initial-population' }] }, criteria: { language: 'text/cql-identifier', expression: 'Initial Population' } };
      const measure: FhirMeasure = { resourceType: 'Measure', library: ['https://example.org/Library/T|1'], group: [{ id: 'g', population: [population] }] };
      return compileMeasure(measure, [library(main, { includes }), sharedLibrary], valueSets);
    };
    const first = measureOf({ Visits: visits, 'Initial Population': op('Exists', visits) }, shared(OFFICE), [OFFICE]);
    const second = measureOf({ Visits: visits, 'Initial Population': op('Not', op('Exists', visits)) }, shared(OFFICE), [OFFICE]);
    // The same library and value-set URL, another expansion: not the same copy.
    const otherCodes = measureOf({ Visits: visits, 'Initial Population': op('Exists', visits) }, shared(OFFICE), [{ ...INPATIENT, url: OFFICE.url }]);
    const data = new MeasurePatient([patient, encounter('office-visit', '185463005')]);
    const visitsOf = (measure: ReturnType<typeof compileMeasure>) => evaluateMeasureExplained(measure, ['Visits'], data, period).defines.Visits;
    const firstVisits = visitsOf(first);
    expect(idsOf(firstVisits)).toEqual(['office-visit']);
    // Identity, compared as a boolean: a failure message would print the FHIR model each value points to.
    expect(visitsOf(second) === firstVisits).toBe(true);
    expect(idsOf(visitsOf(otherCodes))).toEqual([]);
    expect(evaluateMeasure(second, data, period).groups[0].populations).toEqual({ 'initial-population': 0 });
    // Another period is another evaluation: nothing read from the first.
    expect(evaluateMeasureExplained(second, ['Visits'], data, { start: '2024-01-01', end: '2024-12-31' }).defines.Visits === firstVisits).toBe(false);
  });

  it('refuses a patient without a Patient resource at each evaluation, as over its resources (a measure’s own failure, named by its caller)', () => {
    const shared = new MeasurePatient([encounter('office-visit', '185463005')]);
    expect(() => evaluateMeasure(office, shared, period)).toThrow(new ElmEvaluationError('no Patient resource'));
    expect(() => evaluateMeasure(office, [encounter('office-visit', '185463005')], period)).toThrow(new ElmEvaluationError('no Patient resource'));
  });
});

describe('evaluateMeasure outside the initial population', () => {
  // A define that fails whenever it is evaluated (retrieve codes that are neither codes nor a value set).
  const failing: ElmNode = op('Exists', { type: 'Retrieve', dataType: '{http://hl7.org/fhir}Encounter', codeProperty: 'type', codes: { type: 'Literal', valueType: '{urn:hl7-org:elm-types:r1}String', value: 'x' } });
  const populationOf = (code: string, expression: string) => ({ code: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/measure-population', code }] }, criteria: { language: 'text/cql-identifier', expression } });
  const appliesTo = (code: string) => [{ url: 'http://hl7.org/fhir/us/cqfmeasures/StructureDefinition/cqfm-appliesTo', valueCodeableConcept: { coding: [{ code }] } }];
  const measureWith = (scoring: string, codes: string[]) => {
    const elm = library({ Encounters: retrieveIn('Codes'), 'Initial Population': op('Exists', ref('Encounters')), Failing: failing }, { valueSets: { def: [{ name: 'Codes', id: OFFICE.url }] } });
    const measure: FhirMeasure = {
      resourceType: 'Measure',
      library: ['https://example.org/Library/T|1'],
      scoring: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/measure-scoring', code: scoring }] },
      group: [{ id: 'g', population: [populationOf('initial-population', 'Initial Population'), ...codes.map((code) => populationOf(code, 'Failing'))], stratifier: [{ id: 's', criteria: { expression: 'Failing' }, extension: appliesTo('numerator') }] }],
    };
    return compileMeasure(measure, [elm], [OFFICE]);
  };
  const outside = [patient];
  const inside = [patient, encounter('office-visit', '185463005')];

  it.each([
    ['proportion', ['denominator', 'denominator-exclusion', 'numerator', 'numerator-exclusion', 'denominator-exception']],
    ['cohort', []],
    ['continuous-variable', ['measure-population', 'measure-population-exclusion']],
    ['ratio', ['denominator', 'numerator']],
  ])('evaluates none of a %s group’s other populations or stratifiers applying to them, which the rules make false', (scoring, codes) => {
    const measure = measureWith(scoring, codes);
    const zeros = Object.fromEntries(['initial-population', ...codes].map((code) => [code, 0]));
    expect(evaluateMeasure(measure, outside, period).groups[0]).toEqual({ id: 'g', populations: zeros, observations: [], stratifiers: [{ id: 's', code: 's', populations: {} }] });
    // Inside it they are evaluated, as before.
    if (codes.length > 0) expect(() => evaluateMeasure(measure, inside, period)).toThrow(ElmEvaluationError);
  });

  it('reads the defines an explanation chooses from the result, after the populations', () => {
    const measure = measureWith('proportion', ['numerator']);
    const chosen: string[][] = [];
    const explained = evaluateMeasureExplained(
      measure,
      (evaluation) => {
        const names = evaluation.groups[0].populations['initial-population'] ? ['Failing'] : ['Encounters'];
        chosen.push(names);
        return names;
      },
      outside,
      period,
    );
    expect(chosen).toEqual([['Encounters']]);
    expect(explained.defines).toEqual({ Encounters: [] });
  });
});
