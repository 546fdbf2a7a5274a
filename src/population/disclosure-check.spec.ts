import { buildMicrocells } from './microcells';
import { countsPublishableAs, determinedCounts } from './disclosure-check';
import { buildPublication } from './published-quantities';

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
    const found = await determinedCounts(microcells, publication, publishedAs(as));
    expect(found.length > 0).toBe(pinned);
    if (pinned) expect(found.map((t) => t.truth)).toEqual(found.map(() => 1));
  });

  it('checks only the numbers it is told are shown: without the total, nothing is pinned', async () => {
    const shown = publishedAs({ 28: 26, 27: 29, 1: 11 });
    const total = publication.quantities.filter((q) => q.value === 28).map((q) => q.key);
    for (const key of total) shown.delete(key);
    expect(await determinedCounts(microcells, publication, shown)).toEqual([]);
  });

  it('lets the event loop serve what waits between two integer programs (the solver itself is synchronous)', async () => {
    const shown = publishedAs({ 28: 28, 27: 27, 1: 11 });
    await determinedCounts(microcells, publication, shown); // the solver is loaded: what follows is only solving
    const order: string[] = [];
    const check = determinedCounts(microcells, publication, shown).then(() => order.push('check done'));
    setImmediate(() => order.push('waiting request served'));
    await check;
    expect(order).toEqual(['waiting request served', 'check done']);
  });
});
