import { ProblemException } from '../common/http/problem';
import { ElmEvaluationError } from '../clinical/elm';
import { evaluateOrExplain, practiceOffsetHours, zoneOffsetHours } from './published-care-gaps.service';

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
