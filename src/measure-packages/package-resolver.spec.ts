import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Json } from './measure-content';
import { readMeasureSource } from './measure-source';
import { resolvePackage, Resolution, ResolvedPackage } from './package-resolver';

const VSAC = 'http://cts.nlm.nih.gov/fhir/ValueSet/';
const SNOMED = 'http://snomed.info/sct';
const HCPCS_2025 = 'http://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets';
const b64 = (text: string) => Buffer.from(text).toString('base64');

function library(name: string, version: string, includes: [string, string][] = [], valueSets: [string, string][] = []): Json {
  const elm = {
    library: {
      identifier: { id: name, system: 'https://madie.cms.gov', version },
      includes: { def: includes.map(([include, at]) => ({ localIdentifier: include, path: `https://madie.cms.gov/${include}`, version: at })) },
      valueSets: { def: valueSets.map(([valueSetName, oid]) => ({ name: valueSetName, id: `${VSAC}${oid}`, accessLevel: 'Public' })) },
    },
  };
  return {
    resourceType: 'Library', url: `https://madie.cms.gov/Library/${name}`, name, version,
    content: [{ contentType: 'text/cql', data: b64(`library ${name} version '${version}'`) }, { contentType: 'application/elm+json', data: b64(JSON.stringify(elm)) }],
  };
}

function valueSet(oid: string, codes: [string, string, string?][], expansion: Json = {}): Json {
  return {
    resourceType: 'ValueSet', url: `${VSAC}${oid}`, version: '20250101', title: `Set ${oid}`,
    expansion: { identifier: `urn:uuid:${oid}`, timestamp: '2025-08-28T16:59:52-04:00', contains: codes.map(([system, code, display]) => ({ system, code, display })), ...expansion },
  };
}

const measure = (libraryName = 'Main', extra: Json = {}): Json => ({
  resourceType: 'Measure', url: 'https://madie.cms.gov/Measure/Main', version: '1.0.000', title: 'A measure FHIR',
  identifier: [{ system: 'https://madie.cms.gov/measure/shortName', value: 'CMS9999FHIR' }],
  effectivePeriod: { start: '2026-01-01', end: '2026-12-31' },
  library: [`https://madie.cms.gov/Library/${libraryName}`],
  group: [{
    id: 'Group_1',
    extension: [
      { url: 'http://hl7.org/fhir/us/cqfmeasures/StructureDefinition/cqfm-scoring', valueCodeableConcept: { coding: [{ code: 'proportion' }] } },
      { url: 'http://hl7.org/fhir/us/cqfmeasures/StructureDefinition/cqfm-populationBasis', valueCode: 'Encounter' },
    ],
    population: [
      { id: 'IP', code: { coding: [{ code: 'initial-population' }] }, criteria: { language: 'text/cql-identifier', expression: 'Initial Population' } },
      { id: 'NUMER', code: { coding: [{ code: 'numerator' }] }, criteria: { language: 'text/cql-identifier', expression: 'Numerator' } },
    ],
    stratifier: [{ id: 'S1', criteria: { expression: 'Stratification 1' } }],
  }],
  ...extra,
});

const DIABETES: [string, string, string?][] = [[SNOMED, '44054006', 'Diabetes type 2'], [HCPCS_2025, 'G0108'], [SNOMED, '44054006', 'Diabetes type 2']];

