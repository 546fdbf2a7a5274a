import { COHORT_STATEMENTS, CohortStatementName } from '../src/cohort/cohort.statements';
import { EXPLAIN_PARAMETERS, ExplainContext, parameterCount } from './explain-parameters';

const context: ExplainContext = {
  username: 'dr.okafor',
  careTeamIds: ['00000000-0000-0000-0000-000000000001'],
  patientId: '00000000-0000-0000-0000-000000000002',
  encounterIds: ['00000000-0000-0000-0000-000000000003'],
  observationIds: ['00000000-0000-0000-0000-000000000004'],
  now: new Date('2026-06-30T00:00:00Z'),
};

/** `npm run bench` explains every cohort statement: none may be added without EXPLAIN parameters. */
describe('EXPLAIN_PARAMETERS', () => {
  const names = Object.keys(COHORT_STATEMENTS) as CohortStatementName[];

  it('covers every cohort statement and nothing else', () => {
    expect(Object.keys(EXPLAIN_PARAMETERS).sort()).toEqual([...names].sort());
  });

  it.each(names)('binds as many parameters as %s has', (name) => {
    expect(EXPLAIN_PARAMETERS[name](context)).toHaveLength(parameterCount(COHORT_STATEMENTS[name]));
  });
});
