import { PendingWrites } from './pending-writes';

describe(PendingWrites.name, () => {
  it('settles only once every write started so far has ended', async () => {
    const sut = new PendingWrites();
    const ended: number[] = [];
    let release!: () => void;
    sut.add(new Promise<void>((resolve) => (release = resolve)).then(() => void ended.push(1)));
    sut.add(Promise.resolve().then(() => void ended.push(2)));
    const settled = sut.settle().then(() => ended.length);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toEqual([2]);
    release();
    expect(await settled).toBe(2);
  });

  it('rejects with the first failure once the others have ended, then starts clean', async () => {
    const sut = new PendingWrites();
    const ended: string[] = [];
    sut.add(Promise.reject(new Error('first')));
    sut.add(new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() => void ended.push('slow')));
    sut.add(Promise.reject(new Error('second')));
    await expect(sut.settle()).rejects.toThrow('first');
    expect(ended).toEqual(['slow']);
    await expect(sut.settle()).resolves.toBeUndefined();
  });

  it('holds a failure that happens before anyone waits (no unhandled rejection)', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const sut = new PendingWrites();
      sut.add(Promise.reject(new Error('early')));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
      await expect(sut.settle()).rejects.toThrow('early');
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
