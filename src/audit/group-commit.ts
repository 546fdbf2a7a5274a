interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: items submitted while a write is in flight wait and are written together by the
 * next one, in submission order. A lone item is written at once (no timer, so no added latency
 * when idle); under load one write carries everything that queued behind the previous one. A
 * shared write that fails is retried item by item, so one bad item fails alone and every submitter
 * learns the outcome of its own item.
 */
export class GroupCommit<T> {
  private queue: Waiting<T>[] = [];
  private writing = false;

  constructor(
    private readonly write: (items: readonly T[]) => Promise<void>,
    private readonly maxPerWrite: number,
  ) {}

  submit(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxPerWrite);
        if ((await this.settle(batch)) || batch.length === 1) continue;
        // The shared write stored none of its items (one transaction): each is tried on its own.
        for (const waiting of batch) await this.settle([waiting]);
      }
    } finally {
      this.writing = false;
    }
  }

  /** Writes the batch; true when it was stored. A lone item's failure is its submitter's answer. */
  private async settle(batch: Waiting<T>[]): Promise<boolean> {
    try {
      await this.write(batch.map((waiting) => waiting.item));
      batch.forEach((waiting) => waiting.resolve());
      return true;
    } catch (error) {
      if (batch.length === 1) batch[0].reject(error);
      return false;
    }
  }
}
