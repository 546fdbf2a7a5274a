import { Code } from 'cql-execution';
import type { ElmNode } from '../elm.types';
import { runDefines } from '../testing/elm-builders';
import { fhirModel } from '../runtime/fhir-model';
import { FhirResource, PatientData } from '../runtime/patient-data';
import { FhirValue } from '../runtime/fhir-value';
import { CodeSet, codesMatch, CodeLike, inCodeSet } from '../runtime/terminology';
import { Expansion } from '../runtime/value-sets';
import { CodeFilter, CodeFilterPass } from './code-filter-pass';

/**
 * One pass over a patient's resources answers every constant code filter (value set, list of codes)
 * of the retrieves of their type, profile and code path: each filter must get exactly the
 * resources, in the same order, that testing each resource against it alone selects.
 */

const SNOMED = 'http://snomed.info/sct';
const CPT = 'http://www.ama-assn.org/go/cpt';
const expansion = (url: string, ...codes: [string, string][]) => new Expansion(url, codes.map(([system, code]) => new Code(code, system)));
const OFFICE = expansion('office', [SNOMED, '185463005'], [CPT, '99213']);
const HOME = expansion('home', [SNOMED, '185463005'], [SNOMED, '439740005']);
const HOSPICE = expansion('hospice', [SNOMED, '183919006']);
const coded = (id: string, ...codings: unknown[]): FhirResource => ({ resourceType: 'Encounter', id, type: [{ coding: codings }] });
const ENCOUNTERS: FhirResource[] = [
  { resourceType: 'Patient', id: 'p' },
  coded('office', { system: CPT, code: '99213' }),
  { resourceType: 'Encounter', id: 'no-code' },
  // In two value sets at once, and twice in one (two codings of the office set): listed once in each.
  coded('office-and-home', { system: SNOMED, code: '185463005' }, { system: CPT, code: '99213' }),
  coded('home', { system: SNOMED, code: '439740005' }),
  coded('no-system', { code: '185463005' }),
  coded('other', { system: SNOMED, code: '1' }),
  { resourceType: 'Encounter', id: 'several-concepts', type: [{ coding: [{ system: SNOMED, code: '1' }] }, { coding: [{ system: SNOMED, code: '439740005' }] }] },
];

type Coding = { system?: unknown; code?: unknown };
// As retrieves read a list of concepts from the JSON: each coding's system and code as they are.
const codesOf = (resource: FhirValue) =>
  CodeSet.ofCodes(((resource.json.type ?? []) as { coding?: Coding[] }[]).flatMap((concept) => concept.coding ?? []).map((c): CodeLike => ({ system: c.system ?? null, code: c.code ?? null })));
const inValueSet = (set: Expansion): CodeFilter => ({ selects: `value set ${set.url}`, keys: set.keys });
const codeList = (...codes: [string, string][]): CodeFilter => {
  const matcher = (set: CodeSet) => codes.some(([system, code]) => codesMatch(new Code(code, system), set.codes));
  return { selects: `codes ${JSON.stringify(codes)}`, keys: codes.map(([system, code]) => `${system}|${code}`), confirm: matcher };
};
const patientData = (resources: FhirResource[]) => new PatientData(resources, { model: fhirModel(), timezoneOffset: 0, dateTimes: new Map() });
const ids = (values: readonly FhirValue[] | undefined) => values?.map((value) => value.json.id);

