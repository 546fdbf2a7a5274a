import { SyncedWindowLimiter, WindowStore } from './synced-window';

/**
 * A store like Redis for one window that never ends: adds are queued per process (one connection
 * each, so executed and answered in order), and the test decides when each is executed and when
 * its answer arrives, so every interleaving of decisions, sends and answers can be played.
 */
class SteppedStore {
  count = 0;
  ready = true;
  readonly calls: { key: string; points: number }[][] = [];
  private readonly queues = new Map<number, { batch: { key: string; points: number }[]; answers?: { count: number; msLeft: number }[]; resolve: (answers: { count: number; msLeft: number }[]) => void; reject: (error: Error) => void }[]>();

  connection(process: number): WindowStore {
    this.queues.set(process, []);
    return {
      isReady: () => this.ready,
      add: (batch) =>
        new Promise((resolve, reject) => {
          this.calls.push([...batch]);
          this.queues.get(process)!.push({ batch: [...batch], resolve, reject });
        }),
    };
  }

  /** Executes the oldest unexecuted add of `process` in the store. */
  execute(process: number): boolean {
    const next = this.queues.get(process)!.find((op) => !op.answers);
    if (!next) return false;
    if (!this.ready) {
      this.queues.get(process)!.splice(this.queues.get(process)!.indexOf(next), 1);
      next.reject(new Error('unreachable'));
      return true;
    }
    next.answers = next.batch.map(({ points }) => ({ count: (this.count += points), msLeft: 60_000 }));
    return true;
  }

  /** Delivers the oldest executed add of `process` to its caller. */
  deliver(process: number): boolean {
    const queue = this.queues.get(process)!;
    if (!queue[0]?.answers) return false;
    const op = queue.shift()!;
    op.resolve(op.answers!);
    return true;
  }

