import fc from 'fast-check';
import { buildMicrocells, GAP_STATUSES, PatientMeasureRow } from './microcells';
import { drawPopulationCounts } from './population-counts';

/**
 * Property: for random cohorts, every published number is a value the ptable allows for the true
 * count this test recounts from the patients itself (0 for 0; 0 or 11 for 1 to 10; within 2, and
 * at least 11, above), so no count of 1 to 10 is ever published as itself; and numbers over the
 * same patients are published alike. Whether any small count can be solved for from all the tables
 * together is the integer auditor's question (test/integration/population-disclosure.int-spec.ts).
 */
const TEAMS = ['east', 'north', 'south'];
const MEASURES = ['CMS122', 'CMS125'];
const REASONS = {
  'open-gap': ['not-numerator:no-mammogram', 'not-numerator:a1c-above-9'],
  'closed-gap': ['numerator:mammogram'],
  'not-applicable': ['initial-population:age', 'denominator-exclusion:hospice', 'denominator-exception:statin-allergy'],
} as const;

const result = fc.constantFrom(...GAP_STATUSES).chain((status) => fc.record({ status: fc.constant(status), reasonCode: fc.constantFrom(...REASONS[status]) }));

/** A patient with a result for some of the measures; ages cluster or spread, teams overlap. */
const patient = fc.record({
  careTeams: fc.subarray(TEAMS),
  age: fc.oneof(fc.integer({ min: 0, max: 110 }), fc.integer({ min: 50, max: 69 })),
  sex: fc.constantFrom('female', 'male', 'female', 'male', 'other'),
  recordKey: fc.integer({ min: 0, max: 2 ** 48 - 1 }),
  results: fc.subarray(MEASURES, { minLength: 1 }).chain((measures) => fc.tuple(...measures.map((measureId) => result.map((r) => ({ measureId, ...r }))))),
});

const cohort = fc.oneof(
  fc.array(patient, { maxLength: 12 }), // everything small
  fc.array(patient, { minLength: 20, maxLength: 80 }),
  fc.array(patient, { minLength: 120, maxLength: 200 }), // mostly shown, a few small cells
);

type Patient = { careTeams: string[]; age: number; sex: string; recordKey: number; results: Array<{ measureId: string; status: (typeof GAP_STATUSES)[number]; reasonCode: string }> };

function rowsOf(patients: Patient[]): PatientMeasureRow[] {
  return patients.flatMap(({ results, ...who }) => results.map((r) => ({ ...who, ...r })));
}

/** The true count of a table entry, recounted from the patients with this test's own band and class. */
function trueCount(patients: readonly Patient[], measureId: string, fixed: Record<string, string>): number {
  const band = (age: number) => (age >= 90 ? '90+' : `${Math.floor(age / 10) * 10}-${Math.floor(age / 10) * 10 + 9}`);
  return patients.filter((p) => {
    const r = p.results.find((x) => x.measureId === measureId);
    if (!r) return false;
    const of: Record<string, (v: string) => boolean> = {
      careTeam: (v) => p.careTeams.includes(v), ageBand: (v) => band(p.age) === v, sex: (v) => p.sex === v,
      status: (v) => r.status === v, reasonClass: (v) => r.reasonCode.slice(0, r.reasonCode.indexOf(':')) === v,
    };
    return Object.entries(fixed).every(([field, value]) => of[field](value));
  }).length;
}

const allowed = (count: number, value: number) =>
  count === 0 ? value === 0 : count <= 10 ? value === 0 || value === 11 : value >= 11 && Math.abs(value - count) <= 2;

describe('population counts (property)', () => {
  it('publishes every number as a value the ptable allows for its true count, and the same patients alike', () => {
    const seen = { zero: 0, protected: 0, larger: 0 };
    fc.assert(
      fc.property(cohort, (patients) => {
        const publication = drawPopulationCounts(buildMicrocells(rowsOf(patients)), { careTeams: TEAMS, measureIds: MEASURES });
        const byPatients = new Map<string, number>();
        for (const t of publication.tables) {
          const check = (row: string | null, column: string | null, value: number) => {
            const measureId = t.measureId ?? (row as string);
            const fixed: Record<string, string> = {};
            if (row !== null && t.rowDimension !== 'measure') fixed[t.rowDimension] = row;
            if (column !== null) fixed[t.columnDimension] = column;
            const count = trueCount(patients, measureId, fixed);
            expect({ where: `${t.id} ${row} ${column}`, count, value, allowed: allowed(count, value) }).toMatchObject({ allowed: true });
            seen[count === 0 ? 'zero' : count <= 10 ? 'protected' : 'larger'] += 1;
            // Per-stratum totals count the same patients in every measure a patient has: one value.
            if (column === null && row !== null && t.rowDimension !== 'measure' && t.columnDimension === 'status' && patients.every((p) => p.results.length === MEASURES.length)) {
              const key = `${t.rowDimension}=${row}`;
              expect(byPatients.get(key) ?? value).toBe(value);
              byPatients.set(key, value);
            }
          };
          t.rows.forEach((row, i) => {
            t.columns.forEach((column, j) => check(row, column, t.cells[i][j]));
            check(row, null, t.rowTotals[i]);
          });
          t.columnTotals?.forEach((value, j) => check(null, t.columns[j], value));
          if (t.grandTotal !== null) check(null, null, t.grandTotal);
        }
      }),
      { numRuns: 30 },
    );
    // The cohorts exercised every row of the ptable (a property that only ever saw empty tables proves nothing).
    expect(seen.zero).toBeGreaterThan(0);
    expect(seen.protected).toBeGreaterThan(0);
    expect(seen.larger).toBeGreaterThan(0);
  });
});
