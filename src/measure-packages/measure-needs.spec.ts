import type { ElmLibrary, FhirMeasure } from '../clinical/elm';
import type { EvaluableEdition } from './measure-packages.repository';
import { loadedMeasureNeeds, NeedsSource } from './measure-needs';

const QICORE = 'http://hl7.org/fhir/us/qicore/StructureDefinition/';

/** A one-library measure whose only define retrieves `type` filtered by the value set `name` (`url`). */
function content(library: string, type: string, name: string, url: string) {
  const elm: ElmLibrary = {
    library: {
      identifier: { id: library, version: '1' },
      valueSets: { def: [{ name, id: url }] },
      statements: {
        def: [
          {
            name: 'Retrieved',
            expression: { type: 'Retrieve', dataType: `{http://hl7.org/fhir}${type}`, templateId: `${QICORE}qicore-${type.toLowerCase()}`, codeProperty: type === 'Encounter' ? 'type' : 'code', codes: { type: 'ValueSetRef', name } },
          },
        ],
      },
    },
  };
  return { measure: { resourceType: 'Measure', url: `urn:${library}`, version: '1', library: [`urn:Library/${library}|1`] } as FhirMeasure, libraries: [elm] };
}

const edition = (id: string, key: string, year: string, loadedAt = '2026-01-01T00:00:00Z'): EvaluableEdition => ({
  id,
  key,
  url: `urn:${key}`,
  version: `${year}.0`,
  edition: `${year}-edition`,
  periodStart: `${year}-01-01`,
  periodEnd: `${year}-12-31`,
  loadedAt,
  title: key,
  groups: [],
});

describe(loadedMeasureNeeds.name, () => {
  const editions = [edition('a-2025', 'CMS1', '2025'), edition('a-2026', 'CMS1', '2026'), edition('b-2026', 'CMS2', '2026'), edition('c-2024', 'CMS3', '2024'), edition('c-2023', 'CMS3', '2023')];
  const contents: Record<string, ReturnType<typeof content>> = {
    'a-2025': content('A2025', 'Procedure', 'Old Procedure', 'urn:vs:old'),
    'a-2026': content('A2026', 'Encounter', 'Office Visit', 'urn:vs:office'),
    'b-2026': content('B2026', 'Encounter', 'Office Visit', 'urn:vs:office'),
    'c-2024': content('C2024', 'Coverage', 'Payer Type', 'urn:vs:payer'),
    'c-2023': content('C2023', 'Claim', 'Claims', 'urn:vs:claims'),
  };
  const asked: string[][] = [];
  const source: NeedsSource = {
    allEditions: async () => editions,
    contentsOf: async (ids) => {
      asked.push([...ids]);
      return {
        packages: new Map(ids.map((id) => [id, contents[id]])),
        valueSets: [
          { url: 'urn:vs:office', expansion: { contains: [{ system: 'http://snomed.info/sct', code: '185463005' }] } },
          { url: 'urn:vs:payer', expansion: { contains: [{ system: 'urn:oid:2.16.840.1.113883.3.221.5', code: '1' }] } },
        ],
      };
    },
  };

  it('reads each key in the edition in force on the last day, else its newest loaded, and merges one need across measures', async () => {
    const sut = await loadedMeasureNeeds(source, { start: '2025-12-08', end: '2026-12-07' });
    expect(asked).toEqual([['a-2026', 'b-2026', 'c-2024']]);
    expect(sut?.day).toBe('2026-12-07');
    expect(sut?.editions).toEqual([
      { key: 'CMS1', edition: '2026-edition', version: '2026.0', inForce: true },
      { key: 'CMS2', edition: '2026-edition', version: '2026.0', inForce: true },
      { key: 'CMS3', edition: '2024-edition', version: '2024.0', inForce: false },
    ]);
    expect(sut?.needs).toEqual([
      { resourceType: 'Encounter', label: '"Office Visit" [qicore-encounter]', stored: true, measures: ['CMS1', 'CMS2'] },
      { resourceType: 'Coverage', label: '"Payer Type" [qicore-coverage]', stored: false, measures: ['CMS3'] },
    ]);
    const visit = { resourceType: 'Encounter', type: [{ coding: [{ system: 'http://snomed.info/sct', code: '185463005' }] }] };
    expect(sut?.select(visit)).toEqual([0]);
    expect(sut?.select({ resourceType: 'Procedure', code: { coding: [{ system: 'http://snomed.info/sct', code: '185463005' }] } })).toEqual([]);
  });

  it('is null when no measure is loaded', async () => {
    expect(await loadedMeasureNeeds({ allEditions: async () => [], contentsOf: async () => ({ packages: new Map(), valueSets: [] }) }, { start: '2025-01-01', end: '2025-12-31' })).toBeNull();
  });
});