  inFlight(): boolean {
    return [...this.queues.values()].some((queue) => queue.length > 0);
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A small deterministic generator, so a failing seed can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe(SyncedWindowLimiter.name, () => {
  it('admits exactly the quota in one process, then refuses from memory without calling the store', async () => {
    const store = new SteppedStore();
    const sut = new SyncedWindowLimiter(store.connection(0), { quota: 7, windowSeconds: 60, maxUnsent: 4 });
    const decisions = [];
    for (let n = 0; n < 10; n += 1) {
      const decision = sut.consume('user:a');
      // Answer every send as soon as it is made, as a live Redis would between requests.
      while (store.execute(0) && store.deliver(0)) await settle();
      await settle();
      while (store.execute(0) && store.deliver(0)) await settle();
      decisions.push(await decision);
    }
    expect(decisions.map((decision) => decision.admitted)).toEqual([true, true, true, true, true, true, true, false, false, false]);
    expect(decisions.map((decision) => decision.used)).toEqual([1, 2, 3, 4, 5, 6, 7, 7, 7, 7]);
    const flushed = sut.flush();
    while (store.execute(0) && store.deliver(0)) await settle();
    await flushed;
    const callsAtQuota = store.calls.length;
    expect(store.count).toBe(7);
    expect((await sut.consume('user:a')).admitted).toBe(false);
    await sut.flush();
    expect(store.calls).toHaveLength(callsAtQuota);
  });

  it('makes no store call while fewer than half of maxUnsent requests wait, and sends them on flush', async () => {
    const store = new SteppedStore();
    const sut = new SyncedWindowLimiter(store.connection(0), { quota: 100, windowSeconds: 60, maxUnsent: 10 });
    for (let n = 0; n < 4; n += 1) expect((await sut.consume('user:a')).admitted).toBe(true);
    await sut.consume('user:b');
    expect(store.calls).toHaveLength(0);
    const flushed = sut.flush();
    expect(store.calls).toEqual([[{ key: 'user:a', points: 4 }, { key: 'user:b', points: 1 }]]);
    store.execute(0);
    store.deliver(0);
    await flushed;
    expect(store.count).toBe(5);
  });

  it('decides alone while the store is down (up to the quota), without waiting on it, and sends the counts once it is back', async () => {
    const store = new SteppedStore();
    store.ready = false;
    const sut = new SyncedWindowLimiter(store.connection(0), { quota: 5, windowSeconds: 60, maxUnsent: 2 });
    const decisions = [];
    for (let n = 0; n < 6; n += 1) decisions.push((await sut.consume('user:a')).admitted);
    expect(decisions).toEqual([true, true, true, true, true, false]);
    expect(store.calls).toHaveLength(0);
    expect(sut.decidingAlone).toBe(true);
    store.ready = true;
    const flushed = sut.flush();
    store.execute(0);
    store.deliver(0);
    await flushed;
    expect(store.count).toBe(5);
    expect(sut.decidingAlone).toBe(false);
  });

  it('keeps the counts of a failed send and decides alone until a send succeeds', async () => {
    const store = new SteppedStore();
    const sut = new SyncedWindowLimiter(store.connection(0), { quota: 50, windowSeconds: 60, maxUnsent: 4 });
    await sut.consume('user:a');
    await sut.consume('user:a');
    store.ready = false;
    store.execute(0);
    await settle();
    expect(sut.decidingAlone).toBe(true);
    // More than maxUnsent unsent, and no request waited on the store.
    for (let n = 0; n < 6; n += 1) expect((await sut.consume('user:a')).admitted).toBe(true);
    store.ready = true;
    const flushed = sut.flush();
    store.execute(0);
    store.deliver(0);
    await flushed;
    expect(store.count).toBe(8);
  });

  it.each([
    { processes: 2, quota: 10, maxUnsent: 2 },
    { processes: 3, quota: 12, maxUnsent: 4 },
    { processes: 4, quota: 5, maxUnsent: 3 },
    { processes: 3, quota: 30, maxUnsent: 1 },
  ])('never admits more than quota + (processes - 1) × maxUnsent in one window, over random interleavings: %o', async ({ processes, quota, maxUnsent }) => {
    for (let seed = 1; seed <= 25; seed += 1) {
      const next = random(seed);
      const store = new SteppedStore();
      const limiters = Array.from({ length: processes }, (_, index) => new SyncedWindowLimiter(store.connection(index), { quota, windowSeconds: 60, maxUnsent }));
      let admitted = 0;
      let refused = 0;
      for (let step = 0; step < 300; step += 1) {
        const process = Math.floor(next() * processes);
        const action = next();
        if (action < 0.5) void limiters[process].consume('user:a').then((decision) => (decision.admitted ? (admitted += 1) : (refused += 1)));
        else if (action < 0.7) store.execute(process);
        else if (action < 0.9) store.deliver(process);
        else void limiters[process].flush();
        await settle();
        expect(admitted).toBeLessThanOrEqual(quota + (processes - 1) * maxUnsent);
      }
      // Once everything is sent and answered, every process knows the shared count and refuses.
      for (let round = 0; round < 4; round += 1) {
        for (const limiter of limiters) void limiter.flush();
        while (store.inFlight()) {
          for (let process = 0; process < processes; process += 1) {
            store.execute(process);
            store.deliver(process);
          }
          await settle();
        }
      }
      expect(store.count).toBe(admitted);
      expect(admitted).toBeGreaterThanOrEqual(quota);
      for (const limiter of limiters) expect((await limiter.consume('user:a')).admitted).toBe(false);
      expect(refused).toBeGreaterThan(0);
    }
    // Twenty-five simulated interleavings: half a second alone, many times that on a loaded machine.
  }, 30_000);

  it('starts a new window once the answered one ends, forgetting the ended count', async () => {
    let now = 1_000_000;
    const store = new SteppedStore();
    const sut = new SyncedWindowLimiter(store.connection(0), { quota: 2, windowSeconds: 60, maxUnsent: 4 }, () => now);
    expect((await sut.consume('user:a')).admitted).toBe(true);
    expect((await sut.consume('user:a')).admitted).toBe(true);
    const refused = await sut.consume('user:a');
    expect(refused).toEqual({ admitted: false, used: 2, msLeft: 60_000 });
    now += 60_000;
    expect(await sut.consume('user:a')).toEqual({ admitted: true, used: 1, msLeft: 60_000 });
  });
});
