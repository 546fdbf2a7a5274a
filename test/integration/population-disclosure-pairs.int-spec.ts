import { observation } from '../setup/clinical/chart-builder';
import { PublicationChange, auditChange, auditPublication } from '../setup/population-audit';
import { CohortPatient, FIXTURE_PERIOD, cohortPatientOf, fixtureCohort } from '../setup/population-fixture';
import { CHANGE_KEY_DRAWS, prefetch, publish, publishTwice, replacedRule } from '../setup/population-disclosure-cases';

// One key draw publishes up to three times, each checked with the one before: 10 to 30 s of integer
// programs per checked draw on a quiet two-core machine, several times that on a loaded one (the limit
// guards against a hang, not a slow solver).
jest.setTimeout(900_000);

/**
 * The population rule across two consecutive publications, against the independent auditor (an
 * integer program over every table of both, told what kind of change came between them): around a
 * patient added by an import and around one patient's CMS122 turning from open to closed. The
 * second publication is checked with the first, as the route does (docs/population-counts.md, "The
 * check"). Apart from the one-publication audits so that the two files run side by side.
 */
describe('two consecutive population publications against an analyst with an integer solver', () => {
  const { patients, charts } = fixtureCohort();

  // The two changes between consecutive publications: a patient added by an import (another chart
  // like a fixture patient's, on the other team), and one later HbA1c turning CMS122 from open to closed.
  const added = cohortPatientOf('imported', charts.get('diabetes-a1c-8-1')!, ['primary-care-south']);
  const openIndex = patients.findIndex((p) => p.results.CMS122.status === 'open-gap');
  const closedChart = (() => {
    const chart = charts.get(patients[openIndex].key)!;
    const hba1c = observation('4548-4', 6.8, `${FIXTURE_PERIOD.end}T09:00:00Z`, { unit: '%' });
    return { ...chart, observations: [...chart.observations, hba1c] };
  })();
  const changed = cohortPatientOf(patients[openIndex].key, closedChart, patients[openIndex].careTeams);
  const scenarios: [string, CohortPatient[], PublicationChange][] = [
    ['a patient added by an import', [...patients, added], { kind: 'patient-added' }],
    ['one patient\'s CMS122 turning from open to closed', patients.map((p, i) => (i === openIndex ? changed : p)), { kind: 'status-changed', measureId: 'CMS122', from: 'open-gap', to: 'closed-gap' }],
  ];

  it('the scenarios are what they say', () => {
    expect(changed.results.CMS122.status).toBe('closed-gap');
    expect(Object.entries(changed.results).filter(([m, r]) => r.status !== patients[openIndex].results[m].status).map(([m]) => m)).toEqual(['CMS122']);
  });

  it.each(scenarios)('the replaced rule: two publications around %s give the patient away', async (_, after, change) => {
    prefetch(publishTwice(patients, pairCases[0][2], pairCases[0][1]));
    const findings = await auditChange(replacedRule(patients), replacedRule(after), { before: patients, after }, change);
    expect(findings.map((f) => f.where)).toEqual(expect.arrayContaining([expect.stringMatching(/^the changed patient's (care team|ageBand|sex)/)]));
  });

  const pairCases = scenarios.flatMap(([name, after, change]) => CHANGE_KEY_DRAWS[change.kind].map((seed) => [name, seed, after, change] as const));
  // Each case starts the next one's publications before its auditor runs (and the last, the import
  // under key draw 1 checked alone, for the test after them): the publisher solves on its own thread.
  const startNext = (index: number) => {
    const next = pairCases[index + 1];
    prefetch(next ? publishTwice(patients, next[2], next[1]) : publish(scenarios[0][1], 1));
  };
  it.each(pairCases.map((c, index) => [...c, index] as const))(
    'cell-key perturbation: two publications around %s (key draw %i) determine none of the patient\'s teams, age band, sex or statuses, nor any small count',
    async (_, seed, after, change, index) => {
      const [before, next] = await publishTwice(patients, after, seed);
      startNext(index);
      expect(await auditChange(before, next, { before: patients, after }, change)).toEqual([]);
      expect(await auditPublication(next, after)).toEqual([]);
    },
  );

  // Key draw 1 around the import is the case the check across publications exists for: each
  // publication checked on its own passes, yet together they give the added patient away.
  it('the key draw where only the check across publications protects the patient: checked one at a time, its two publications give the import away', async () => {
    const [, after, change] = scenarios[0];
    const [before, next] = [await publish(patients, 1), await publish(after, 1)];
    expect(await auditChange(before, next, { before: patients, after }, change)).not.toEqual([]);
  });
});
