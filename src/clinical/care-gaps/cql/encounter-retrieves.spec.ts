import fc from 'fast-check';
import { join } from 'node:path';
import { EncounterClass } from '../../../cohort/enum';
import { codesInSystem, valueSetInfo, VS } from '../../../terminology';
import { sourcesMatching } from '../../../../test/setup/clinical/source-readers';
import { chart, encounter } from '../../../../test/setup/clinical/chart-builder';
import { dayOfIn } from '../../shared/clinical-day';
import { allTimeEncounterCodes, careGapEncounterFilter, isOutsideEncounterWindow } from './encounter-retrieves';
import { MeasureContext } from './retrieve';

const CARE_GAPS = join(__dirname, '..');

/** The first code of a value set, with its system. */
const codeOf = (oid: string) => {
  const [system] = valueSetInfo(oid).codeSystems;
  return { typeSystem: system, typeCode: codesInSystem(oid, system)[0].code };
};

describe('encounter retrieves of the measures: only encounters the period can reach, live and stored alike', () => {
  const period = { start: '2025-07-01', end: '2026-06-30' };
  const utc = dayOfIn('UTC');
  const office = codeOf(VS['Office Visit']);
  const esrd = codeOf(VS['ESRD Monthly Outpatient Services']);
  const ended = (start: string, end: string | null, type = office) => encounter(EncounterClass.Ambulatory, start, end, type);

  it('passes over an encounter that ended before the period, keeps one that ends in it, later, or never', () => {
    expect(isOutsideEncounterWindow(ended('2025-06-01T10:00:00Z', '2025-06-30T23:59:59Z'), period, utc)).toBe(true);
    expect(isOutsideEncounterWindow(ended('2025-06-01T10:00:00Z', '2025-07-01T00:00:00Z'), period, utc)).toBe(false);
    expect(isOutsideEncounterWindow(ended('2026-07-02T10:00:00Z', '2026-07-02T11:00:00Z'), period, utc)).toBe(false);
    // Open: `[start, null]` overlaps the period whenever it started.
    expect(isOutsideEncounterWindow(ended('2015-01-01T10:00:00Z', null), period, utc)).toBe(false);
  });

  it('never windows ESRD monthly outpatient services: CMS165 excludes them however old', () => {
    expect(allTimeEncounterCodes().has(esrd.typeCode)).toBe(true);
    expect(isOutsideEncounterWindow(ended('2015-01-01T10:00:00Z', '2015-01-01T11:00:00Z', esrd), period, utc)).toBe(false);
  });

  it('judges the end by the clinic\'s day: 20:00 UTC on the day before is the period\'s first day east of UTC', () => {
    const row = ended('2025-06-30T19:00:00Z', '2025-06-30T20:00:00Z');
    expect(isOutsideEncounterWindow(row, period, utc)).toBe(true);
    expect(isOutsideEncounterWindow(row, period, dayOfIn('Asia/Kathmandu'))).toBe(false);
  });

  it('MeasureContext applies the window to every encounter retrieve and to the lookup by id, on the whole (live) chart', () => {
    const old = ended('2024-03-01T10:00:00Z', '2024-03-01T11:00:00Z');
    const recent = ended('2025-09-01T10:00:00Z', '2025-09-01T11:00:00Z');
    const oldEsrd = ended('2016-03-01T10:00:00Z', '2016-03-01T11:00:00Z', esrd);
    const context = new MeasureContext(chart({ encounters: [recent, old, oldEsrd] }), period, utc);
    expect(context.encounters(VS['Office Visit'])).toEqual([recent]);
    expect(context.encounters(VS['ESRD Monthly Outpatient Services'])).toEqual([oldEsrd]);
    expect(context.encounterById(old.id)).toBeUndefined();
    expect(context.encounterById(recent.id)).toBe(recent);
  });

  it('no measure reads the chart\'s encounters except through MeasureContext', () => {
    expect(sourcesMatching(CARE_GAPS, /chart\.encounters/)).toEqual(['cql/retrieve.ts']);
  });

  it('the recompute\'s read is a superset of what the window keeps, in every time zone (property)', () => {
    const filter = careGapEncounterFilter(period);
    const allTime = new Set(filter.allTimeCodes);
    const zones = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Etc/GMT+12', 'Asia/Kathmandu', 'America/St_Johns', 'Australia/Lord_Howe'];
    const instants = fc.date({ min: new Date('2025-06-25T00:00:00Z'), max: new Date('2025-07-05T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z'));
    fc.assert(
      fc.property(fc.constantFrom(...zones), instants, fc.option(instants, { nil: null }), fc.constantFrom(office, esrd), (zone, start, end, type) => {
        const row = ended(start, end !== null && end < start ? start : end, type);
        const kept = !isOutsideEncounterWindow(row, period, dayOfIn(zone));
        // The SQL's predicate: end_at IS NULL OR end_at >= endedSince OR type_code = ANY(allTimeCodes).
        const read = row.endAt === null || Date.parse(row.endAt) >= Date.parse(filter.endedSince) || allTime.has(row.typeCode ?? '');
        return !kept || read;
      }),
      { numRuns: 2000 },
    );
  });
});
