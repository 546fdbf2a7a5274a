import { createHash } from 'node:crypto';
import { observation } from '../setup/clinical/chart-builder';
import { AuditPatient, AuditedPublication, PublicationChange, auditChange, auditPublication } from '../setup/population-audit';
import { CohortPatient, FIXTURE_PERIOD, cohortPatientOf, fixtureCohort } from '../setup/population-fixture';
import { MEASURE_IDS } from '../../src/clinical/care-gaps';
import { buildMicrocells } from '../../src/population/microcells';
import { drawPopulationCounts, publishPopulationCounts } from '../../src/population/population-counts';

jest.setTimeout(300_000);

/**
 * The population rule against an analyst who solves for it (the independent auditor, an integer
 * program over every table of a publication, and over two consecutive ones). No database: the
 * fixture cohort's results come from the pure care-gap engine (the e2e test audits the live route).
 * Slow (hundreds of integer programs), so it runs in this tier rather than the unit tier.
 *
 * Each case is run twice: on the publisher, and on the exact publication the rule it replaced made
 * (every count shown, each of 1 to 10 withheld, and the complements it chose), which the auditor
 * must break, so a passing audit is not an auditor that cannot find anything.
 *
 * The record keys are random, as the database draws them, and the publisher is run on many draws of
 * them: about one unchecked draw in fifteen lets the auditor pin a count, so one set of keys proves
 * little. The draws are seeded so that a failure can be run again.
 */

const TEAMS = ['primary-care-north', 'primary-care-south'];
const DOMAINS = { careTeams: TEAMS, measureIds: [...MEASURE_IDS] };
/**
 * Key draws: each gives every patient a random 48-bit record key of its own. Each audit costs seconds
 * of integer programs, so the fixture cohort (where the check rarely has to redraw) gets a few, and the
 * near-threshold cohort below the first 17, among them 6, 15 and 16, whose first draws pin a count.
 */
const KEY_DRAWS = Array.from({ length: 6 }, (_, seed) => seed);
const NEAR_THRESHOLD_KEY_DRAWS = Array.from({ length: 17 }, (_, seed) => seed);
/** The key draws the two-publication audits (slower: binaries over two publications) run on. */
const CHANGE_KEY_DRAWS = [0, 2];
const recordKeyOf = (seed: number, key: string) => createHash('sha256').update(`key draw ${seed}: ${key}`).digest().readUIntBE(0, 6);

const microcellsOf = (patients: readonly CohortPatient[], seed: number) =>
  buildMicrocells(patients.flatMap((p) =>
    MEASURE_IDS.map((measureId) => ({
      careTeams: p.careTeams, age: p.age, sex: p.sex, measureId, status: p.results[measureId].status as never, reasonCode: p.reasonCodes[measureId], recordKey: recordKeyOf(seed, p.key),
    })),
  ));

/** What the route publishes: the checked draw. */
const publish = async (patients: readonly CohortPatient[], seed: number) =>
  (await publishPopulationCounts(microcellsOf(patients, seed), DOMAINS)) as unknown as AuditedPublication;
/** The first draw, unchecked: what the route published before it checked its draws. */
const firstDraw = (patients: readonly CohortPatient[], seed: number) => drawPopulationCounts(microcellsOf(patients, seed), DOMAINS) as unknown as AuditedPublication;

/**
 * What the replaced rule published for the fixture cohort: exact counts, 1 to 10 withheld, and (as
 * it chose) the total of CMS130, whose other cells were 11 and 11. Built here from the truth.
 */
function exactPublication(patients: readonly AuditPatient[], withhold: (table: string, label: string) => boolean): AuditedPublication {
  const published = firstDraw(patients as CohortPatient[], 0);
  const count = (measureId: string, fixed: Record<string, string>) =>
    patients.filter((p) => Object.entries(fixed).every(([field, value]) =>
      field === 'careTeam' ? p.careTeams.includes(value) : field === 'status' || field === 'reasonClass' ? p.results[measureId][field] === value : (p as unknown as Record<string, string>)[field] === value,
    )).length;
  const shown = (table: string, label: string, n: number) => (n >= 1 && n <= 10) || withhold(table, label) ? { suppressed: true } : { count: n };
  return {
    policy: { method: 'exact-with-suppression' },
    tables: published.tables.map((t) => {
      const at = (row: string | null, column: string | null) => {
        const measureId = t.measureId ?? (row as string);
        const fixed: Record<string, string> = {};
        if (row !== null && t.rowDimension !== 'measure') fixed[t.rowDimension] = row;
        if (column !== null) fixed[t.columnDimension] = column;
        return shown(t.id, `${row ?? 'total'}, ${column ?? 'total'}`, count(measureId, fixed));
      };
      return {
        ...t,
        cells: t.rows.map((row) => t.columns.map((column) => at(row, column))),
        rowTotals: t.rows.map((row) => at(row, null)),
        columnTotals: t.columnTotals && t.columns.map((column) => at(null, column)),
        grandTotal: t.grandTotal === null ? null : at(null, null),
      };
    }),
  };
}
const replacedRule = (patients: readonly AuditPatient[]) => exactPublication(patients, (table, label) => table === 'measures' && label === 'CMS130, total');

