import { auditPublication } from '../../test/setup/population-audit';
import { suppressCells, SuppressionInput } from './cell-suppression';
import { Microcell } from './microcells';
import { PopulationCounts, PublishedCount, PublishedTable, publishPopulationCounts } from './population-counts';

const cell = (over: Partial<Microcell> & Pick<Microcell, 'count'>): Microcell => ({
  careTeams: ['north'], ageBand: '40-49', sex: 'female', measureId: 'CMS125', status: 'closed-gap', reasonClass: 'numerator', ...over,
});
const reasonOf = { 'open-gap': 'not-numerator', 'closed-gap': 'numerator', 'not-applicable': 'denominator-exclusion' } as const;

/** A sex × status table whose other tables add nothing: one team, one age band, one reason class per status. */
function sexByStatus(counts: { female: [number, number]; male: [number, number] }): Microcell[] {
  return (['female', 'male'] as const).flatMap((sex) =>
    (['open-gap', 'closed-gap'] as const).map((status, i) => cell({ sex, status, reasonClass: reasonOf[status], count: counts[sex][i] })),
  );
}

const table = (publication: PopulationCounts, id: string): PublishedTable => {
  const found = publication.tables.find((t) => t.id === id);
  if (!found) throw new Error(`no table ${id}`);
  return found;
};
const everyNumber = (publication: PopulationCounts): PublishedCount[] =>
  publication.tables.flatMap((t) => [...t.cells.flat(), ...t.rowTotals, ...(t.columnTotals ?? []), ...(t.grandTotal ? [t.grandTotal] : [])]);
const shown = (count: number): PublishedCount => ({ count });
const primary: PublishedCount = { suppressed: true, rule: 'primary' };
const complementary: PublishedCount = { suppressed: true, rule: 'complementary' };

describe(suppressCells.name, () => {
  /** A 2×2 table with margins over four microcells: a b / c d. */
  function twoByTwo([a, b, c, d]: number[]): SuppressionInput[] {
    const q = (key: string, support: number[], lines: string[], margin = false): SuppressionInput => ({
      key, support, value: support.reduce((sum, i) => sum + [a, b, c, d][i], 0), published: true, margin, lines: new Set(lines),
    });
    return [
      q('a', [0], ['r1', 'c1']), q('b', [1], ['r1', 'c2']), q('c', [2], ['r2', 'c1']), q('d', [3], ['r2', 'c2']),
      q('r1', [0, 1], ['r1'], true), q('r2', [2, 3], ['r2'], true), q('c1', [0, 2], ['c1'], true), q('c2', [1, 3], ['c2'], true),
      q('total', [0, 1, 2, 3], [], true),
    ];
  }

  it('withholds three more inner cells for one small cell of a 2×2 table, and no total', () => {
    expect(Object.fromEntries(suppressCells(twoByTwo([5, 20, 30, 40])))).toEqual({ a: 'primary', b: 'complementary', c: 'complementary', d: 'complementary' });
  });

  it('withholds nothing when no count is small, and shows zeros', () => {
    expect(suppressCells(twoByTwo([0, 20, 30, 40])).size).toBe(0);
  });

  it('protects an unpublished small count (patients on exactly two teams) without ever showing it', () => {
    // Microcells: only north 30, only south 20, both 3. Rows: north 33, south 23; total 53.
    const lines = new Set<string>();
    const quantities: SuppressionInput[] = [
      { key: 'north', support: [0, 2], value: 33, published: true, margin: false, lines },
      { key: 'south', support: [1, 2], value: 23, published: true, margin: false, lines },
      { key: 'total', support: [0, 1, 2], value: 53, published: true, margin: true, lines },
      { key: 'both', support: [2], value: 3, published: false, margin: false, lines },
    ];
    expect(Object.fromEntries(suppressCells(quantities))).toEqual({ south: 'complementary' });
  });
});

