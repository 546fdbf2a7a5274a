import { ProblemException } from '../../common/http/problem';
import { CareGapsQueryDto } from '../dto/care-gaps-query.dto';
import { measurementPeriod } from './care-gap-lookup.tool';

const problemsOf = (query: CareGapsQueryDto) => {
  try {
    measurementPeriod(query);
    return [];
  } catch (error) {
    if (!(error instanceof ProblemException)) throw error;
    return (error.errors ?? []).map((problem) => `${problem.field}:${problem.reason}`);
  }
};

describe(measurementPeriod.name, () => {
  // asOf × periodStart × periodEnd: a combination that would leave one of them unused is refused, naming it.
  it.each<[string, CareGapsQueryDto, string[]]>([
    ['asOf alone', { asOf: '2026-06-30' }, []],
    ['a period alone', { periodStart: '2025-01-01', periodEnd: '2025-12-31' }, []],
    ['nothing (today)', {}, []],
    ['asOf with a period', { asOf: '2026-06-30', periodStart: '2025-01-01', periodEnd: '2025-12-31' }, ['asOf:conflictsWithPeriod']],
    ['asOf with periodStart only', { asOf: '2026-06-30', periodStart: '2025-01-01' }, ['asOf:conflictsWithPeriod', 'periodEnd:required']],
    ['asOf with periodEnd only', { asOf: '2026-06-30', periodEnd: '2025-12-31' }, ['asOf:conflictsWithPeriod', 'periodStart:required']],
  ])('%s', (_name, query, problems) => {
    expect(problemsOf(query)).toEqual(problems);
  });

  it('evaluates a period given alone over exactly that period', () => {
    expect(measurementPeriod({ periodStart: '2025-01-01', periodEnd: '2025-12-31' }).period).toEqual({ start: '2025-01-01', end: '2025-12-31' });
  });
});
