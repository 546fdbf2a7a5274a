import { readEvictionPolicy } from './eviction-policy-check';

describe(readEvictionPolicy.name, () => {
  it("reads the policy from CONFIG GET's reply", async () => {
    const redis = { config: jest.fn().mockResolvedValue(['maxmemory-policy', 'allkeys-lru']) };
    expect(await readEvictionPolicy(redis as never)).toBe('allkeys-lru');
    expect(redis.config).toHaveBeenCalledWith('GET', 'maxmemory-policy');
  });

  it('answers undefined, without throwing, when CONFIG is disabled or renamed', async () => {
    const redis = { config: jest.fn().mockRejectedValue(new Error("ERR unknown command 'CONFIG'")) };
    expect(await readEvictionPolicy(redis as never)).toBeUndefined();
  });

  it('answers undefined for a reply it does not understand', async () => {
    expect(await readEvictionPolicy({ config: jest.fn().mockResolvedValue([]) } as never)).toBeUndefined();
  });
});