describe(publishPopulationCounts.name, () => {
  it('suppresses a single small cell of a 2×2 table and exactly three complements', () => {
    const microcells = sexByStatus({ female: [5, 20], male: [30, 40] });
    const sut = publishPopulationCounts(microcells);
    const sex = table(sut, 'CMS125/sex');
    expect(sex.rows.slice(0, 2)).toEqual(['female', 'male']);
    expect(sex.cells.slice(0, 2).map((row) => row.slice(0, 2))).toEqual([[primary, complementary], [complementary, complementary]]);
    expect(sex.rowTotals.slice(0, 2)).toEqual([shown(25), shown(70)]);
    expect(sex.columnTotals).toEqual([shown(35), shown(60), shown(0)]);
    expect(sex.grandTotal).toEqual(shown(95));
    expect(everyNumber(sut).filter((n) => 'suppressed' in n)).toHaveLength(4);
    expect(auditPublication(sut, microcells)).toEqual([]);
  });

  it('suppresses a small row total with its cells, and the other row with its total (grand − other row = the small one)', () => {
    const microcells = sexByStatus({ female: [3, 5], male: [30, 40] });
    const sex = table(publishPopulationCounts(microcells), 'CMS125/sex');
    expect(sex.cells.slice(0, 2).map((row) => row.slice(0, 2))).toEqual([[primary, primary], [complementary, complementary]]);
    expect(sex.rowTotals.slice(0, 2)).toEqual([primary, complementary]);
    expect(sex.columnTotals).toEqual([shown(33), shown(45), shown(0)]);
    expect(sex.grandTotal).toEqual(shown(78));
    expect(auditPublication(publishPopulationCounts(microcells), microcells)).toEqual([]);
  });

  it('counts a patient on two teams in both rows, and protects the count of patients on both', () => {
    const microcells = [
      cell({ careTeams: ['north'], count: 30 }),
      cell({ careTeams: ['south'], count: 20 }),
      cell({ careTeams: ['north', 'south'], count: 3 }),
    ];
    const sut = publishPopulationCounts(microcells);
    const teams = table(sut, 'CMS125/careTeam');
    expect(teams.rows).toEqual(['north', 'south']);
    // north + south − total would be the 3 patients on both teams, so one of the rows is withheld.
    expect(teams.rowTotals).toEqual([shown(33), complementary]);
    expect(teams.cells.map((row) => row[1])).toEqual([shown(33), complementary]);
    expect(teams.columnTotals?.[1]).toEqual(shown(53));
    expect(auditPublication(sut, microcells)).toEqual([]);
  });

  it('shows both rows of overlapping teams when the overlap is not small', () => {
    const microcells = [cell({ careTeams: ['north'], count: 30 }), cell({ careTeams: ['south'], count: 20 }), cell({ careTeams: ['north', 'south'], count: 11 })];
    const teams = table(publishPopulationCounts(microcells), 'CMS125/careTeam');
    expect(teams.rowTotals).toEqual([shown(41), shown(31)]);
    expect(teams.grandTotal).toEqual(shown(61));
  });

  it('lists fixed strata (all ten age bands, the configured teams and sexes) even when they are empty', () => {
    const sut = publishPopulationCounts([cell({ count: 12 })], { careTeams: ['east', 'north'], sexes: ['female', 'male'], measureIds: ['CMS122'] });
    expect(table(sut, 'CMS125/ageBand').rows).toHaveLength(10);
    expect(table(sut, 'CMS125/careTeam').rows).toEqual(['east', 'north']);
    expect(table(sut, 'CMS122/sex').rows).toEqual(['female', 'male']);
    expect(table(sut, 'measures').rows).toEqual(['CMS122', 'CMS125']);
    expect(table(sut, 'measures').columnTotals).toBeNull();
    expect(sut.policy.smallestShownCount).toBe(11);
  });

  it('gives the same publication whatever order the microcells come in', () => {
    const microcells = [...sexByStatus({ female: [3, 14], male: [9, 40] }), cell({ careTeams: ['south'], count: 4 })];
    expect(publishPopulationCounts([...microcells].reverse())).toEqual(publishPopulationCounts(microcells));
  });

  it('refuses a microcell with a negative or fractional count', () => {
    expect(() => publishPopulationCounts([cell({ count: -1 })])).toThrow(RangeError);
    expect(() => publishPopulationCounts([cell({ count: 1.5 })])).toThrow(RangeError);
  });
});

describe('the auditor (a test that can fail)', () => {
  const microcells = sexByStatus({ female: [5, 20], male: [30, 40] });
  const truth = { female: [5, 20], male: [30, 40] } as const;
  const withSexCells = (publication: PopulationCounts, replace: (row: number, column: number) => PublishedCount | null): PopulationCounts => ({
    ...publication,
    tables: publication.tables.map((t) =>
      t.id !== 'CMS125/sex' ? t : { ...t, cells: t.cells.map((row, r) => row.map((n, c) => replace(r, c) ?? n)) },
    ),
  });

  it('finds the small cell derivable when the complements are shown', () => {
    const leaky = withSexCells(publishPopulationCounts(microcells), (r, c) => (r < 2 && c < 2 && !(r === 0 && c === 0) ? shown(truth[r === 0 ? 'female' : 'male'][c]) : null));
    expect(auditPublication(leaky, microcells)).toEqual([{ kind: 'derivable', where: 'CMS125/sex [female, open-gap]' }]);
  });

  it('finds the small cell derivable when one complement is shown (through the other row total and a column total)', () => {
    // male × closed = 40 shown: male × open = 70 − 40, then female × open = 35 − 30.
    const leaky = withSexCells(publishPopulationCounts(microcells), (r, c) => (r === 1 && c === 1 ? shown(40) : null));
    expect(auditPublication(leaky, microcells)).toContainEqual({ kind: 'derivable', where: 'CMS125/sex [female, open-gap]' });
  });

  it('reports a small count shown and a count that is not the true sum', () => {
    const leaky = withSexCells(publishPopulationCounts(microcells), (r, c) => (r === 0 && c === 0 ? shown(5) : r === 1 && c === 1 ? shown(41) : null));
    expect(auditPublication(leaky, microcells)).toEqual(
      expect.arrayContaining([
        { kind: 'small-count-shown', where: 'CMS125/sex [female, open-gap]' },
        { kind: 'wrong-count', where: 'CMS125/sex [male, closed-gap]' },
      ]),
    );
  });
});
