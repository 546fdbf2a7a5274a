import { CodeSystem, EncounterClass, MedicationStatus } from '../cohort/enum';
import { chart, condition, encounter, medication, observation, procedure } from '../../test/setup/clinical/chart-builder';
import { evidenceDays, latestDay } from './evidence-days';

describe('evidence days: when the rows a stored result cites happened', () => {
  const visit = encounter(EncounterClass.Ambulatory, '2026-02-03T10:00:00Z');
  const a1c = observation('4548-4', 7.1, '2026-03-04T09:00:00Z');
  const uncitedA1c = observation('4548-4', 6.9, '2026-05-06T09:00:00Z');
  const diabetes = condition(CodeSystem.SnomedCt, '44054006', '2019-01-01', { recordedAt: '2019-01-02T08:00:00Z' });
  const statin = medication('617318', MedicationStatus.Active, '2025-01-01', null, { authoredAt: null });
  const colonoscopy = procedure(CodeSystem.SnomedCt, '73761001', '2021-07-08T08:00:00Z');
  const record = chart({ encounters: [visit], observations: [uncitedA1c, a1c], conditions: [diabetes], medications: [statin], procedures: [colonoscopy] });

  it('dates each cited row by its own instant, and no row nobody cites', () => {
    const cited = [`enc:${visit.id}`, `obs:${a1c.id}`, `cond:${diabetes.id}`, `proc:${colonoscopy.id}`];
    expect(Object.fromEntries(evidenceDays(record, cited))).toEqual({
      [`enc:${visit.id}`]: '2026-02-03',
      [`obs:${a1c.id}`]: '2026-03-04',
      [`cond:${diabetes.id}`]: '2019-01-02',
      [`proc:${colonoscopy.id}`]: '2021-07-08',
    });
  });

  it('leaves out a cited row without a date, and a citation of a row the chart does not hold', () => {
    expect(evidenceDays(record, [`med:${statin.id}`, `obs:${visit.id}`, 'med:unknown']).size).toBe(0);
  });

  it('gives a result the latest day among its citations, null when none is dated', () => {
    const days = evidenceDays(record, [`enc:${visit.id}`, `obs:${a1c.id}`, `med:${statin.id}`]);
    expect(latestDay(days, [`enc:${visit.id}`, `obs:${a1c.id}`, `med:${statin.id}`])).toBe('2026-03-04');
    expect(latestDay(days, [`med:${statin.id}`])).toBeNull();
    expect(latestDay(days, [])).toBeNull();
  });
});
