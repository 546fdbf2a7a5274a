import { CompletePeriod, CompletePeriodMemo } from './complete-period-memo';

const PERIOD: CompletePeriod = { period: { start: '2025-12-04', end: '2026-12-03' }, finishedAt: '2026-12-03T02:00:00.000Z' };
const NEXT: CompletePeriod = { period: { start: '2025-12-05', end: '2026-12-04' }, finishedAt: '2026-12-04T02:00:00.000Z' };

describe('CompletePeriodMemo', () => {
  let now: number;
  const clock = { now: () => now };
  beforeEach(() => (now = 5_000));

  /** A read that answers `answers` in turn and counts its calls. */
  const reads = (...answers: (CompletePeriod | null)[]) => jest.fn(async () => answers.shift() ?? null);

  it('reuses the period it read for the reuse window, then reads it again', async () => {
    const memo = new CompletePeriodMemo(1000, clock);
    const read = reads(PERIOD, NEXT);
    await expect(memo.get(read)).resolves.toEqual(PERIOD);
    now += 999;
    await expect(memo.get(read)).resolves.toEqual(PERIOD);
    expect(read).toHaveBeenCalledTimes(1);
    now += 1;
    await expect(memo.get(read)).resolves.toEqual(NEXT);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('never remembers that there is no complete period yet: the first one shows at once', async () => {
    const memo = new CompletePeriodMemo(1000, clock);
    const read = reads(null, PERIOD);
    await expect(memo.get(read)).resolves.toBeNull();
    await expect(memo.get(read)).resolves.toEqual(PERIOD);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('remembers nothing of a failed read: the error reaches the caller and the next call reads again', async () => {
    const memo = new CompletePeriodMemo(1000, clock);
    await expect(memo.get(async () => Promise.reject(new Error('connection lost')))).rejects.toThrow('connection lost');
    const read = reads(PERIOD);
    await expect(memo.get(read)).resolves.toEqual(PERIOD);
    expect(read).toHaveBeenCalledTimes(1);
  });
});
