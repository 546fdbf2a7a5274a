import { Registry } from 'prom-client';
import { collectErrorsCounter, readForScrape, SCRAPE_READ_TIMEOUT_MS, SingleFlight } from './scrape';

describe(SingleFlight.name, () => {
  it('joins a read in flight instead of starting another, and starts a new one once it settled', async () => {
    let release: (value: number) => void = () => undefined;
    const read = jest.fn(() => new Promise<number>((resolve) => (release = resolve)));
    const sut = new SingleFlight(read);
    const first = sut.run();
    const second = sut.run();
    expect(read).toHaveBeenCalledTimes(1);
    release(7);
    expect(await Promise.all([first, second])).toEqual([7, 7]);
    void sut.run();
    expect(read).toHaveBeenCalledTimes(2);
  });
});

describe(readForScrape.name, () => {
  it('gives up after the scrape timeout, counting it, so a slow database never stalls the endpoint', async () => {
    jest.useFakeTimers();
    try {
      const errors = collectErrorsCounter(new Registry());
      const result = readForScrape(() => new Promise<never>(() => undefined), 'outbox', errors);
      await jest.advanceTimersByTimeAsync(SCRAPE_READ_TIMEOUT_MS);
      expect(await result).toBeUndefined();
      expect((await errors.get()).values).toEqual([{ labels: { collector: 'outbox' }, value: 1 }]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('returns the value of a read that answers in time', async () => {
    expect(await readForScrape(async () => 3, 'outbox', collectErrorsCounter(new Registry()))).toBe(3);
  });
});
