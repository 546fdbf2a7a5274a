import { AccessContext, restContext } from '../access/access-context';
import { AccessService } from '../access/access.service';
import { StaffRole } from '../common/roles';
import { ProblemException } from '../common/http/problem';
import { MeasureResultsRepository, PopulationInputs, PopulationResultsVersion } from '../measure-results/measure-results.repository';
import { AuditedAccess } from '../access/audited-access.service';
import { PopulationMeasuresService } from './population-measures.service';
import { PublishOptions, publishPopulationCounts } from './population-counts';
import { NewestPublication, PopulationPublicationRepository, StoreOutcome, StoredPublication } from './population-publication.repository';
import { PublicationRecord } from './population-counts';
import { Microcell } from './microcells';
import { StrataDomains } from './published-quantities';

const PERIOD = { start: '2025-12-03', end: '2026-12-02' };
const VERSION_1: PopulationResultsVersion = { rowCount: 24, maxRunId: '7', newestComputedAt: '2026-12-02T08:00:00.000Z' };
const VERSION_2: PopulationResultsVersion = { ...VERSION_1, newestComputedAt: '2026-12-02T09:00:00.000Z' };

const inputs = (version: PopulationResultsVersion, open: number): PopulationInputs => ({
  version,
  careTeamCodes: ['north', 'south'],
  microcells: [
    { careTeams: ['north'], ageDecade: 50, sex: 'female', measureId: 'CMS122', status: 'open-gap', reasonClass: 'numerator', count: open, keySum: String(40_000 + open) },
    { careTeams: ['north'], ageDecade: 90, sex: 'male', measureId: 'CMS122', status: 'closed-gap', reasonClass: 'not-numerator', count: 12, keySum: '281474976710655' },
  ],
});

/** A fake store: what the repository would answer, and how often the expensive read ran. */
class FakeResults {
  latest: { period: typeof PERIOD; finishedAt: string } | null = { period: PERIOD, finishedAt: '2026-12-02T08:00:00.000Z' };
  version = VERSION_1;
  open = 12;
  inputReads = 0;
  latestCompletePeriod = async () => this.latest;
  populationResultsVersion = async () => this.version;
  populationInputs = async () => {
    this.inputReads += 1;
    return inputs(this.version, this.open);
  };
}

/** A fake publication store, as population_publications behaves (the repository's own SQL is tested against Postgres). */
class FakeStore {
  rows: NewestPublication[] = [];
  /** Runs before the next store: another process's publication landing while this one checked its draw. */
  beforeStore: (() => void) | null = null;
  ofVersion = async (_period: unknown, version: string) => this.rows.find((row) => row.resultsVersion === version);
  newest = async () => this.rows[this.rows.length - 1];
  store = async (_period: unknown, publication: Omit<StoredPublication, 'id'>, checkRecord: PublicationRecord, checkedAfter: string | null): Promise<StoreOutcome> => {
    const interloper = this.beforeStore;
    this.beforeStore = null;
    interloper?.();
    if ((this.rows[this.rows.length - 1]?.id ?? null) !== checkedAfter) return 'checked-against-a-stale-publication';
    this.rows.push({ id: String(this.rows.length + 1), ...publication, checkRecord });
    return 'stored';
  };
}

/**
 * The real publisher with a check that passes every draw (the check has its own specs, and takes
 * seconds): what it was asked to check each publication with.
 */
class RecordingPublisher {
  previous: (PublicationRecord | null)[] = [];
  publish = (microcells: readonly Microcell[], domains: StrataDomains = {}, options: PublishOptions = {}) => {
    this.previous.push(options.previous ?? null);
    return publishPopulationCounts(microcells, domains, { ...options, check: async () => [] });
  };
}

/** Runs the work as the PHI path would, keeping what the audit row would say. */
class FakePhi {
  rows: { patientId: string | null; fields: string[]; rowCount: number }[] = [];
  async audited<T>(_context: AccessContext, patientId: string | null, work: () => Promise<{ value: T; fields: string[]; rowCount: number }>): Promise<T> {
    const result = await work();
    this.rows.push({ patientId, fields: result.fields, rowCount: result.rowCount });
    return result.value;
  }
}

const contextOf = (role: StaffRole) => restContext({ userId: 'u', username: 'u', role, careTeamIds: [], careTeamCodes: [] }, 'test', 'c');

