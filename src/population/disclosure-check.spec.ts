import { buildMicrocells } from './microcells';
import { countsPublishableAs } from './analyst-model';
import { determinedAcrossPublications, determinedByDraw, determinedCounts } from './disclosure-check';
import { buildPublication } from './published-quantities';

/** Each test below solves integer programs: a second or more alone, 5 s and more on a loaded two-core machine (a full run). */
const SOLVES = 30_000;

describe(countsPublishableAs.name, () => {
  it.each([
    [0, [0, 10]], [11, [1, 13]], [12, [11, 14]], [13, [11, 15]], [14, [12, 16]], [40, [38, 42]],
  ])('reads a published %i as the counts the ptable can publish as it', (value, interval) => {
    expect(countsPublishableAs(value)).toEqual(interval);
  });

  it('refuses a value the ptable never publishes', () => {
    expect(() => countsPublishableAs(5)).toThrow();
  });
});

/**
 * One stratum, one measure: 28 patients, 27 closed and 1 open. A tiny integer program, so it
 * stays in the unit tier; the fixture cohort's checks are in the integration tier.
 */
describe(determinedCounts.name, () => {
  const patient = (status: 'open-gap' | 'closed-gap', recordKey: number) => ({
    careTeams: ['north'], age: 45, sex: 'female', measureId: 'CMS125', status, reasonCode: status === 'open-gap' ? 'not-numerator:x' : 'numerator:x', recordKey,
  });
  const microcells = buildMicrocells([patient('open-gap', 1), ...Array.from({ length: 27 }, (_, i) => patient('closed-gap', 100 + i))]);
  const publication = buildPublication(microcells, { careTeams: ['north'], measureIds: ['CMS125'] });
  /** Every number published as `as` says for its true count (numbers over the same patients agree, as in a draw). */
  const publishedAs = (as: Record<number, number>) => new Map(publication.quantities.map((q) => [q.key, as[q.value] ?? q.value]));

  it.each([
    // 28 shown as 26 (24 to 28) and 27 as 29 (27 to 31), and open shown as 11 is at least 1: open = 1 is the only value left.
    ['the total low and closed high, open shown as 11', { 28: 26, 27: 29, 1: 11 }, true],
    // Shown as 0, the open count may be 0 and the one patient not-applicable (its 0 means 0 to 10).
    ['the total low and closed high, open shown as 0', { 28: 26, 27: 29, 1: 0 }, false],
    ['both as themselves', { 28: 28, 27: 27, 1: 11 }, false],
    ['the total high and closed low', { 28: 30, 27: 25, 1: 0 }, false],
  ])('%s: the open count of 1 is %s', async (_, as, pinned) => {
    const found = await determinedCounts({ microcells, publication, shown: publishedAs(as) });
    expect(found.length > 0).toBe(pinned);
    if (pinned) expect(found.map((t) => t.truth)).toEqual(found.map(() => 1));
  }, SOLVES);

  it('checks only the numbers it is told are shown: without the total, nothing is pinned', async () => {
    const shown = publishedAs({ 28: 26, 27: 29, 1: 11 });
    const total = publication.quantities.filter((q) => q.value === 28).map((q) => q.key);
    for (const key of total) shown.delete(key);
    expect(await determinedCounts({ microcells, publication, shown })).toEqual([]);
  }, SOLVES);
});

/**
 * Two publications around one imported patient (one stratum per sex, one measure, 20 closed each;
 * then one open woman). Each publication alone pins nothing; taken together, a female total shown
 * high before and low after and a male total shown the other way round leave no room for the
 * patient to be a man.
 */
describe(determinedAcrossPublications.name, () => {
  const patient = (sex: string, status: 'open-gap' | 'closed-gap', recordKey: number) => ({
    careTeams: ['north'], age: 45, sex, measureId: 'CMS125', status, reasonCode: status === 'open-gap' ? 'not-numerator:x' : 'numerator:x', recordKey,
  });
  const domains = { careTeams: ['north'], sexes: ['female', 'male'], measureIds: ['CMS125'] };
  const closed = [...Array.from({ length: 20 }, (_, i) => patient('female', 'closed-gap', 100 + i)), ...Array.from({ length: 20 }, (_, i) => patient('male', 'closed-gap', 200 + i))];
  const draw = (rows: ReturnType<typeof patient>[], shift: (sex: string | undefined) => number) => {
    const microcells = buildMicrocells(rows);
    const publication = buildPublication(microcells, domains);
    // Counts of 1 to 10 shown as 11, larger ones shifted within the ptable's reach, empty ones as 0.
    const shown = new Map(publication.quantities.map((q) => [q.key, q.value === 0 ? 0 : q.value <= 10 ? 11 : q.value + shift(q.predicate.sex)]));
    return { microcells, publication, shown };
  };
  const before = draw(closed, (sex) => (sex === undefined ? 0 : 2));
  const importedWoman = [...closed, patient('female', 'open-gap', 999)];

  it('finds the imported patient\'s sex when the two draws leave it one value', async () => {
    const after = draw(importedWoman, (sex) => (sex === undefined ? 0 : -2));
    expect(await determinedCounts(before)).toEqual([]);
    expect(await determinedCounts(after)).toEqual([]);
    const found = await determinedAcrossPublications(before, after);
    expect(found.map((t) => `${t.where}=${t.truth}`)).toEqual(expect.arrayContaining(['changes of sex female=2', 'changes of sex male=0']));
  }, SOLVES);

  it('finds nothing when the draws leave the patient room to be either', async () => {
    const after = draw(importedWoman, () => 0);
    expect(await determinedAcrossPublications(before, after)).toEqual([]);
  }, SOLVES);

  it('the publisher\'s check (both publications first, first pinned target only) rejects and passes exactly the draws the full answers do', async () => {
    for (const shift of [(sex: string | undefined) => (sex === undefined ? 0 : -2), () => 0]) {
      const after = draw(importedWoman, shift);
      const full = [...(await determinedCounts(after)), ...(await determinedAcrossPublications(before, after))];
      const fast = await determinedByDraw(after, before);
      expect(fast.length > 0).toBe(full.length > 0);
      expect(fast.every((t) => full.some((f) => f.where === t.where))).toBe(true);
      expect((await determinedByDraw(after, null)).length > 0).toBe((await determinedCounts(after)).length > 0);
    }
  }, SOLVES);

  it('does not count as disclosed what was known before a number was read (every change is on the only care team)', async () => {
    const after = draw(importedWoman, (sex) => (sex === undefined ? 0 : -2));
    expect((await determinedAcrossPublications(before, after)).map((t) => t.where)).not.toContain('changes on care team north');
  }, SOLVES);
});
