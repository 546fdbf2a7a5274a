/** A submitted item could not be written in time, or the queue was full: the caller answers 503. */
export class GroupCommitUnavailable extends Error {
  constructor(readonly reason: 'queue_full' | 'timeout') {
    super(`audit write unavailable: ${reason}`);
    this.name = 'GroupCommitUnavailable';
  }
}

export interface GroupCommitLimits {
  /** Items per write; a burst larger than this commits in several writes. */
  maxPerWrite: number;
  /** Items waiting behind the write in flight; one more is refused at once (never queued unbounded). */
  maxQueued: number;
  /** How long a submitter waits for its item to be written before it is told the write failed. */
  timeoutMs: number;
}

interface Waiting<T> {
  item: T;
  settled: boolean;
  /** Taken into a write: from then on it may be stored, so it is no longer dropped from the queue. */
  claimed: boolean;
  timer?: NodeJS.Timeout;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: items submitted while a write is in flight wait and are written together by the
 * next one, in submission order. A lone item is written at once (no timer, so no added latency
 * when idle); under load one write carries everything that queued behind the previous one. A
 * shared write that fails is retried item by item, so one bad item fails alone and every submitter
 * learns the outcome of its own item.
 *
 * Bounded: at most `maxQueued` items wait (more are refused at once), and a submitter waits at most
 * `timeoutMs`. An item whose submitter gave up before its write began is dropped, never written; one
 * already being written may still be stored after its submitter was told it failed (the writer
 * bounds that with database timeouts), so the trail can hold an attempt whose caller got a 503,
 * never data handed out without its record.
 */
export class GroupCommit<T> {
  private queue: Waiting<T>[] = [];
  private writing = false;

  constructor(
    private readonly write: (items: readonly T[]) => Promise<void>,
    private readonly limits: GroupCommitLimits,
  ) {}

  submit(item: T): Promise<void> {
    return this.submitAll([item])[0];
  }

  /**
   * Submits several items at once: all are queued before a write starts, so they share one write
   * (up to `maxPerWrite`) instead of the first going alone. One promise per item, in order: each
   * settles with its own item's outcome. Admitted all or none: when they do not all fit in the
   * queue, every one is refused.
   */
  submitAll(items: readonly T[]): Promise<void>[] {
    if (this.queue.length + items.length > this.limits.maxQueued) {
      return items.map(() => Promise.reject(new GroupCommitUnavailable('queue_full')));
    }
    const outcomes = items.map(
      (item) =>
        new Promise<void>((resolve, reject) => {
          const waiting: Waiting<T> = { item, settled: false, claimed: false, resolve, reject };
          waiting.timer = setTimeout(() => this.giveUp(waiting), this.limits.timeoutMs);
          this.queue.push(waiting);
        }),
    );
    if (!this.writing) void this.drain();
    return outcomes;
  }

  private giveUp(waiting: Waiting<T>): void {
    if (!waiting.claimed) this.queue = this.queue.filter((other) => other !== waiting);
    this.finish(waiting, new GroupCommitUnavailable('timeout'));
  }

  private finish(waiting: Waiting<T>, error?: unknown): void {
    if (waiting.settled) return;
    waiting.settled = true;
    clearTimeout(waiting.timer);
    if (error === undefined) waiting.resolve();
    else waiting.reject(error);
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.limits.maxPerWrite).filter((waiting) => !waiting.settled);
        if (batch.length === 0) continue;
        batch.forEach((waiting) => (waiting.claimed = true));
        if ((await this.settle(batch)) || batch.length === 1) continue;
        // The shared write stored none of its items (one transaction): each is tried on its own,
        // unless its submitter has given up meanwhile.
        for (const waiting of batch) if (!waiting.settled) await this.settle([waiting]);
      }
    } finally {
      this.writing = false;
    }
  }

  /** Writes the batch; true when it was stored. A lone item's failure is its submitter's answer. */
  private async settle(batch: Waiting<T>[]): Promise<boolean> {
    try {
      await this.write(batch.map((waiting) => waiting.item));
      batch.forEach((waiting) => this.finish(waiting));
      return true;
    } catch (error) {
      if (batch.length === 1) this.finish(batch[0], error);
      return false;
    }
  }
}
