import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CodeSystem } from '../../../../cohort/enum';
import { VS } from '../../../../terminology';
import { chart, observation } from '../../testing/chart-builder';
import { careGapObservationCodes, isDeclaredObservationCode, isDeclaredObservationValueSet } from './observation-retrieves';
import { MeasureContext, UndeclaredRetrieveError } from './retrieve';

const CARE_GAPS = join(__dirname, '..');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [join(dir, entry.name)] : [],
  );

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
    const readers = sources(CARE_GAPS)
      .filter((file) => /chart\.observations/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(CARE_GAPS, file));
    expect(readers).toEqual(['cql/retrieve.ts']);
  });
});