describe(PopulationMeasuresService.name, () => {
  let results: FakeResults;
  let phi: FakePhi;
  let store: FakeStore;
  let publisher: RecordingPublisher;
  let sut: PopulationMeasuresService;
  const analyst = contextOf(StaffRole.Analyst);
  const serviceOn = (on: FakeStore, by: RecordingPublisher) =>
    new PopulationMeasuresService(new AccessService({} as never), results as unknown as MeasureResultsRepository, on as unknown as PopulationPublicationRepository, phi as unknown as AuditedAccess, by.publish);

  beforeEach(() => {
    results = new FakeResults();
    phi = new FakePhi();
    store = new FakeStore();
    publisher = new RecordingPublisher();
    sut = serviceOn(store, publisher);
  });

  const problemOf = async (promise: Promise<unknown>) => {
    const error = await promise.then(() => null, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemException);
    const problem = error as ProblemException;
    return { status: problem.getStatus(), code: (problem.getResponse() as { code: string }).code };
  };

  it('answers 503 results_not_ready before any period is complete, and reads no results', async () => {
    results.latest = null;
    expect(await problemOf(sut.measures(analyst, undefined))).toEqual({ status: 503, code: 'results_not_ready' });
    expect(results.inputReads).toBe(0);
  });

  it.each(['2026-12-01', '2025-12-02', '2026-12-03'])('answers 404 period_not_available for periodEnd %s, naming the available period', async (periodEnd) => {
    const error = await sut.measures(analyst, periodEnd).catch((caught: ProblemException) => caught);
    expect(await problemOf(Promise.reject(error))).toEqual({ status: 404, code: 'period_not_available' });
    expect(JSON.stringify((error as ProblemException).getResponse())).toContain(PERIOD.end);
    expect(results.inputReads).toBe(0);
  });

  it.each([StaffRole.Clinician, StaffRole.CareCoordinator, StaffRole.Reviewer, StaffRole.PrivacyOfficer])('refuses a %s (population.read is analysts only) before reading results', async (role) => {
    expect(await problemOf(sut.measures(contextOf(role), undefined))).toEqual({ status: 403, code: 'forbidden' });
    expect(results.inputReads).toBe(0);
  });

  it('refuses an analyst under the agent projection', async () => {
    expect(await problemOf(sut.measures({ ...analyst, projectionRole: 'agent' }, undefined))).toEqual({ status: 403, code: 'forbidden' });
  });

  it('computes one publication per results version and serves it whole, for the default and the explicit period alike', async () => {
    const first = await sut.measures(analyst, undefined);
    const second = await sut.measures(analyst, PERIOD.end);
    expect(second).toBe(first);
    expect(results.inputReads).toBe(1);
    expect(first.period).toEqual(PERIOD);
    expect(first.computedAt).toBe(VERSION_1.newestComputedAt);
    expect(first.resultsVersion).toMatch(/^run-7\.[0-9a-f]{16}$/);
    // The stored results change underneath but the version does not (it cannot: a write moves computed_at): still the same publication.
    results.open = 3;
    expect(await sut.measures(analyst, undefined)).toBe(first);
  });

  it('makes a new publication, with a new version, after a recompute', async () => {
    const first = await sut.measures(analyst, undefined);
    results.version = VERSION_2;
    results.open = 3;
    const second = await sut.measures(analyst, undefined);
    expect(second.resultsVersion).not.toBe(first.resultsVersion);
    expect(second.computedAt).toBe(VERSION_2.newestComputedAt);
    expect(results.inputReads).toBe(2);
    // 12 open: within 2 of 12; 3 open: a protected count, published as 0 or 11.
    const openCell = (publication: typeof first) => publication.tables.find((table) => table.id === 'CMS122/sex')!.cells[0][0];
    expect(Math.abs(openCell(first) - 12)).toBeLessThanOrEqual(2);
    expect([0, 11]).toContain(openCell(second));
  });

  it('checks a draw once per input: a recompute that changes no result is a new version with the same tables', async () => {
    const first = await sut.measures(analyst, undefined);
    results.version = VERSION_2;
    const second = await sut.measures(analyst, undefined);
    expect(second.resultsVersion).not.toBe(first.resultsVersion);
    expect(results.inputReads).toBe(2);
    // The same checked draw, not a second computation of it.
    expect(second.tables).toEqual(first.tables);
    expect(store.rows.map((row) => row.salt)).toEqual([store.rows[0].salt, store.rows[0].salt]);
  });

  it('stores every publication with what the next check needs, and checks the next draw with it', async () => {
    await sut.measures(analyst, undefined);
    results.version = VERSION_2;
    results.open = 3;
    await sut.measures(analyst, undefined);
    expect(store.rows).toHaveLength(2);
    const [first, second] = store.rows;
    expect(first.checkRecord.salt).toBe(first.salt);
    expect(Object.keys(first.checkRecord.shown).length).toBeGreaterThan(0);
    expect(second.checkRecord.microcells.find((cell) => cell.status === 'open-gap')?.count).toBe(3);
    expect(publisher.previous).toEqual([null, first.checkRecord]);
  });

  it('serves a version another process already published as it was stored, without drawing', async () => {
    await sut.measures(analyst, undefined);
    const stored = store.rows[0];
    const elsewhere = serviceOn(store, new RecordingPublisher());
    const served = await elsewhere.measures(analyst, undefined);
    expect(served.tables).toEqual(stored.counts.tables);
    expect(store.rows).toHaveLength(1);
  });

  it('draws again when another process published while this one checked its draw (the draw was never checked against that one)', async () => {
    await sut.measures(analyst, undefined);
    results.version = VERSION_2;
    results.open = 3;
    const other = { ...store.rows[0], id: 'other', resultsVersion: 'run-7.other', salt: 'other' };
    store.beforeStore = () => store.rows.push(other);
    const inputReadsBefore = results.inputReads;
    await sut.measures(analyst, undefined);
    expect(results.inputReads - inputReadsBefore).toBe(2);
    expect(store.rows.map((row) => row.id)).toEqual(['1', 'other', '3']);
  });

  it('shares one computation between concurrent first requests', async () => {
    const [a, b] = await Promise.all([sut.measures(analyst, undefined), sut.measures(analyst, undefined)]);
    expect(b).toBe(a);
    expect(results.inputReads).toBe(1);
  });

  it('keeps a few publications only', async () => {
    for (let minute = 0; minute < 6; minute += 1) {
      results.version = { ...VERSION_1, newestComputedAt: `2026-12-02T08:0${minute}:00.000Z` };
      await sut.measures(analyst, undefined);
    }
    results.version = { ...VERSION_1, newestComputedAt: '2026-12-02T08:00:00.000Z' };
    await sut.measures(analyst, undefined);
    expect(results.inputReads).toBe(7);
  });

  it('audits one row that names the tables and no patient', async () => {
    const publication = await sut.measures(analyst, undefined);
    expect(phi.rows).toEqual([{ patientId: null, fields: publication.tables.map((table) => table.id), rowCount: publication.tables.length }]);
    expect(phi.rows[0].fields).toContain('measures');
  });
});
