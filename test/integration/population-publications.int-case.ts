import { PopulationPublicationRepository, StoredPublication } from '../../src/population/population-publication.repository';
import { PublicationRecord } from '../../src/population/population-counts';
import { useSeededDatabase } from '../setup/database';

const PERIOD = { start: '2025-07-01', end: '2026-06-30' };
const NEXT_DAY = { start: '2025-07-02', end: '2026-07-01' };

const publicationOf = (resultsVersion: string): Omit<StoredPublication, 'id'> => ({
  resultsVersion, computedAt: '2026-06-30T08:00:00.000000Z', salt: `salt of ${resultsVersion}`, counts: { tables: [{ id: 'measures' }], withheldTables: [] },
});
const recordOf = (salt: string): PublicationRecord => ({ salt, microcells: [], domains: {}, shown: { q: 11 } });

/**
 * The population publication store on real Postgres: what every API process serves, and what each
 * new draw is checked with. A publication is stored only when the one it was checked with is still
 * the newest (whatever its period), so two processes publishing at once cannot both skip the check
 * against each other.
 */
describe(PopulationPublicationRepository.name, () => {
  const database = useSeededDatabase();
  let sut: PopulationPublicationRepository;

  beforeAll(async () => {
    sut = new PopulationPublicationRepository(database().dataSource);
    await database().dataSource.query('DELETE FROM population_publications');
  });

  it('stores a publication checked against the newest, serves it by version, and gives its check record to the next', async () => {
    expect(await sut.newest()).toBeUndefined();
    expect(await sut.store(PERIOD, publicationOf('v1'), recordOf('salt of v1'), null)).toBe('stored');
    const stored = await sut.ofVersion(PERIOD, 'v1');
    expect(stored).toEqual({ id: expect.any(String), ...publicationOf('v1') });
    expect(await sut.ofVersion(NEXT_DAY, 'v1')).toBeUndefined();
    expect((await sut.newest())?.checkRecord).toEqual(recordOf('salt of v1'));
  });

  it('refuses a publication checked against one that is no longer the newest, and says when its version was published meanwhile', async () => {
    const first = (await sut.newest())!.id;
    expect(await sut.store(PERIOD, publicationOf('v2'), recordOf('salt of v2'), first)).toBe('stored');
    // Another process checked v3 against v1 while v2 was being stored: never checked against v2.
    expect(await sut.store(PERIOD, publicationOf('v3'), recordOf('salt of v3'), first)).toBe('checked-against-a-stale-publication');
    expect(await sut.store(PERIOD, publicationOf('v2'), recordOf('salt of v2'), first)).toBe('version-already-published');
    expect(await sut.ofVersion(PERIOD, 'v3')).toBeUndefined();
  });

  it('checks a new day\'s period against the day before\'s: the newest is of any period', async () => {
    const newest = (await sut.newest())!;
    expect(await sut.store(NEXT_DAY, publicationOf('v1'), recordOf('next day'), null)).toBe('checked-against-a-stale-publication');
    expect(await sut.store(NEXT_DAY, publicationOf('v1'), recordOf('next day'), newest.id)).toBe('stored');
    expect((await sut.newest())?.checkRecord).toEqual(recordOf('next day'));
  });

  it('keeps the newest four', async () => {
    for (let version = 2; version <= 6; version += 1) {
      expect(await sut.store(NEXT_DAY, publicationOf(`v${version}`), recordOf(`v${version}`), (await sut.newest())!.id)).toBe('stored');
    }
    const kept = await database().dataSource.query<{ v: string }[]>(`SELECT results_version AS v FROM population_publications ORDER BY id`);
    expect(kept.map((row) => row.v)).toEqual(['v3', 'v4', 'v5', 'v6']);
  });
});
