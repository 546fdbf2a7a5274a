import { ProblemException } from '../common/http/problem';
import { ElmEvaluationError } from '../clinical/elm';
import type { MeasurePackagesRepository } from './measure-packages.repository';
import { evaluateOrExplain, practiceOffsetHours, PublishedCareGapsService, zoneOffsetHours } from './published-care-gaps.service';

/** A process whose zone is `timeZone` (the real process's zone cannot be changed from inside a test). */
const processIn = (timeZone: string) => (at: Date) => zoneOffsetHours(timeZone, at);

describe(practiceOffsetHours.name, () => {
  it('gives the practice’s offset at the end of the period, daylight saving included, when the process runs in its zone', () => {
    expect(practiceOffsetHours('America/New_York', { start: '2026-01-01', end: '2026-01-31' }, processIn('America/New_York'))).toBe(-5);
    expect(practiceOffsetHours('America/New_York', { start: '2026-01-01', end: '2026-07-31' }, processIn('America/New_York'))).toBe(-4);
    expect(practiceOffsetHours('Asia/Kolkata', { start: '2026-01-01', end: '2026-12-31' }, processIn('Asia/Kolkata'))).toBe(5.5);
    expect(practiceOffsetHours('UTC', { start: '2026-01-01', end: '2026-12-31' }, processIn('UTC'))).toBe(0);
  });

  it('refuses when the process runs at another offset: the CQL runtime would read dates a day off', () => {
    let refused: unknown;
    try {
      practiceOffsetHours('America/Chicago', { start: '2026-01-01', end: '2026-12-31' }, processIn('UTC'));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ProblemException);
    expect(refused).toMatchObject({ code: 'time_zone_mismatch', detail: expect.stringContaining('TZ=America/Chicago') });
    // The same zone at the same offset is not refused, whatever its name.
    expect(practiceOffsetHours('Etc/UTC', { start: '2026-01-01', end: '2026-12-31' }, processIn('UTC'))).toBe(0);
  });
});

describe(evaluateOrExplain.name, () => {
  const edition = { key: 'CMS69', version: '1.0.000', title: 'BMI screening', groups: [] };

  it('answers a problem naming the measure and the ELM statement when the logic fails on a record, never its values', () => {
    let refused: unknown;
    try {
      evaluateOrExplain(edition, () => {
        throw new ElmEvaluationError('Error in the reference semantics', { library: 'FHIRHelpers', statement: 'function ToQuantity' });
      });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ProblemException);
    expect(refused).toMatchObject({
      code: 'measure_evaluation_failed',
      detail: "CMS69 (1.0.000) could not be evaluated over this patient's record: its logic failed in FHIRHelpers, function ToQuantity. Other measures answer when asked for without it.",
    });
  });

  it('passes any other error on unchanged, and a result through', () => {
    const bug = new TypeError('a bug');
    expect(() => evaluateOrExplain(edition, () => { throw bug; })).toThrow(bug);
    expect(evaluateOrExplain(edition, () => 42)).toBe(42);
  });
});

describe(`${PublishedCareGapsService.name}.evaluableFor`, () => {
  const group = (scoring: string, basis: string) => ({ id: 'Group_1', scoring, basis, improvementNotation: 'increase', populations: [], stratifiers: [] });
  const edition = (key: string, version: string, period: [string, string], groups = [group('proportion', 'boolean')]) => ({
    id: `${key}-${version}`, key, url: `https://example.org/Measure/${key}`, version, edition: `e${version}`, periodStart: period[0], periodEnd: period[1], loadedAt: '2026-01-01T00:00:00.000Z', title: key, groups,
  });
  const sutWith = (editions: ReturnType<typeof edition>[]) => new PublishedCareGapsService({ allEditions: async () => editions } as unknown as MeasurePackagesRepository);

  it('gives, per loaded key, the edition the period picks, and each other key with why; built-in names are never read as loaded', async () => {
    const sut = sutWith([
      edition('CMS139', '2024', ['2025-01-01', '2025-12-31']),
      edition('CMS139', '2025', ['2026-01-01', '2026-12-31']),
      edition('CMS2', '2024', ['2025-01-01', '2025-12-31']),
      edition('CMS334', '2025', ['2026-01-01', '2026-12-31'], [group('proportion', 'Encounter')]),
      edition('CMS122', '2025', ['2026-01-01', '2026-12-31']),
    ]);
    const measures = await sut.evaluableFor({ start: '2026-01-01', end: '2026-12-31' });
    expect(measures.editions.map((chosen) => `${chosen.key} ${chosen.version}`)).toEqual(['CMS139 2025']);
    expect(measures.left).toEqual([{ key: 'CMS2', reason: 'no_edition_for_period' }, { key: 'CMS334', reason: 'not_a_care_gap_measure' }]);
    // A trailing year across two editions: the edition of the year it ends in.
    const trailing = await sut.evaluableFor({ start: '2025-07-01', end: '2026-06-30' });
    expect(trailing.editions.map((chosen) => `${chosen.key} ${chosen.version}`)).toEqual(['CMS139 2025']);
    // Ending after every edition's year: none.
    const late = await sut.evaluableFor({ start: '2026-01-02', end: '2027-01-01' });
    expect(late.editions).toEqual([]);
    expect(late.left.map((entry) => entry.reason)).toEqual(['no_edition_for_period', 'no_edition_for_period', 'no_edition_for_period']);
  });
});
