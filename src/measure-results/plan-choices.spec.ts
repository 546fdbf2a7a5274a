import { PlanChoices } from './plan-choices';

describe(PlanChoices.name, () => {
  const clock = () => {
    let ms = 1_000;
    return { now: () => ms, advance: (by: number) => (ms += by) };
  };

  it('counts a filter once within the TTL, again after it, and each filter on its own', async () => {
    const time = clock();
    const sut = new PlanChoices(60_000, time);
    const count = jest.fn().mockResolvedValueOnce('hashed').mockResolvedValueOnce('probe').mockResolvedValueOnce('probe');
    expect(await sut.choose(['2026-01-01', '2026-12-31', 'CMS122', 'open-gap', null, 'run-1'], count)).toBe('hashed');
    time.advance(59_000);
    expect(await sut.choose(['2026-01-01', '2026-12-31', 'CMS122', 'open-gap', null, 'run-1'], count)).toBe('hashed');
    expect(count).toHaveBeenCalledTimes(1);
    // Another filter, and the same filter over another run's results, are counted.
    expect(await sut.choose(['2026-01-01', '2026-12-31', 'CMS130', 'open-gap', null, 'run-1'], count)).toBe('probe');
    expect(await sut.choose(['2026-01-01', '2026-12-31', 'CMS122', 'open-gap', null, 'run-2'], count)).toBe('probe');
    expect(count).toHaveBeenCalledTimes(3);
    time.advance(2_000);
    const recount = jest.fn().mockResolvedValue('probe');
    expect(await sut.choose(['2026-01-01', '2026-12-31', 'CMS122', 'open-gap', null, 'run-1'], recount)).toBe('probe');
    expect(recount).toHaveBeenCalledTimes(1);
  });

  it('remembers nothing when the count fails', async () => {
    const sut = new PlanChoices(60_000, clock());
    await expect(sut.choose(['k'], () => Promise.reject(new Error('statement timeout')))).rejects.toThrow('statement timeout');
    const count = jest.fn().mockResolvedValue('probe');
    expect(await sut.choose(['k'], count)).toBe('probe');
    expect(count).toHaveBeenCalledTimes(1);
  });
});
