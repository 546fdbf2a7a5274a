import { createHash } from 'node:crypto';
import { observation } from '../setup/clinical/chart-builder';
import { AuditPatient, AuditedPublication, PublicationChange, auditChange, auditPublication } from '../setup/population-audit';
import { CohortPatient, FIXTURE_PERIOD, cohortPatientOf, fixtureCohort } from '../setup/population-fixture';
import { MEASURE_IDS } from '../../src/clinical/care-gaps';
import { buildMicrocells } from '../../src/population/microcells';
import { publishPopulationCounts } from '../../src/population/population-counts';

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
 */

const TEAMS = ['primary-care-north', 'primary-care-south'];
const DOMAINS = { careTeams: TEAMS, measureIds: [...MEASURE_IDS] };
/** Stand-ins for the secret keys the database draws: fixed here so the test is repeatable. */
const recordKeyOf = (key: string) => createHash('sha256').update(`record key ${key}`).digest().readUIntBE(0, 6);

function publish(patients: readonly CohortPatient[]): AuditedPublication {
  const rows = patients.flatMap((p) =>
    MEASURE_IDS.map((measureId) => ({
      careTeams: p.careTeams, age: p.age, sex: p.sex, measureId, status: p.results[measureId].status as never, reasonCode: p.reasonCodes[measureId], recordKey: recordKeyOf(p.key),
    })),
  );
  return publishPopulationCounts(buildMicrocells(rows), DOMAINS) as unknown as AuditedPublication;
}

/**
 * What the replaced rule published for the fixture cohort: exact counts, 1 to 10 withheld, and (as
 * it chose) the total of CMS130, whose other cells were 11 and 11. Built here from the truth.
 */
function exactPublication(patients: readonly AuditPatient[], withhold: (table: string, label: string) => boolean): AuditedPublication {
  const published = publish(patients as CohortPatient[]);
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

  it('cell-key perturbation: one publication determines no count of 1 to 10 (nor any exact care-team set of 1 to 10)', async () => {
    expect(await auditPublication(publish(patients), patients)).toEqual([]);
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

  it.each(scenarios)('cell-key perturbation: two publications around %s determine none of the patient\'s teams, age band, sex or statuses, nor any small count', async (_, after, change) => {
    expect(await auditChange(publish(patients), publish(after), { before: patients, after }, change)).toEqual([]);
    expect(await auditPublication(publish(after), after)).toEqual([]);
  });
});
