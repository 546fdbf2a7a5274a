import { Microcell } from './microcells';
import { DisclosureTarget } from './disclosure-check';
import { DrawCheck, MAX_DRAWS, PopulationCounts, PublishedTable, drawPopulationCounts, publicationSaltOf, publishPopulationCounts } from './population-counts';
import { CheckedDraw } from './disclosure-check';

const cell = (over: Partial<Microcell> & Pick<Microcell, 'count'>): Microcell => ({
  careTeams: ['north'], ageBand: '40-49', sex: 'female', measureId: 'CMS125', status: 'closed-gap', reasonClass: 'numerator', keySum: 1_000 + over.count, ...over,
});

const table = (publication: PopulationCounts, id: string): PublishedTable => {
  const found = publication.tables.find((t) => t.id === id);
  if (!found) throw new Error(`no table ${id}`);
  return found;
};
const everyNumber = (publication: PopulationCounts): number[] =>
  publication.tables.flatMap((t) => [...t.cells.flat(), ...t.rowTotals, ...(t.columnTotals ?? []), ...(t.grandTotal === null ? [] : [t.grandTotal])]);

describe(drawPopulationCounts.name, () => {
  it('publishes no count of 1 to 10 as itself, and every count within the ptable of its true value', () => {
    for (let count = 0; count <= 30; count += 1) {
      const sut = drawPopulationCounts([cell({ count })], { measureIds: ['CMS125'] });
      for (const value of everyNumber(sut)) expect(value === 0 || value >= 11).toBe(true);
      const total = table(sut, 'measures').rowTotals[0];
      if (count === 0) expect(total).toBe(0);
      else if (count <= 10) expect([0, 11]).toContain(total);
      else expect(Math.abs(total - count)).toBeLessThanOrEqual(2);
    }
  });

  it('publishes the same patients alike everywhere: a status total in all four tables, and two measures over the same patients', () => {
    const patients = [
      { careTeams: ['north'], ageBand: '40-49' as const, sex: 'female', count: 14, keySum: 31 },
      { careTeams: ['south'], ageBand: '60-69' as const, sex: 'male', count: 16, keySum: 77 },
    ];
    // CMS122 and CMS125 count the same patients per stratum (with other statuses).
    const sut = drawPopulationCounts([
      ...patients.map((p) => cell({ ...p, measureId: 'CMS122', status: 'open-gap', reasonClass: 'not-numerator' })),
      ...patients.map((p) => cell({ ...p, measureId: 'CMS125', status: 'not-applicable', reasonClass: 'denominator-exclusion' })),
    ]);
    for (const id of ['CMS122/sex', 'CMS125/sex']) expect(table(sut, id).rowTotals).toEqual(table(sut, 'CMS122/sex').rowTotals);
    expect(table(sut, 'CMS125/careTeam').rowTotals).toEqual(table(sut, 'CMS122/careTeam').rowTotals);
    const measures = table(sut, 'measures');
    expect(measures.rowTotals[0]).toBe(measures.rowTotals[1]);
    expect(measures.cells[0][0]).toBe(table(sut, 'CMS122/sex').columnTotals![0]);
    expect(measures.cells[0][0]).toBe(table(sut, 'CMS122/ageBand').columnTotals![0]);
    expect(measures.cells[0][0]).toBe(table(sut, 'CMS122/reasonClass').rowTotals[0]);
  });

  it('draws anew when its inputs change, and not when they do not', () => {
    const base = Array.from({ length: 12 }, (_, i) => cell({ ageBand: (['20-29', '30-39', '40-49', '50-59'] as const)[i % 4], sex: i % 2 ? 'male' : 'female', count: 15 + i, keySum: 7_919 * (i + 1) }));
    const again = drawPopulationCounts(base.map((c) => ({ ...c })));
    expect(again).toEqual(drawPopulationCounts(base));
    // One more patient in one microcell: the cells it is not in are drawn again too, so which of
    // them changed says nothing about where the patient went (over many draws, some always do).
    const grown = drawPopulationCounts([...base.slice(0, 11), { ...base[11], count: base[11].count + 1, keySum: base[11].keySum + 5 }]);
    const untouched = (p: PopulationCounts) => table(p, 'CMS125/ageBand').cells.slice(2, 4).flat();
    const changes = Array.from({ length: 20 }, (_, k) => drawPopulationCounts([...base, cell({ careTeams: ['south'], count: 11, keySum: k })]))
      .filter((p) => JSON.stringify(untouched(p)) !== JSON.stringify(untouched(again)));
    expect(changes.length).toBeGreaterThan(0);
    expect(grown).not.toEqual(again);
  });

  it('lists fixed strata (all ten age bands, the configured teams and sexes) even when they are empty, and states its method', () => {
    const sut = drawPopulationCounts([cell({ count: 12 })], { careTeams: ['east', 'north'], sexes: ['female', 'male'], measureIds: ['CMS122'] });
    expect(table(sut, 'CMS125/ageBand').rows).toHaveLength(10);
    expect(table(sut, 'CMS125/careTeam').rows).toEqual(['east', 'north']);
    expect(table(sut, 'CMS122/sex').rows).toEqual(['female', 'male']);
    expect(table(sut, 'measures').rows).toEqual(['CMS122', 'CMS125']);
    expect(table(sut, 'measures').columnTotals).toBeNull();
    expect(table(sut, 'CMS122/sex').cells).toEqual([[0, 0, 0], [0, 0, 0]]);
    expect(sut.policy).toMatchObject({ method: 'cell-key-perturbation', largestProtectedCount: 10, smallestNonZeroShown: 11, maxPerturbation: 2, additive: false });
  });

  it('gives the same publication whatever order the microcells come in', () => {
    const microcells = [cell({ count: 14 }), cell({ sex: 'male', count: 3, keySum: 9 }), cell({ careTeams: ['south'], count: 4, keySum: 12 })];
    expect(drawPopulationCounts([...microcells].reverse())).toEqual(drawPopulationCounts(microcells));
  });

  it('refuses a microcell with a negative or fractional count, or a key sum outside [0, 2^48)', () => {
    expect(() => drawPopulationCounts([cell({ count: -1 })])).toThrow(RangeError);
    expect(() => drawPopulationCounts([cell({ count: 1.5 })])).toThrow(RangeError);
    expect(() => drawPopulationCounts([cell({ count: 3, keySum: 2 ** 48 })])).toThrow(RangeError);
  });
});

