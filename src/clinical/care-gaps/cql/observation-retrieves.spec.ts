import fc from 'fast-check';
import { join } from 'node:path';
import { CodeSystem } from '../../../cohort/enum';
import { VS } from '../../../terminology';
import { sourcesMatching } from '../../../../test/setup/clinical/source-readers';
import { chart, observation } from '../../../../test/setup/clinical/chart-builder';
import { dayOfIn } from '../../shared/clinical-day';
import { careGapObservationCodes, careGapObservationFilter, isDeclaredObservationCode, isDeclaredObservationValueSet, isOutsideDeclaredWindow } from './observation-retrieves';
import { MeasureContext, UndeclaredRetrieveError } from './retrieve';

const CARE_GAPS = join(__dirname, '..');

describe('observation retrieves of the measures: declared, so the recompute can read only those', () => {
  const ctx = () => new MeasureContext(chart({ observations: [observation('8480-6', 120, '2026-03-01'), observation('8867-4', 70, '2026-03-01')] }), { start: '2025-07-01', end: '2026-06-30' }, (iso) => iso.slice(0, 10));

  it('refuses a retrieve of a value set or a code that is not declared', () => {
    expect(() => ctx().observations(VS['Essential Hypertension'])).toThrow(UndeclaredRetrieveError);
    expect(() => ctx().observationsCoded(CodeSystem.Loinc, '8867-4')).toThrow(UndeclaredRetrieveError);
    expect(() => ctx().observationsCoded(CodeSystem.Loinc, '8480-6', '8867-4')).toThrow(UndeclaredRetrieveError);
  });

  it('answers declared retrieves from the chart, in chart order', () => {
    expect(ctx().observationsCoded(CodeSystem.Loinc, '8480-6', '8462-4').map((row) => row.code)).toEqual(['8480-6']);
    expect(ctx().observations(VS['HbA1c Laboratory Test'])).toEqual([]);
  });

  it('reads every declared code: each declared value set and direct code is in the read filter', () => {
    const codes = new Set(careGapObservationCodes());
    for (const code of ['8480-6', '8462-4', '4548-4', '97506-0']) expect(codes.has(code)).toBe(true);
    expect(isDeclaredObservationValueSet(VS['HbA1c Laboratory Test'])).toBe(true);
    expect(isDeclaredObservationCode(CodeSystem.Loinc, '8480-6')).toBe(true);
    // Heart rate is read by no measure: the recompute does not read it.
    expect(codes.has('8867-4')).toBe(false);
  });

  it('no measure reads the chart\'s observations except through the declared retrieves', () => {
    expect(sourcesMatching(CARE_GAPS, /chart\.observations/)).toEqual(['cql/retrieve.ts']);
  });

  describe('blood pressures: only readings whose latest day is in the period, live and stored alike', () => {
    const period = { start: '2025-07-01', end: '2026-06-30' };
    const utc = dayOfIn('UTC');
    const reading = (at: string, end: string | null = null) => observation('8480-6', 120, at, { effectiveAt: at, effectiveEndAt: end });

    it('passes over a reading that ended before the period, keeps one that ends in it or later', () => {
      expect(isOutsideDeclaredWindow(reading('2025-06-30T23:59:59Z'), period, utc)).toBe(true);
      expect(isOutsideDeclaredWindow(reading('2025-07-01T00:00:00Z'), period, utc)).toBe(false);
      // A period that starts before and ends in the measurement period: its latest() is its end.
      expect(isOutsideDeclaredWindow(reading('2025-06-01T10:00:00Z', '2025-07-01T09:00:00Z'), period, utc)).toBe(false);
      expect(isOutsideDeclaredWindow(reading('2025-06-01T10:00:00Z', '2025-06-30T09:00:00Z'), period, utc)).toBe(true);
      // After the period: kept here, judged (and refused) by the measure itself.
      expect(isOutsideDeclaredWindow(reading('2026-07-01T00:00:00Z'), period, utc)).toBe(false);
      // Other codes are never windowed: an LDL from years ago still counts for CMS347.
      expect(isOutsideDeclaredWindow(observation('13457-7', 200, '2015-01-01'), period, utc)).toBe(false);
    });

    it('MeasureContext applies the window to the blood-pressure retrieve on the whole (live) chart', () => {
      const old = reading('2025-06-30T12:00:00Z');
      const recent = reading('2025-07-02T12:00:00Z');
      const context = new MeasureContext(chart({ observations: [recent, old] }), period, utc);
      expect(context.observationsCoded(CodeSystem.Loinc, '8480-6', '8462-4')).toEqual([recent]);
    });

    it('the recompute\'s read is a superset of what the window keeps, in every time zone (property)', () => {
      const filter = careGapObservationFilter(period);
      expect(filter.since.codes).toEqual(['8480-6', '8462-4']);
      const zones = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Etc/GMT+12', 'Asia/Kathmandu', 'America/St_Johns', 'Australia/Lord_Howe'];
      const instants = fc.date({ min: new Date('2025-06-25T00:00:00Z'), max: new Date('2025-07-05T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z'));
      fc.assert(
        fc.property(fc.constantFrom(...zones), instants, fc.option(instants, { nil: null }), (zone, start, end) => {
          const row = reading(start, end);
          const kept = !isOutsideDeclaredWindow(row, period, dayOfIn(zone));
          // The SQL's predicate: coalesce(effective_end_at, effective_at) >= since.
          const read = Date.parse(row.effectiveEndAt ?? row.effectiveAt) >= Date.parse(filter.since.instant);
          return !kept || read;
        }),
        { numRuns: 2000 },
      );
    });

    it('no declared value set holds a windowed code (the read windows by code, whatever the system)', () => {
      expect(() => careGapObservationCodes()).not.toThrow();
      const codes = careGapObservationCodes();
      expect(codes).toEqual(expect.arrayContaining(['8480-6', '8462-4']));
    });
  });
});
