import { CohortRead } from '../../cohort/cohort.repository';
import { buildFixtureCharts, FIXTURE_ANCHOR, FIXTURE_KEYS } from '../../../test/setup/fixture-charts';
import { MissingDataCheckTool } from './missing-data-check.tool';
import { openGate } from '../../../test/setup/open-gate';

const charts = buildFixtureCharts();
const YEAR_BEFORE = '2025-06-30';

/** The clause of the answer's `window.semantics` that names an element (`a, b, c: what present means`). */
function clauseFor(semantics: string, element: string): string | undefined {
  return semantics.split('. ').find((clause) => clause.includes(': ') && clause.slice(0, clause.indexOf(': ')).split(', ').includes(element));
}

describe(MissingDataCheckTool.name, () => {
  const sut = new MissingDataCheckTool();
  const readOf = (key: string) => ({ gatedMissingDataChart: async () => ({ chart: charts.get(key)!, truncated: false }) }) as unknown as CohortRead;

  it.each(FIXTURE_KEYS.map((key) => [key]))('%s: what the answer says "present" means is true of every row it reports present', async (key) => {
    const output = await sut.execute(readOf(key), openGate(charts.get(key)!.patient.id), { asOf: FIXTURE_ANCHOR });
    const { semantics } = output.window;
    const untrue = output.rows.flatMap((row) => {
      const clause = clauseFor(semantics, row.element as string);
      if (!clause) return [`${row.element}: not stated`];
      if (row.status !== 'present' || !clause.includes('in the 12 months')) return [];
      return (row.lastSeen as string) > YEAR_BEFORE ? [] : [`${row.element}: present, last seen ${row.lastSeen}, stated as within 12 months`];
    });
    expect(untrue).toEqual([]);
  });

  it('says, for ckd3b-stale-egfr, that the latex allergy of 25 years ago is present whatever its date, and the eGFR of 15 months ago is stale', async () => {
    const output = await sut.execute(readOf('ckd3b-stale-egfr'), openGate(charts.get('ckd3b-stale-egfr')!.patient.id), { asOf: FIXTURE_ANCHOR });
    const row = (element: string) => output.rows.find((item) => item.element === element)!;
    expect([row('allergies').status, row('allergies').lastSeen, row('egfr').status]).toEqual(['present', '2001-06-30', 'stale']);
    expect(clauseFor(output.window.semantics, 'allergies')).toMatch(/whatever its date/);
    expect(clauseFor(output.window.semantics, 'egfr')).toMatch(/in the 12 months ending on that day, stale when only earlier/);
  });
});
