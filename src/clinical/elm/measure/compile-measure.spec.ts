import { ElmCompileError } from '../elm-errors';
import type { ElmLibrary, ElmNode } from '../elm.types';
import { bool, int, library, op, runDefines, str } from '../testing/elm-builders';
import { compileMeasure } from './compile-measure';
import { evaluateMeasure } from './evaluate-measure';
import type { FhirMeasure } from './measure.types';

/**
 * The measure compiler end to end on small hand-written measures: what it refuses (with the
 * construct, library and statement named), retrieves by profile and value set, and how population
 * results are counted for patient- and episode-based groups.
 */

const QICORE = 'http://hl7.org/fhir/us/qicore/StructureDefinition/';
const VS = 'http://example.org/ValueSet/inpatient';
const valueSet = { resourceType: 'ValueSet', url: VS, expansion: { contains: [{ system: 'http://snomed.info/sct', code: '183452005' }] } };

const retrieve: ElmNode = {
  type: 'Retrieve',
  dataType: '{http://hl7.org/fhir}Encounter',
  templateId: `${QICORE}qicore-encounter`,
  codeProperty: 'type',
  codes: { type: 'ValueSetRef', name: 'Inpatient' },
};
const parts: Partial<ElmLibrary['library']> = { valueSets: { def: [{ name: 'Inpatient', id: VS }] } };
const ref = (name: string): ElmNode => ({ type: 'ExpressionRef', name });

const population = (code: string, expression: string, id?: string) => ({
  id,
  code: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/measure-population', code }] },
  criteria: { language: 'text/cql-identifier', expression },
});
const measure = (basis: string, populations: ReturnType<typeof population>[]): FhirMeasure => ({
  resourceType: 'Measure',
  library: ['https://example.org/Library/T|1'],
  group: [{ id: 'g', extension: [{ url: 'http://hl7.org/fhir/us/cqfmeasures/StructureDefinition/cqfm-populationBasis', valueCode: basis }], population: populations }],
});

const encounter = (id: string, code: string, status = 'finished') => ({
  resourceType: 'Encounter',
  id,
  meta: { profile: [`${QICORE}qicore-encounter`] },
  status,
  type: [{ coding: [{ system: 'http://snomed.info/sct', code }] }],
});
const patient = { resourceType: 'Patient', id: 'p', meta: { profile: [`${QICORE}qicore-patient`] } };
const period = { start: '2025-01-01', end: '2025-12-31' };

