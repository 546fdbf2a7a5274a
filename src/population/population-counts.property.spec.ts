import fc from 'fast-check';
import { auditPublication } from '../../test/setup/population-audit';
import { buildMicrocells, GAP_STATUSES, Microcell, PatientMeasureRow } from './microcells';
import { publishPopulationCounts } from './population-counts';

/**
 * Property (issue 14): for random cohorts, in every published table, no shown count is 1–10, every
 * shown count is the true sum, and no withheld count (nor any count of 1–10 patients on one exact
 * set of care teams) is a linear combination of the shown counts. The auditor rebuilds each
 * number from the table labels and the patients themselves, and decides derivability by its own
 * multi-modular rank, sharing no code with the publisher.
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
  results: fc.subarray(MEASURES, { minLength: 1 }).chain((measures) => fc.tuple(...measures.map((measureId) => result.map((r) => ({ measureId, ...r }))))),
});

const cohort = fc.oneof(
  fc.array(patient, { maxLength: 12 }), // everything small
  fc.array(patient, { minLength: 20, maxLength: 80 }),
  fc.array(patient, { minLength: 120, maxLength: 200 }), // mostly shown, a few small cells
);

function rowsOf(patients: Array<{ careTeams: string[]; age: number; sex: string; results: Array<{ measureId: string; status: (typeof GAP_STATUSES)[number]; reasonCode: string }> }>): PatientMeasureRow[] {
  return patients.flatMap(({ results, ...who }) => results.map((r) => ({ ...who, ...r })));
}

/**
 * The auditor's microcells, made without the publisher's code: the patients' own bands and reason
 * classes, grouped by a key of this test's own.
 */
function auditorMicrocells(rows: readonly PatientMeasureRow[]): Microcell[] {
  const band = (age: number) => (age >= 90 ? '90+' : `${Math.floor(age / 10) * 10}-${Math.floor(age / 10) * 10 + 9}`);
  const cells = new Map<string, Microcell>();
  for (const row of rows) {
    const cell: Microcell = {
      careTeams: [...new Set(row.careTeams)].sort(),
      ageBand: band(row.age) as Microcell['ageBand'],
      sex: row.sex,
      measureId: row.measureId,
      status: row.status,
      reasonClass: row.reasonCode.slice(0, row.reasonCode.indexOf(':')),
      count: 0,
    };
    const key = JSON.stringify(cell);
    const found = cells.get(key) ?? cells.set(key, cell).get(key);
    (found as Microcell).count += 1;
  }
  return [...cells.values()];
}

describe('population counts (property)', () => {
  it('never shows a count of 1–10, shows true sums, and lets no withheld count be derived', () => {
    const seen = { primary: 0, complementary: 0, shown: 0 };
    fc.assert(
      fc.property(cohort, (patients) => {
        const rows = rowsOf(patients);
        const publication = publishPopulationCounts(buildMicrocells(rows), { careTeams: TEAMS, measureIds: MEASURES });
        expect(auditPublication(publication, auditorMicrocells(rows))).toEqual([]);
        for (const table of publication.tables) {
          for (const number of [...table.cells.flat(), ...table.rowTotals, ...(table.columnTotals ?? [])]) {
            if ('count' in number) seen.shown += number.count > 0 ? 1 : 0;
            else seen[number.rule] += 1;
          }
        }
      }),
      { numRuns: 100 },
    );
    // The cohorts exercised every outcome (a property that only ever saw empty tables proves nothing).
    expect(seen.primary).toBeGreaterThan(0);
    expect(seen.complementary).toBeGreaterThan(0);
    expect(seen.shown).toBeGreaterThan(0);
  });

  it('decides the same on BigInt as on numbers (the path taken when a number would leave the exact range)', () => {
    fc.assert(
      fc.property(cohort, (patients) => {
        const microcells = buildMicrocells(rowsOf(patients));
        expect(publishPopulationCounts(microcells, {}, 'bigint')).toEqual(publishPopulationCounts(microcells));
      }),
      { numRuns: 15 },
    );
  });
});
