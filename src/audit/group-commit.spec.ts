import { GroupCommit, GroupCommitUnavailable } from './group-commit';

const limits = (maxPerWrite: number, overrides: { maxQueued?: number; timeoutMs?: number } = {}) => ({ maxPerWrite, maxQueued: 1000, timeoutMs: 60_000, ...overrides });

/** A write that stays in flight until the test releases it. */
function controlledWrites() {
  const writes: { items: readonly number[]; finish: (error?: Error) => void }[] = [];
  const write = (items: readonly number[]) =>
    new Promise<void>((resolve, reject) => writes.push({ items, finish: (error) => (error ? reject(error) : resolve()) }));
  return { writes, write };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe(GroupCommit.name, () => {
  it('writes a lone item at once, and everything that queued behind a write in the next one, in order', async () => {
    const { writes, write } = controlledWrites();
    const sut = new GroupCommit(write, limits(10));
    const first = sut.submit(1);
    await settle();
    expect(writes.map((w) => w.items)).toEqual([[1]]);
    const queued = [sut.submit(2), sut.submit(3), sut.submit(4)];
    await settle();
    expect(writes).toHaveLength(1); // still waiting for the first write
    writes[0].finish();
    await first;
    await settle();
    expect(writes.map((w) => w.items)).toEqual([[1], [2, 3, 4]]);
    writes[1].finish();
    await Promise.all(queued);
  });

  it('caps the items per write', async () => {
    const { writes, write } = controlledWrites();
    const sut = new GroupCommit(write, limits(2));
    const all = [1, 2, 3, 4, 5].map((item) => sut.submit(item));
    for (let step = 0; step < 3; step += 1) {
      await settle();
      writes[step].finish();
    }
    await Promise.all(all);
    expect(writes.map((w) => w.items)).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('writes items submitted together in one write even when idle, each submitter hearing its own outcome', async () => {
    const attempts: number[][] = [];
    const sut = new GroupCommit(async (items: readonly number[]) => {
      attempts.push([...items]);
      if (items.includes(3)) throw new Error('item 3 is bad');
    }, limits(10));
    const outcomes = await Promise.allSettled(sut.submitAll([1, 2, 3, 4]));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(attempts).toEqual([[1, 2, 3, 4], [1], [2], [3], [4]]); // one shared write, then item by item
  });

  it('queues items submitted together behind a write in flight, and splits them at the cap', async () => {
    const { writes, write } = controlledWrites();
    const sut = new GroupCommit(write, limits(3));
    const first = sut.submit(0);
    await settle();
    const page = sut.submitAll([1, 2, 3, 4]);
    await settle();
    expect(writes.map((w) => w.items)).toEqual([[0]]);
    writes[0].finish();
    await first;
    await settle();
    writes[1].finish();
    await settle();
    writes[2].finish();
    await Promise.all(page);
    expect(writes.map((w) => w.items)).toEqual([[0], [1, 2, 3], [4]]);
  });

  it('refuses every item submitted together when they do not all fit in the queue, and writes none of them', async () => {
    const { writes, write } = controlledWrites();
    const sut = new GroupCommit(write, limits(10, { maxQueued: 3 }));
    const first = sut.submit(0);
    await settle();
    const outcomes = await Promise.allSettled(sut.submitAll([1, 2, 3, 4]));
    expect(outcomes.map((outcome) => (outcome as PromiseRejectedResult).reason)).toEqual(Array(4).fill(new GroupCommitUnavailable('queue_full')));
    writes[0].finish();
    await first;
    await settle();
    expect(writes.map((w) => w.items)).toEqual([[0]]);
  });

  it('retries a failed shared write item by item, so a bad item fails alone and the others are stored', async () => {
    const written: number[][] = [];
    const attempts: number[][] = [];
    const sut = new GroupCommit(async (items: readonly number[]) => {
      attempts.push([...items]);
      if (items.includes(3)) throw new Error('item 3 is bad');
      written.push([...items]);
    }, limits(10));
    const all = [1, 2, 3, 4].map((item) => sut.submit(item));
    const outcomes = await Promise.allSettled(all);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[2] as PromiseRejectedResult).reason).toEqual(new Error('item 3 is bad'));
    expect(written).toEqual([[1], [2], [4]]);
    expect(attempts.filter((items) => items.includes(3))).toEqual([[2, 3, 4], [3]]); // a lone failure is never retried
    // And the next write goes on as usual.
    await expect(sut.submit(5)).resolves.toBeUndefined();
  });

  it('attempts a lone failing item once: its submitter hears the failure and nothing writes it later', async () => {
    let attempts = 0;
    const sut = new GroupCommit(async () => {
      attempts += 1;
      throw new Error('refused');
    }, limits(10));
    await expect(sut.submit(1)).rejects.toThrow('refused');
    await settle();
    expect(attempts).toBe(1);
  });

  it('refuses an item at once when the queue behind the write in flight is full', async () => {
    const { writes, write } = controlledWrites();
    const sut = new GroupCommit(write, limits(10, { maxQueued: 2 }));
    const first = sut.submit(1);
    await settle();
    const queued = [sut.submit(2), sut.submit(3)];
    await expect(sut.submit(4)).rejects.toEqual(new GroupCommitUnavailable('queue_full'));
    writes[0].finish();
    await first;
    await settle();
    writes[1].finish();
    await Promise.all(queued);
    expect(writes.map((w) => w.items)).toEqual([[1], [2, 3]]);
  });

  it('tells a submitter its write failed after the timeout, and never writes an item it gave up before its write began', async () => {
    jest.useFakeTimers();
    try {
      const { writes, write } = controlledWrites();
      const sut = new GroupCommit(write, limits(10, { timeoutMs: 100 }));
      const stalled = sut.submit(1);
      const behind = sut.submit(2);
      const outcomes = Promise.allSettled([stalled, behind]);
      await jest.advanceTimersByTimeAsync(100);
      expect((await outcomes).map((outcome) => (outcome as PromiseRejectedResult).reason)).toEqual([
        new GroupCommitUnavailable('timeout'),
        new GroupCommitUnavailable('timeout'),
      ]);
      writes[0].finish();
      await jest.advanceTimersByTimeAsync(0);
      expect(writes.map((w) => w.items)).toEqual([[1]]); // item 2 was dropped, not written late
      const later = sut.submit(3);
      await jest.advanceTimersByTimeAsync(0);
      writes[1].finish();
      await expect(later).resolves.toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });
});