describe(CodeFilterPass.name, () => {
  it('gives each value set the resources testing each resource alone selects, in order', () => {
    const pass = new CodeFilterPass('pass', codesOf);
    const numbers = [OFFICE, HOME, HOSPICE].map((set) => pass.register(inValueSet(set)));
    const data = patientData(ENCOUNTERS);
    const records = data.all('Encounter');
    [OFFICE, HOME, HOSPICE].forEach((set, i) => {
      expect(ids(pass.select(data, records, numbers[i]))).toEqual(ids(records.filter((record) => inCodeSet(set, codesOf(record)))));
    });
    expect(ids(pass.select(data, records, numbers[0]))).toEqual(['office', 'office-and-home']);
    expect(ids(pass.select(data, records, numbers[1]))).toEqual(['office-and-home', 'home', 'several-concepts']);
    expect(pass.select(data, records, numbers[2])).toEqual([]);
  });

  it('numbers filters by what they select, so two retrieves of one filter share its resources', () => {
    const pass = new CodeFilterPass('pass', codesOf);
    expect(pass.register(inValueSet(OFFICE))).toBe(pass.register({ ...inValueSet(OFFICE), keys: [] }));
    expect(pass.register(inValueSet(HOME))).not.toBe(pass.register(inValueSet(OFFICE)));
  });

  it('confirms a key of a list of codes by its own test: a code that prints alike is not the same code', () => {
    const pass = new CodeFilterPass('pass', codesOf);
    const filters = [codeList([CPT, '99213']), codeList([SNOMED, '439740005'], [SNOMED, '185463005']), inValueSet(OFFICE)];
    const numbers = filters.map((filter) => pass.register(filter));
    const data = patientData([...ENCOUNTERS, coded('numeric-code', { system: CPT, code: 99213 })]);
    const records = data.all('Encounter');
    filters.forEach((filter, i) => {
      const alone = records.filter((record) => (filter.confirm ?? ((set: CodeSet) => inCodeSet(i === 2 ? OFFICE : HOME, set)))(codesOf(record)));
      expect(ids(pass.select(data, records, numbers[i]))).toEqual(ids(alone));
    });
    expect(ids(pass.select(data, records, numbers[0]))).toEqual(['office', 'office-and-home']);
    expect(ids(pass.select(data, records, numbers[1]))).toEqual(['office-and-home', 'home', 'several-concepts']);
    // A value set matches by key (inCodeSet), so there the numeric code is in.
    expect(ids(pass.select(data, records, numbers[2]))).toEqual(['office', 'office-and-home', 'numeric-code']);
  });

  it('reads each resource once per patient, whatever the number of value sets', () => {
    const read = jest.fn(codesOf);
    const pass = new CodeFilterPass('pass', read);
    const numbers = [OFFICE, HOME, HOSPICE].map((set) => pass.register(inValueSet(set)));
    const data = patientData(ENCOUNTERS);
    const records = data.all('Encounter');
    for (const number of numbers) pass.select(data, records, number);
    expect(read).toHaveBeenCalledTimes(records.length);
  });

  it('does not answer for a value set registered after the patient pass was made', () => {
    const pass = new CodeFilterPass('pass', codesOf);
    const office = pass.register(inValueSet(OFFICE));
    const data = patientData(ENCOUNTERS);
    const records = data.all('Encounter');
    expect(ids(pass.select(data, records, office))).toEqual(['office', 'office-and-home']);
    const home = pass.register(inValueSet(HOME));
    expect(pass.select(data, records, home)).toBeUndefined();
    expect(ids(pass.select(patientData(ENCOUNTERS), patientData(ENCOUNTERS).all('Encounter'), home))).toEqual(['office-and-home', 'home', 'several-concepts']);
  });

  it('does not answer for a patient with a bare string code at the path (matched by code alone elsewhere)', () => {
    const pass = new CodeFilterPass('pass', (resource) => (resource.json.id === 'home' ? new CodeSet('439740005') : codesOf(resource)));
    const home = pass.register(inValueSet(HOME));
    const data = patientData(ENCOUNTERS);
    expect(pass.select(data, data.all('Encounter'), home)).toBeUndefined();
  });
});

describe('Value-set retrieves sharing one pass', () => {
  const valueSet = (url: string, codes: [string, string][]) => ({ resourceType: 'ValueSet', url, expansion: { contains: codes.map(([system, code]) => ({ system, code })) } });
  const retrieve = (name: string): ElmNode => ({ type: 'Retrieve', dataType: '{http://hl7.org/fhir}Encounter', codeProperty: 'type', codes: { type: 'ValueSetRef', name } });

  it('selects what each value set or list of codes holds, a resource in two of them in both', () => {
    const results = runDefines(
      {
        Office: retrieve('Office'),
        Home: retrieve('Home'),
        Hospice: retrieve('Hospice'),
        OfficeAgain: retrieve('Office'),
        HomeVisit: { ...retrieve('Home'), codes: { type: 'ToList', operand: { type: 'CodeRef', name: 'Home visit' } } },
      },
      {
        resources: ENCOUNTERS as never,
        valueSets: [valueSet('office', [[SNOMED, '185463005'], [CPT, '99213']]), valueSet('home', [[SNOMED, '185463005'], [SNOMED, '439740005']]), valueSet('hospice', [[SNOMED, '183919006']])],
        parts: {
          valueSets: { def: [{ name: 'Office', id: 'office' }, { name: 'Home', id: 'home' }, { name: 'Hospice', id: 'hospice' }] },
          codeSystems: { def: [{ name: 'SNOMEDCT', id: SNOMED }] },
          codes: { def: [{ name: 'Home visit', id: '439740005', codeSystem: { name: 'SNOMEDCT' } }] },
        },
      },
    );
    const selected = (name: string) => ids(results[name] as FhirValue[]);
    expect(selected('Office')).toEqual(['office', 'office-and-home']);
    expect(selected('OfficeAgain')).toEqual(['office', 'office-and-home']);
    expect(selected('Home')).toEqual(['office-and-home', 'home', 'several-concepts']);
    expect(selected('Hospice')).toEqual([]);
    expect(selected('HomeVisit')).toEqual(['home', 'several-concepts']);
  });
});