describe(resolvePackage.name, () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'vigil-measure-package-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  /** Writes `resources` as one collection Bundle (and supplements beside it) and resolves its one Measure. */
  const resolveBundle = (resources: Json[], options = { supplement: false }, supplements: Json[] = []): Resolution => {
    const bundle = (entries: Json[]) => JSON.stringify({ resourceType: 'Bundle', type: 'collection', entry: entries.map((resource) => ({ resource })) });
    writeFileSync(join(folder, 'measure-bundle.json'), bundle(resources));
    if (supplements.length > 0) {
      mkdirSync(join(folder, 'valuesets-supplement'), { recursive: true });
      writeFileSync(join(folder, 'valuesets-supplement', 'stand-ins.json'), bundle(supplements));
    }
    const source = readMeasureSource(folder);
    expect(source.measures).toHaveLength(1);
    return resolvePackage(source.measures[0], source.edition, options);
  };
  const resolved = (resolution: Resolution): ResolvedPackage => {
    if (!('resolved' in resolution)) throw new Error(`refused: ${resolution.refused.reasons.join('; ')}`);
    return resolution.resolved;
  };
  const reasons = (resolution: Resolution): string[] => ('refused' in resolution ? resolution.refused.reasons : []);

  const main = library('Main', '1.0.000', [['Common', '2.0.000']], [['Diabetes', '1.1'], ['Visits', '1.2']]);
  const common = library('Common', '2.0.000', [], [['Diabetes', '1.1'], ['Hospice', '1.3']]);
  const complete = [valueSet('1.1', DIABETES), valueSet('1.2', [[SNOMED, '185349003']]), valueSet('1.3', [[SNOMED, '385763009']], { total: 1 })];

  it('resolves the include closure from the ELM and every value set it declares, with codes as the steward wrote them', () => {
    const pkg = resolved(resolveBundle([measure(), main, common, library('Unused', '1.0.000'), ...complete]));
    expect(pkg).toMatchObject({ key: 'CMS9999', url: 'https://madie.cms.gov/Measure/Main', version: '1.0.000', title: 'A measure FHIR', edition: basenameOf(folder) });
    expect(pkg.libraries.map((item) => `${item.name} ${item.version}`)).toEqual(['Main 1.0.000', 'Common 2.0.000']);
    expect(pkg.primaryLibrary.name).toBe('Main');
    expect(pkg.libraries[0].cql).toBe("library Main version '1.0.000'");
    expect(pkg.valueSets.map((item) => [item.expansion.url.slice(VSAC.length), item.names, item.fromSupplement])).toEqual([
      ['1.1', ['Diabetes'], false], ['1.2', ['Visits'], false], ['1.3', ['Hospice'], false],
    ]);
    // A code listed twice is one code; the 2025 HCPCS system URI is kept, not mapped.
    expect(pkg.valueSets[0].expansion.codes).toEqual([
      { system: SNOMED, code: '44054006', display: 'Diabetes type 2' },
      { system: HCPCS_2025, code: 'G0108', display: null },
    ]);
    expect(pkg).toMatchObject({ scoring: 'proportion', basis: 'Encounter', period: { start: '2026-01-01', end: '2026-12-31' } });
    expect(pkg.groups).toEqual([{
      id: 'Group_1', scoring: 'proportion', basis: 'Encounter', improvementNotation: null,
      populations: [{ code: 'initial-population', id: 'IP', expression: 'Initial Population' }, { code: 'numerator', id: 'NUMER', expression: 'Numerator' }],
      stratifiers: [{ id: 'S1', expression: 'Stratification 1' }],
    }]);
  });

  it('hashes content, not the order a file lists it in; other content hashes differently', () => {
    const first = resolved(resolveBundle([measure(), main, common, ...complete])).contentHash;
    expect(resolved(resolveBundle([...complete].reverse().concat([common, main, measure()]))).contentHash).toBe(first);
    expect(resolved(resolveBundle([measure('Main', { title: 'Another title' }), main, common, ...complete])).contentHash).not.toBe(first);
    const recoded = [valueSet('1.1', [[SNOMED, '44054006', 'Diabetes type 2'], [HCPCS_2025, 'G0109']]), ...complete.slice(1)];
    expect(resolved(resolveBundle([measure(), main, common, ...recoded])).contentHash).not.toBe(first);
  });

  it('refuses a value set cut short (total above the codes listed), naming it', () => {
    const short = valueSet('1.2', [[SNOMED, '185349003']], { total: 1000 });
    expect(reasons(resolveBundle([measure(), main, common, complete[0], short, complete[2]]))).toEqual(['value set "Visits" (1.2) cut short: 1 of 1,000 codes']);
  });

  it('refuses a missing and an unexpanded value set, naming each, and names every problem at once', () => {
    const unexpanded = { ...complete[2], expansion: undefined, compose: { include: [{ valueSet: [`${VSAC}9.9`] }] } };
    expect(reasons(resolveBundle([measure(), main, common, complete[0], unexpanded]))).toEqual([
      'value set "Visits" (1.2) missing',
      'value set "Hospice" (1.3) not expanded (a definition without its codes)',
    ]);
  });

  it('uses a stand-in only when told to (--supplement), and checks the stand-in for completeness too', () => {
    const short = valueSet('1.2', [[SNOMED, '185349003']], { total: 2 });
    const full = valueSet('1.2', [[SNOMED, '185349003'], [SNOMED, '390906007']], { total: 2 });
    const resources = [measure(), main, common, complete[0], short, complete[2]];
    expect(reasons(resolveBundle(resources, { supplement: false }, [full]))).toEqual(['value set "Visits" (1.2) cut short: 1 of 2 codes (a stand-in is in the supplement: --supplement loads it)']);
    const pkg = resolved(resolveBundle(resources, { supplement: true }, [full]));
    expect(pkg.valueSets.find((item) => item.names[0] === 'Visits')).toMatchObject({ fromSupplement: true, expansion: { codes: [expect.anything(), expect.anything()] } });
    const stillShort = valueSet('1.2', [[SNOMED, '185349003']], { total: 3 });
    expect(reasons(resolveBundle(resources, { supplement: true }, [stillShort]))).toEqual(['value set "Visits" (1.2) cut short: 1 of 2 codes, and its supplement too: cut short: 1 of 3 codes']);
  });

  it('refuses a missing library, and one whose ELM is another version than the include asks for', () => {
    expect(reasons(resolveBundle([measure(), main, ...complete]))).toEqual(['library Common 2.0.000 (included by Main 1.0.000) missing']);
    const wrongVersion = { ...library('Common', '2.0.000'), content: library('Common', '3.0.000').content };
    expect(reasons(resolveBundle([measure(), main, wrongVersion, ...complete]))).toEqual(['library Common 2.0.000 (included by Main 1.0.000): its ELM is Common 3.0.000']);
    const cqlOnly = { ...main, content: [(main.content as Json[])[0]] };
    expect(reasons(resolveBundle([measure(), cqlOnly, common, ...complete]))).toEqual(['library Main 1.0.000 has no ELM JSON (application/elm+json)']);
  });

  describe('an edition folder (index.json)', () => {
    const writeEdition = (status: string, supplement: boolean) => {
      for (const sub of ['measures', 'libraries', 'valuesets', 'valuesets-supplement']) mkdirSync(join(folder, sub));
      const write = (file: string, value: Json) => writeFileSync(join(folder, file), JSON.stringify(value));
      write('measures/CMS9999.Measure.json', measure());
      write('libraries/Main-1.0.000.Library.json', main);
      write('libraries/Common-2.0.000.Library.json', common);
      complete.forEach((item, index) => write(`valuesets/vs${index}.json`, item));
      write('valuesets-supplement/vs1.json', valueSet('1.2', [[SNOMED, '185349003'], [SNOMED, '390906007']]));
      write('index.json', {
        edition: '2099-test',
        measures: {
          CMS9999: {
            measure: 'measures/CMS9999.Measure.json',
            period: { start: '2099-01-01', end: '2099-12-31' },
            libraries: [{ name: 'Main', version: '1.0.000', file: 'Main-1.0.000.Library.json' }, { name: 'Common', version: '2.0.000', file: 'Common-2.0.000.Library.json' }],
            valuesets: complete.map((item, index) => ({
              url: item.url, file: `vs${index}.json`, status: index === 1 ? status : 'ok', ...(index === 1 && supplement && { supplement: { file: 'vs1.json' } }),
            })),
          },
        },
      });
      return readMeasureSource(folder).measures[0];
    };

    it('takes the key, edition and files the index names, and refuses what the index calls truncated though the file looks whole', () => {
      const source = writeEdition('truncated 1/2', false);
      expect(source.key).toBe('CMS9999');
      expect(reasons(resolvePackage(source, '2099-test', { supplement: false }))).toEqual(["value set \"Visits\" (1.2) cut short (the edition's index says truncated 1/2)"]);
      expect(readMeasureSource(folder).edition).toBe('2099-test');
    });

    it('uses the index’s supplement with --supplement', () => {
      const pkg = resolved(resolvePackage(writeEdition('truncated 1/2', true), '2099-test', { supplement: true }));
      expect(pkg.valueSets[1]).toMatchObject({ fromSupplement: true, expansion: { url: `${VSAC}1.2` } });
      // The Measure's effectivePeriod wins over the index's period (taken from its test cases).
      expect(pkg.period).toEqual({ start: '2026-01-01', end: '2026-12-31' });
    });
  });
});

const basenameOf = (path: string) => path.split('/').pop();
