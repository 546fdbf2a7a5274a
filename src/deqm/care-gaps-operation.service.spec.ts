import { IdentifiedMeasure } from '../measure-packages';
import { CareGapsOperationQueryDto } from './care-gaps-operation.dto';
import { operationQuery } from './care-gaps-operation.service';

const SHORT_NAME = 'https://madie.cms.gov/measure/shortName';

/** A loaded edition as the catalogue lists it, with the short names its Measure carries. */
function edition(key: string, version: string, year: number, shortNames: IdentifiedMeasure['shortNames'], evaluable = true): IdentifiedMeasure {
  return {
    key, version, title: key, url: `https://example.org/Measure/${key}-${year}`, edition: `${year}`, scoring: 'proportion', basis: 'boolean', groups: [],
    measurementPeriod: { start: `${year}-01-01`, end: `${year}-12-31` }, loadedAt: '2026-01-01T00:00:00.000000Z', libraries: 1, valueSets: 0, valueSetsFromSupplement: 0,
    evaluable, shortNames,
  };
}

const query = (measureIdentifier: string[], periodEnd = '2026-12-31'): CareGapsOperationQueryDto =>
  Object.assign(new CareGapsOperationQueryDto(), { subject: 'Patient/p', periodStart: `${periodEnd.slice(0, 4)}-01-01`, periodEnd, status: ['open-gap'], measureIdentifier });

describe(operationQuery.name, () => {
  const loaded = [
    edition('CMS139', '0.2.001', 2025, [{ system: SHORT_NAME, value: 'CMS139FHIR' }]),
    edition('CMS139', '1.0.000', 2026, [{ system: SHORT_NAME, value: 'CMS139FHIR' }]),
    edition('CMS2', '1.0.000', 2026, [{ system: SHORT_NAME, value: 'CMS2FHIR' }], false),
  ];

  it.each([['CMS139FHIR'], [`${SHORT_NAME}|CMS139FHIR`], ['CMS139']])('names a loaded measure by its short name, or its key: %s', (identifier) => {
    expect(operationQuery(query([identifier]), loaded).toolQuery.measure).toEqual(['CMS139']);
  });

  it('keeps the built-in short names the built-in measures’', () => {
    expect(operationQuery(query(['CMS122FHIR', 'CMS139FHIR']), loaded).toolQuery.measure).toEqual(['CMS122', 'CMS139']);
  });

  it('refuses by name an identifier of another system, one nothing carries, and a loaded measure with no gap to read', () => {
    for (const identifier of ['https://example.org/other|CMS139FHIR', 'CMS9998FHIR', 'CMS2FHIR']) {
      expect(() => operationQuery(query([identifier]), loaded)).toThrow(expect.objectContaining({ errors: [expect.objectContaining({ field: 'measureIdentifier', reason: 'unknown_measure' })] }));
    }
  });

  it('tells measures sharing a short name apart by the edition in force on the period’s last day', () => {
    const renamed = [edition('CMS139', '0.2.001', 2025, [{ system: SHORT_NAME, value: 'FALLSFHIR' }]), edition('CMS1390', '1.0.000', 2026, [{ system: SHORT_NAME, value: 'FALLSFHIR' }])];
    expect(operationQuery(query(['FALLSFHIR'], '2025-12-31'), renamed).toolQuery.measure).toEqual(['CMS139']);
    expect(operationQuery(query(['FALLSFHIR'], '2026-12-31'), renamed).toolQuery.measure).toEqual(['CMS1390']);
  });
});
