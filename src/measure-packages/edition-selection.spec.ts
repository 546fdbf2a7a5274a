import { chooseEdition, EditionLike } from './edition-selection';
import { MeasureCatalogueService } from './measure-catalogue.service';
import type { LoadedEdition, MeasurePackagesRepository } from './measure-packages.repository';
import type { AuditedAccess } from '../access/audited-access.service';

const edition = (version: string, periodStart: string | null, periodEnd: string | null, loadedAt = '2026-01-10T00:00:00.000000Z'): EditionLike => ({
  key: 'CMS122', version, periodStart, periodEnd, loadedAt,
});

const Y2025 = { start: '2025-01-01', end: '2025-12-31' };
const Y2026 = { start: '2026-01-01', end: '2026-12-31' };

describe(chooseEdition.name, () => {
  const v2024 = edition('0.1.002', '2025-01-01', '2025-12-31');
  const v2025 = edition('1.0.000', '2026-01-01', '2026-12-31');
  const editions = [v2024, v2025];

  it('picks the edition in force on the last day of the period: its own year, or the year a rolling year ends in', () => {
    expect(chooseEdition(editions, Y2025)).toEqual({ chosen: v2024 });
    expect(chooseEdition(editions, Y2026)).toEqual({ chosen: v2025 });
    expect(chooseEdition(editions, { start: '2026-03-01', end: '2026-03-31' })).toEqual({ chosen: v2025 });
    expect(chooseEdition(editions, { start: '2025-07-01', end: '2026-06-30' })).toEqual({ chosen: v2025 });
    expect(chooseEdition(editions, { start: '2025-01-01', end: '2026-01-01' })).toEqual({ chosen: v2025 });
    expect(chooseEdition(editions, { start: '2024-12-31', end: '2025-12-30' })).toEqual({ chosen: v2024 });
  });

  it('answers no edition for a period ending on a day none is in force, naming the editions there are (never the nearest)', () => {
    expect(chooseEdition(editions, { start: '2026-01-02', end: '2027-01-01' })).toEqual({ refused: 'no-edition-for-period', editions });
    expect(chooseEdition(editions, { start: '2027-01-01', end: '2027-12-31' })).toEqual({ refused: 'no-edition-for-period', editions });
    expect(chooseEdition(editions, { start: '2024-01-01', end: '2024-12-31' })).toEqual({ refused: 'no-edition-for-period', editions });
  });

  it('takes a named version whatever the period, and refuses a version not loaded', () => {
    expect(chooseEdition(editions, Y2026, '0.1.002')).toEqual({ chosen: v2024 });
    expect(chooseEdition(editions, Y2026, '9.9.999')).toEqual({ refused: 'unknown-version', editions });
  });

  it('says when nothing is loaded under the key', () => {
    expect(chooseEdition([], Y2026)).toEqual({ refused: 'unknown-measure', editions: [] });
    expect(chooseEdition([], Y2026, '1.0.000')).toEqual({ refused: 'unknown-measure', editions: [] });
  });

  it('never picks an edition without a measurement period by period, only by version', () => {
    const undated = edition('draft', null, null);
    expect(chooseEdition([undated], Y2026)).toEqual({ refused: 'no-edition-for-period', editions: [undated] });
    expect(chooseEdition([undated], Y2026, 'draft')).toEqual({ chosen: undated });
  });

  it('of several in force on its last day, the one whose period starts last, then the last loaded', () => {
    const long = edition('long', '2025-07-01', '2026-12-31');
    const reissued = edition('1.0.001', '2026-01-01', '2026-12-31', '2026-02-01T00:00:00.000000Z');
    expect(chooseEdition([long, v2025], { start: '2026-02-01', end: '2026-02-28' })).toEqual({ chosen: v2025 });
    expect(chooseEdition([v2025, reissued, long], Y2026)).toEqual({ chosen: reissued });
  });
});

describe(MeasureCatalogueService.name, () => {
  const loaded = (version: string, periodStart: string, periodEnd: string): LoadedEdition => ({
    id: `id-${version}`, key: 'CMS125', url: 'https://madie.cms.gov/Measure/CMS125', version, edition: 'x', periodStart, periodEnd, loadedAt: '2026-01-10T00:00:00.000000Z',
  });
  const asked: string[] = [];
  const repository = {
    editionsOf: async (key: string) => {
      asked.push(key);
      return key === 'CMS125' ? [loaded('0.0.001', '2025-01-01', '2025-12-31'), loaded('1.0.000', '2026-01-01', '2026-12-31')] : [];
    },
  } as unknown as MeasurePackagesRepository;
  const sut = new MeasureCatalogueService(repository, {} as AuditedAccess);

  it('measureForPeriod reads the key’s editions and picks by period or version', async () => {
    expect(await sut.measureForPeriod('CMS125', Y2026)).toEqual({ chosen: expect.objectContaining({ version: '1.0.000' }) });
    expect(await sut.measureForPeriod('CMS125', Y2026, '0.0.001')).toEqual({ chosen: expect.objectContaining({ version: '0.0.001' }) });
    expect(await sut.measureForPeriod('CMS999', Y2026)).toEqual({ refused: 'unknown-measure', editions: [] });
    expect(asked).toEqual(['CMS125', 'CMS125', 'CMS999']);
  });

  it('lists the built-in measures as evaluable, filtered by key', () => {
    expect(sut.builtIn().map((measure) => measure.key).sort()).toEqual(['CMS122', 'CMS125', 'CMS130', 'CMS165', 'CMS347', 'CMS951']);
    expect(sut.builtIn().every((measure) => measure.evaluable)).toBe(true);
    expect(sut.builtIn('CMS125')).toEqual([expect.objectContaining({ key: 'CMS125', version: 'CMS125v13' })]);
    expect(sut.builtIn('CMS2')).toEqual([]);
  });
});