describe('population counts against an analyst with an integer solver', () => {
  const { patients, charts } = fixtureCohort();

  it('the fixture cohort has every linking the model assumes: one result per measure for every patient', () => {
    for (const p of patients) expect(Object.keys(p.results).sort()).toEqual([...MEASURE_IDS].sort());
  });

  it('the replaced rule: one publication determines CMS130 open-gap = 8 and CMS125 female not-applicable = 6', async () => {
    const findings = await auditPublication(replacedRule(patients), patients);
    expect(findings).toEqual(expect.arrayContaining([
      { kind: 'determined', where: 'measures [CMS130, open-gap]', value: 8 },
      { kind: 'determined', where: 'CMS125/sex [female, not-applicable]', value: 6 },
    ]));
  });

  // Which key draws the publisher redrew: the first draw of each of them must be one the auditor breaks.
  const redrawn: number[] = [];
  it.each(KEY_DRAWS)('cell-key perturbation, key draw %i: one publication determines no count of 1 to 10 (nor any exact care-team set of 1 to 10)', async (seed) => {
    const published = await publish(patients, seed);
    expect(published.tables.length).toBeGreaterThan(0);
    expect(await auditPublication(published, patients)).toEqual([]);
    const first = firstDraw(patients, seed);
    if (JSON.stringify(first.tables) !== JSON.stringify(published.tables)) {
      redrawn.push(seed);
      // The publisher's check and the auditor agree: the draw it rejected does pin a count.
      expect(await auditPublication(first, patients)).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'determined' })]));
    }
  });

  it('the check rejected only first draws the auditor breaks (seeds redrawn on the fixture cohort are rare)', () => {
    expect(redrawn.length).toBeLessThan(KEY_DRAWS.length);
  });

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
    const findings = await auditChange(replacedRule(patients), replacedRule(after), { before: patients, after }, change);
    expect(findings.map((f) => f.where)).toEqual(expect.arrayContaining([expect.stringMatching(/^the changed patient's (care team|ageBand|sex)/)]));
  });

  it.each(scenarios.flatMap(([name, after, change]) => CHANGE_KEY_DRAWS.map((seed) => [name, seed, after, change] as const)))(
    'cell-key perturbation: two publications around %s (key draw %i) determine none of the patient\'s teams, age band, sex or statuses, nor any small count',
    async (_, seed, after, change) => {
      const [before, next] = [await publish(patients, seed), await publish(after, seed)];
      expect(await auditChange(before, next, { before: patients, after }, change)).toEqual([]);
      expect(await auditPublication(next, after)).toEqual([]);
    },
  );

  // KNOWN DISCLOSURE, not yet fixed: the publisher checks each publication on its own, so under key
  // draw 1 the two publications around the import, taken together, give away the added patient's sex
  // and CMS165 status. `it.failing` keeps it visible: when a check across consecutive publications
  // lands, this starts to pass, Jest reports it, and it becomes an ordinary `it`.
  it.failing('KNOWN DISCLOSURE: two publications around a patient added by an import (key draw 1) determine nothing of the patient', async () => {
    const [, after, change] = scenarios[0];
    const [before, next] = [await publish(patients, 1), await publish(after, 1)];
    expect(await auditChange(before, next, { before: patients, after }, change)).toEqual([]);
  });
});

/**
 * A cohort near the thresholds, where unchecked draws often pin a count: 20 strata (ten age bands ×
 * two sexes, one team) of 14 patients each, three measures, and in every stratum a different patient
 * open for each measure (so each sex's open count is 10). About one first draw in ten lets the
 * auditor pin one, so it shows that the check is what makes the audits pass.
 */
describe('population counts near the thresholds, against the same auditor', () => {
  const measureIds = ['CMS122', 'CMS125', 'CMS130'];
  const domains = { careTeams: ['north'], measureIds };
  const patients = ['female', 'male'].flatMap((sex) =>
    Array.from({ length: 10 }, (_, band) => Array.from({ length: 14 }, (_, i) => ({ key: `${sex}-${band}-${i}`, age: band * 10 + 5, sex, openFor: measureIds[i] }))).flat(),
  );
  const audited: AuditPatient[] = patients.map((p) => ({
    careTeams: ['north'], ageBand: `${p.age - 5}-${p.age + 4}`.replace('90-99', '90+'), sex: p.sex,
    results: Object.fromEntries(measureIds.map((m) => [m, m === p.openFor ? { status: 'open-gap', reasonClass: 'not-numerator' } : { status: 'closed-gap', reasonClass: 'numerator' }])),
  }));
  const microcellsOfDraw = (seed: number) =>
    buildMicrocells(patients.flatMap((p) => measureIds.map((measureId) => ({
      careTeams: ['north'], age: p.age, sex: p.sex, measureId, status: (measureId === p.openFor ? 'open-gap' : 'closed-gap') as never,
      reasonCode: measureId === p.openFor ? 'not-numerator:x' : 'numerator:x', recordKey: recordKeyOf(seed, p.key),
    }))));
  const brokenFirstDraws: number[] = [];

  it.each(NEAR_THRESHOLD_KEY_DRAWS)('key draw %i: the published draw determines nothing; a first draw the publisher rejected, the auditor breaks', async (seed) => {
    const published = (await publishPopulationCounts(microcellsOfDraw(seed), domains)) as unknown as AuditedPublication;
    expect(published.tables.length).toBeGreaterThan(0);
    expect(await auditPublication(published, audited)).toEqual([]);
    const first = drawPopulationCounts(microcellsOfDraw(seed), domains) as unknown as AuditedPublication;
    if (JSON.stringify(first.tables) !== JSON.stringify(published.tables)) {
      expect(await auditPublication(first, audited)).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'determined' })]));
      brokenFirstDraws.push(seed);
    }
  });

  it('the key draws are not all lucky: the first draws of some pinned a count, and only the check kept them out', () => {
    expect(brokenFirstDraws.length).toBeGreaterThan(0);
  });
});

