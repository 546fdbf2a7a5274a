/**
 * Runs `work` every `intervalMs`, never two runs at once (the next run is scheduled when the
 * previous one ends, so a slow run delays the next instead of piling up). `stop()` waits for the
 * run in progress. `work` reports its own failures; one that escapes is dropped, not crashed on.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<unknown> | undefined;
  private stopped = true;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.current = this.work()
        .catch(() => undefined)
        .finally(() => {
          this.current = undefined;
          this.schedule();
        });
    }, this.intervalMs);
  }
}

export class TimeoutError extends Error {
  constructor() {
    super('timed out');
    this.name = 'TimeoutError';
  }
}

/** Rejects with `TimeoutError` when `promise` has not settled within `ms` (the work itself goes on). */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
