import { SharedReads } from './shared-reads';

describe(SharedReads.name, () => {
  it('reads a key once for work started together inside run, and every time outside it', async () => {
    const sut = new SharedReads<number>();
    let reads = 0;
    const read = async () => ++reads;
    expect(await sut.run(() => Promise.all([sut.read('a', read), sut.read('a', read), sut.read('b', read)]))).toEqual([1, 1, 2]);
    expect(await Promise.all([sut.read('a', read), sut.read('a', read)])).toEqual([3, 4]);
    expect(await sut.run(() => sut.read('a', read))).toBe(5);
  });

  it('leaves a failure to the caller whose read failed: a later caller reads on its own', async () => {
    const sut = new SharedReads<string>();
    const results = await sut.run(() =>
      Promise.allSettled([sut.read('a', () => Promise.reject(new Error('first failed'))), sut.read('a', async () => 'second read')]),
    );
    expect(results[0]).toMatchObject({ status: 'rejected', reason: new Error('first failed') });
    expect(results[1]).toEqual({ status: 'fulfilled', value: 'second read' });
  });
});
