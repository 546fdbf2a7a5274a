import { HttpStatus, Logger } from '@nestjs/common';
import type { PatientChart } from '../cohort/chart.types';
import { Sex } from '../cohort/enum';
import type { CohortRepository, VersionedChart } from '../cohort/cohort.repository';
import type { AppConfig } from '../config/app-config';
import { MEASURE_IDS } from '../clinical/care-gaps';
import type { CareGapResult } from '../clinical/care-gaps';
import { ProblemException } from '../common/http/problem';
import type { ChosenEdition, EditionOutcome, PublishedCareGapsService } from '../measure-packages';
import { MeasureRecomputeService } from './measure-recompute.service';
import type { ChunkWrite, MeasureRunsRepository } from './measure-runs.repository';

const PERIOD = { start: '2026-01-01', end: '2026-12-31' };
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const EDITION_ID = '00000000-0000-4000-8000-0000000000e1';
const EDITION = { id: EDITION_ID, key: 'CMS139', version: '1.0.000', title: 'Falls screening', groups: [] } as unknown as ChosenEdition;

const chartOf = (id: string): VersionedChart => ({
  chart: {
    patient: { id, mrn: 'MRN-SECRET', givenName: 'Jane', familyName: 'Doe', birthDate: '1950-02-03', sex: Sex.Female, sexCode: null, race: [], ethnicity: [] },
    encounters: [], observations: [], conditions: [], medications: [], procedures: [], allergies: [], requests: [], adverseEvents: [],
  } as unknown as PatientChart,
  truncated: false,
  dataVersion: '1',
});

const gapOf = (id: string): CareGapResult<string> => ({
  measureId: 'CMS139', version: 'CMS139 (1.0.000)', title: 'Falls screening', period: PERIOD, status: 'open-gap',
  reason: { code: 'numerator:published-criteria', text: `no screening ${id}` }, evidence: [], toClose: 'A screening.', groups: [], dataQuality: [],
} as unknown as CareGapResult<string>);

const failure = () =>
  new ProblemException(HttpStatus.INTERNAL_SERVER_ERROR, 'measure_evaluation_failed', 'Measure evaluation failed', "CMS139 (1.0.000) could not be evaluated over this patient's record: its logic failed in FHIRHelpers, function ToQuantity.");

/** A chunk of patients A and B, both due, CMS139 loaded for the period; `outcome` says how CMS139 goes for each. */
function setUp(outcome: (chart: PatientChart) => EditionOutcome[] | Error) {
  const written: (ChunkWrite & { counts: unknown })[] = [];
  const runs = {
    chunk: jest.fn().mockResolvedValue({ finished: false, periodStart: PERIOD.start, periodEnd: PERIOD.end, listed: false, force: false, afterId: null, throughId: null }),
    chunkPatients: jest.fn().mockResolvedValue([{ id: A, current: 0 }, { id: B, current: 0 }]),
    writeChunk: jest.fn(async (_run: string, _chunk: number, write: ChunkWrite, counts: unknown) => {
      written.push({ ...write, counts });
      return 'written';
    }),
  };
  const cohort = { charts: jest.fn().mockResolvedValue(new Map([[A, chartOf(A)], [B, chartOf(B)]])) };
  const published = {
    evaluableFor: jest.fn().mockResolvedValue({ editions: [EDITION], left: [] }),
    evaluateEach: jest.fn(async (chart: PatientChart) => {
      const result = outcome(chart);
      if (result instanceof Error) throw result;
      return result;
    }),
  };
  const config = { clinic: { timeZone: 'UTC' } } as AppConfig;
  const sut = new MeasureRecomputeService(cohort as unknown as CohortRepository, runs as unknown as MeasureRunsRepository, published as unknown as PublishedCareGapsService, config);
  return { sut, written, runs, cohort };
}

describe(MeasureRecomputeService.name, () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('reads whole charts when a loaded measure is evaluated, and stores its row beside the six for each patient', async () => {
    const { sut, written, cohort } = setUp((chart) => [{ key: 'CMS139', result: gapOf(chart.patient.id) }]);
    expect(await sut.recomputeChunk('1', 0)).toEqual({ state: 'written', computed: 2, skipped: 0, failed: 0 });
    // No filters: a loaded measure's retrieves are its own.
    expect(cohort.charts).toHaveBeenCalledWith([A, B]);
    expect(written[0].rows.map((row) => `${row.patient_id === A ? 'A' : 'B'} ${row.measure_id}`)).toEqual([...MEASURE_IDS.map((id) => `A ${id}`), 'A CMS139', ...MEASURE_IDS.map((id) => `B ${id}`), 'B CMS139']);
    // Each loaded result names the edition it came from (a re-issued edition makes it due again); the built-in ones none.
    expect(written[0].rows.map((row) => row.measure_package_id)).toEqual([...MEASURE_IDS.map(() => null), EDITION_ID, ...MEASURE_IDS.map(() => null), EDITION_ID]);
    expect(written[0].failures).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('stores a failure instead of a result for a patient and measure whose logic failed, counts it and logs the measure, never the patient; the rest of the chunk is stored', async () => {
    const { sut, written } = setUp((chart) => (chart.patient.id === A ? [{ key: 'CMS139', failure: failure() }] : [{ key: 'CMS139', result: gapOf(chart.patient.id) }]));
    expect(await sut.recomputeChunk('1', 0)).toEqual({ state: 'written', computed: 2, skipped: 0, failed: 1 });
    const stored = written[0].rows.map((row) => `${row.patient_id === A ? 'A' : 'B'} ${row.measure_id}`);
    // A gets its six and a failure for CMS139 in place of its seventh row (current until its record or the edition changes); B has all seven.
    expect(stored).toEqual([...MEASURE_IDS.map((id) => `A ${id}`), ...MEASURE_IDS.map((id) => `B ${id}`), 'B CMS139']);
    expect(written[0].failures).toEqual([{
      patient_id: A, period_start: PERIOD.start, period_end: PERIOD.end, measure_id: 'CMS139', measure_package_id: EDITION_ID, data_version: '1',
      detail: failure().detail,
    }]);
    expect(warn).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify(warn.mock.calls[0]);
    expect(logged).toContain('CMS139 (1.0.000)');
    expect(logged).toContain('FHIRHelpers, function ToQuantity');
    for (const phi of [A, 'MRN-SECRET', 'Jane', 'Doe', '1950-02-03']) expect(logged).not.toContain(phi);
  });

  it('fails the chunk on any other error (a package that does not compile, the time zone, the database): BullMQ retries it, nothing written', async () => {
    const { sut, runs } = setUp(() => new Error('loaded measure package 7 has no main library'));
    await expect(sut.recomputeChunk('1', 0)).rejects.toThrow('no main library');
    expect(runs.writeChunk).not.toHaveBeenCalled();
  });
});