describe(compileMeasure.name, () => {
  it('refuses an ELM construct it does not implement, naming it, its library and its statement', () => {
    const elm = library({ 'Initial Population': op('Children', int(1)), Other: op('Descendents', int(2)) });
    let error: unknown;
    try {
      compileMeasure(measure('boolean', [population('initial-population', 'Initial Population')]), [elm], []);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ElmCompileError);
    expect((error as ElmCompileError).problems).toEqual([
      { construct: 'Children', library: 'T', statement: 'define "Initial Population"' },
      { construct: 'Descendents', library: 'T', statement: 'define "Other"' },
    ]);
    expect((error as Error).message).toContain('Children (T, define "Initial Population")');
  });

  it('refuses a population whose criteria names no define, and a value set without expansion unless told to match nothing', () => {
    expect(() => compileMeasure(measure('boolean', [population('initial-population', 'Missing')]), [library({ X: bool(true) })], [])).toThrow(/names no define/);
    const elm = library({ 'Initial Population': op('Exists', retrieve) }, parts);
    const m = measure('boolean', [population('initial-population', 'Initial Population')]);
    expect(() => compileMeasure(m, [elm], [])).toThrow(`value set ${VS} (no expansion given)`);
    expect(compileMeasure(m, [elm], [], { missingValueSets: 'empty' }).missingValueSets).toEqual([VS]);
  });

  it('retrieves by profile and value set, system and code exactly', () => {
    const values = runDefines(
      { Found: retrieve },
      {
        parts,
        valueSets: [valueSet],
        inferProfiles: false,
        resources: [patient, encounter('in', '183452005'), encounter('other-code', '999'), { ...encounter('untagged', '183452005'), meta: {} }, { ...encounter('other-system', '183452005'), type: [{ coding: [{ system: 'http://example.org', code: '183452005' }] }] }],
      },
    );
    expect((values.Found as { json: { id: string } }[]).map((e) => e.json.id)).toEqual(['in']);
  });

  it('counts episodes, applying the exclusion rules to each, for an episode-based proportion group', () => {
    const finished: ElmNode = { type: 'Query', source: [{ alias: 'E', expression: retrieve }], where: op('Equal', [{ type: 'FunctionRef', libraryName: 'FHIRHelpers', name: 'ToString', operand: [{ type: 'Property', scope: 'E', path: 'status' }] }, str('finished')]) };
    const cancelled: ElmNode = { type: 'Query', source: [{ alias: 'E', expression: retrieve }], where: op('Equal', [{ type: 'Property', scope: 'E', path: 'status.value' }, str('cancelled')]) };
    const fhirHelpers: ElmLibrary = { library: { identifier: { id: 'FHIRHelpers', version: '4.4.000' }, statements: { def: [] } } };
    const elm = library({ 'Initial Population': { type: 'Union', operand: [finished, cancelled] }, Denominator: ref('Initial Population'), Exclusion: cancelled, Numerator: ref('Initial Population') }, {
      ...parts,
      includes: { def: [{ localIdentifier: 'FHIRHelpers', path: 'FHIRHelpers', version: '4.4.000' }] },
    });
    const compiled = compileMeasure(
      measure('Encounter', [population('initial-population', 'Initial Population'), population('denominator', 'Denominator'), population('denominator-exclusion', 'Exclusion'), population('numerator', 'Numerator')]),
      [elm, fhirHelpers],
      [valueSet],
      // FHIRHelpers here is an empty stand-in: its ToString runs natively.
      { nativeFhirHelpers: true },
    );
    const result = evaluateMeasure(compiled, [patient, encounter('a', '183452005'), encounter('b', '183452005'), encounter('c', '183452005', 'cancelled'), encounter('d', '999')], period);
    // The cancelled encounter is in the numerator's define too, but excluded from the denominator: not counted.
    expect(result.groups[0].populations).toEqual({ 'initial-population': 3, denominator: 3, 'denominator-exclusion': 1, numerator: 2 });
  });

  it('counts a patient once for a patient-based group, and nothing outside the initial population', () => {
    const elm = library({ IP: bool(false), Denominator: bool(true), Numerator: bool(true) });
    const compiled = compileMeasure(measure('boolean', [population('initial-population', 'IP'), population('denominator', 'Denominator'), population('numerator', 'Numerator')]), [elm], []);
    expect(evaluateMeasure(compiled, [patient], period).groups[0].populations).toEqual({ 'initial-population': 0, denominator: 0, numerator: 0 });
  });
});

describe('queries (cql-tests CqlQueryTests and the reference engine’s rules)', () => {
  const source = (alias: string, expression: ElmNode) => ({ alias, expression });
  const numbers = { type: 'List', element: [int(3), int(1), int(2), int(1)] };

  it('is distinct without a return clause, and keeps duplicates with `return all`', () => {
    const values = runDefines({
      Plain: { type: 'Query', source: [source('N', numbers)] },
      All: { type: 'Query', source: [source('N', numbers)], return: { distinct: false, expression: { type: 'AliasRef', name: 'N' } } },
    });
    expect(values).toEqual({ Plain: [3, 1, 2], All: [3, 1, 2, 1] });
  });

  it('sorts by direction and by a column, and answers null for a query over a null source', () => {
    const tuples = { type: 'List', element: [2, 3, 1].map((n) => ({ type: 'Tuple', element: [{ name: 'n', value: int(n) }] })) };
    const values = runDefines({
      Desc: { type: 'Query', source: [source('N', numbers)], sort: { by: [{ type: 'ByDirection', direction: 'desc' }] } },
      ByColumn: { type: 'Query', source: [source('T', tuples)], sort: { by: [{ type: 'ByColumn', path: 'n', direction: 'asc' }] } },
      Null: { type: 'Query', source: [source('N', { type: 'Null' })] },
    });
    expect(values).toEqual({ Desc: [3, 2, 1], ByColumn: [{ n: 1 }, { n: 2 }, { n: 3 }], Null: null });
  });

  it('makes rows of every alias for several sources, and folds with an aggregate clause', () => {
    const values = runDefines({
      Pairs: { type: 'Query', source: [source('A', { type: 'List', element: [int(1), int(2)] }), source('B', { type: 'List', element: [str('x')] })] },
      Sum: {
        type: 'Query',
        source: [source('N', { type: 'List', element: [int(1), int(2), int(3)] })],
        aggregate: { identifier: 'R', starting: int(0), distinct: false, expression: op('Add', [{ type: 'QueryLetRef', name: 'R' }, { type: 'AliasRef', name: 'N' }]) },
      },
    });
    expect(values).toEqual({ Pairs: [{ A: 1, B: 'x' }, { A: 2, B: 'x' }], Sum: 6 });
  });
});