describe(publishPopulationCounts.name, () => {
  const microcells = [cell({ count: 14 }), cell({ sex: 'male', count: 3, keySum: 9 }), cell({ careTeams: ['south'], count: 4, keySum: 12 })];
  const domains = { careTeams: ['north', 'south'], measureIds: ['CMS125'] };
  const pinnedCount: DisclosureTarget = { where: 'CMS125 sex=male', expression: new Map(), truth: 3 };
  /** A check that finds a pinned count in the first `dirty` draws it is shown, and what it was shown. */
  const checkFailing = (dirty: number) => {
    const shown: ReadonlyMap<string, number>[] = [];
    const previous: (CheckedDraw | null)[] = [];
    const check: DrawCheck = async (draw, before) => (shown.push(draw.shown), previous.push(before), shown.length <= dirty ? [pinnedCount] : []);
    return { shown, previous, check };
  };

  it.each([0, 1, 7, MAX_DRAWS - 1])('publishes the first draw its check finds clean (%i rejected before it), with every table', async (dirty) => {
    const check = checkFailing(dirty);
    const { counts: sut } = await publishPopulationCounts(microcells, domains, { check: check.check });
    expect(sut).toEqual(drawPopulationCounts(microcells, domains, dirty));
    expect(sut.withheldTables).toEqual([]);
    expect(check.shown).toHaveLength(dirty + 1);
  });

  it('withholds tables, finest first, from the first draw when no draw is clean, and publishes only what its check passed', async () => {
    const check = checkFailing(MAX_DRAWS + 3);
    const { counts: sut } = await publishPopulationCounts(microcells, domains, { check: check.check });
    expect(check.shown).toHaveLength(MAX_DRAWS + 4);
    // Three withholdings (age bands, care teams, sexes) still fail; the fourth passes. Listed in the publication's order.
    expect(sut.withheldTables).toEqual(['CMS125/careTeam', 'CMS125/ageBand', 'CMS125/sex', 'CMS125/reasonClass']);
    const first = drawPopulationCounts(microcells, domains, 0);
    expect(sut.tables).toEqual(first.tables.filter((t) => !sut.withheldTables.includes(t.id)));
    const shownLast = check.shown[check.shown.length - 1];
    expect(shownLast.size).toBeLessThan(check.shown[0].size);
  });

  it('publishes no table at all when nothing it could withhold makes the check pass', async () => {
    const { counts: sut } = await publishPopulationCounts(microcells, domains, { check: checkFailing(Number.POSITIVE_INFINITY).check });
    expect(sut.tables).toEqual([]);
    expect(sut.withheldTables).toContain('measures');
  });

  it('is deterministic: the same inputs publish the same checked draw', async () => {
    const a = await publishPopulationCounts(microcells, domains, { check: checkFailing(2).check });
    const b = await publishPopulationCounts([...microcells].reverse(), domains, { check: checkFailing(2).check });
    expect(b.counts).toEqual(a.counts);
    expect(b.record.shown).toEqual(a.record.shown);
  });

  it('records what the next check needs: the inputs, and the value of every number the kept tables show', async () => {
    const { counts, record } = await publishPopulationCounts(microcells, domains, { check: checkFailing(0).check });
    expect(record.salt).toBe(publicationSaltOf(microcells, domains));
    expect(record.microcells).toEqual(microcells);
    const shownValues = counts.tables.flatMap((t) => [...t.cells.flat(), ...t.rowTotals, ...(t.columnTotals ?? []), ...(t.grandTotal === null ? [] : [t.grandTotal])]);
    expect(new Set(Object.values(record.shown))).toEqual(new Set(shownValues));
  });

  it('checks every draw together with the previous publication, when there is one', async () => {
    const first = await publishPopulationCounts(microcells, domains, { check: checkFailing(0).check });
    const changed = [cell({ count: 15, keySum: 77 }), ...microcells.slice(1)];
    const check = checkFailing(3);
    await publishPopulationCounts(changed, domains, { previous: first.record, check: check.check });
    expect(check.previous).toHaveLength(4);
    for (const before of check.previous) {
      expect(before?.microcells).toEqual(microcells);
      expect(Object.fromEntries(before!.shown)).toEqual(first.record.shown);
    }
    const alone = checkFailing(0);
    await publishPopulationCounts(changed, domains, { check: alone.check });
    expect(alone.previous).toEqual([null]);
  });
});

