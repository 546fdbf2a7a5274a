/** The shared store of the counts (Redis in production, see redis-window-store.ts). */
export interface WindowStore {
  /**
   * Adds each key's points to its current fixed window, opening a window of `windowSeconds` where
   * none is open, in one round trip; answers, in order, each key's shared count and the ms its window has left.
   */
  add(batch: readonly { key: string; points: number }[], windowSeconds: number): Promise<{ count: number; msLeft: number }[]>;
  /** False while the store is known to be unreachable: requests then never wait on it. */
  isReady(): boolean;
}

export interface WindowDecision {
  admitted: boolean;
  /** Requests counted in the window as far as this process knows (shared count + its own unsent), this one included. */
  used: number;
  msLeft: number;
}

/** One key's window as this process sees it. */
interface Window {
  endsAt: number;
  /** The shared count learned at the last send (this process's sent requests included). */
  known: number;
  /** Admitted here and not yet sent. */
  pending: number;
  /** In the send now in flight. */
  sending: number;
  flight?: Promise<void>;
}

export interface SyncedWindowOptions {
  quota: number;
  windowSeconds: number;
  /** At most this many admitted requests per key that the store has not counted yet: the bound on what other processes cannot see. */
  maxUnsent: number;
}

/**
 * A fixed-window limit decided from this process's memory and kept in sync with a shared store in
 * batches, so a request makes no round trip. A key's count is sent once half of `maxUnsent` is
 * waiting (or by `flush`, on a timer), and each send learns the shared count back. A request that
 * would leave more than `maxUnsent` unsent waits for the send, so every process hides at most
 * `maxUnsent` requests from the others: N processes together admit at most
 * quota + (N - 1) × maxUnsent per window, and one process alone exactly the quota. A key at its
 * quota is refused from memory until its window ends (no store call). While the store is
 * unreachable each process decides alone (at most the quota each) and sends its counts once it is back.
 */
export class SyncedWindowLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly sendAt: number;
  private storeFailing = false;

  constructor(
    private readonly store: WindowStore,
    private readonly options: SyncedWindowOptions,
    private readonly clock: () => number = Date.now,
  ) {
    this.sendAt = Math.max(1, Math.floor(options.maxUnsent / 2));
  }

  /** True while the last send failed: decisions are this process's alone until one succeeds. */
  get decidingAlone(): boolean {
    return this.storeFailing || !this.store.isReady();
  }

  async consume(key: string): Promise<WindowDecision> {
    for (;;) {
      const now = this.clock();
      const window = this.windowOf(key, now);
      const used = window.known + window.sending + window.pending;
      const msLeft = window.endsAt - now;
      if (used >= this.options.quota) return { admitted: false, used, msLeft };
      if (window.sending + window.pending >= this.options.maxUnsent && !this.decidingAlone) {
        // Rare: this process alone has admitted maxUnsent since the store last heard of this key.
        await (window.flight ?? this.send([[key, window]]));
        continue;
      }
      window.pending += 1;
      if (window.pending >= this.sendAt && !window.flight && !this.decidingAlone) void this.send([[key, window]]);
      return { admitted: true, used: used + 1, msLeft };
    }
  }

  /** Sends every key's unsent count in one batch (the periodic sync) and forgets windows that have ended. */
  async flush(): Promise<void> {
    const now = this.clock();
    const batch: [string, Window][] = [];
    for (const [key, window] of this.windows) {
      if (now >= window.endsAt && !window.flight) this.windows.delete(key);
      else if (window.pending > 0 && !window.flight) batch.push([key, window]);
    }
    if (batch.length > 0 && this.store.isReady()) await this.send(batch);
  }

  private windowOf(key: string, now: number): Window {
    const current = this.windows.get(key);
    if (current && now < current.endsAt) return current;
    // A new window (an ended one's unsent requests belonged to it, and go with it); its end is provisional until the store answers.
    const fresh: Window = { endsAt: now + this.options.windowSeconds * 1000, known: 0, pending: 0, sending: 0 };
    this.windows.set(key, fresh);
    return fresh;
  }

  private send(batch: [string, Window][]): Promise<void> {
    for (const [, window] of batch) {
      window.sending = window.pending;
      window.pending = 0;
    }
    const flight = this.store
      .add(batch.map(([key, window]) => ({ key, points: window.sending })), this.options.windowSeconds)
      .then(
        (answers) => {
          const now = this.clock();
          batch.forEach(([, window], index) => {
            window.known = answers[index].count;
            window.endsAt = now + answers[index].msLeft;
            window.sending = 0;
          });
          this.storeFailing = false;
        },
        () => {
          // Unreachable: keep the counts to send later, and decide alone until a send succeeds.
          for (const [, window] of batch) {
            window.pending += window.sending;
            window.sending = 0;
          }
          this.storeFailing = true;
        },
      )
      .finally(() => {
        for (const [, window] of batch) if (window.flight === flight) window.flight = undefined;
      });
    for (const [, window] of batch) window.flight = flight;
    return flight;
  }
}
