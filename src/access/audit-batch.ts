import { AuditEventInput } from '../audit/audit-event.input';

/** One access of a batch: it records its rows once, or leaves without any (a call refused before it ran). */
export interface AuditBatchMember {
  /** Resolves once the batch's shared write has committed the rows; rejects, and nothing may be used, when it failed. */
  record(events: AuditEventInput[]): Promise<void>;
  /** The access ended without recording through the batch: the others no longer wait for it. */
  leave(): void;
}

/**
 * The audit rows of accesses started together (the reads of one model reply), written in one shared
 * write: each member's rows wait until every member that joined has recorded or left, and the write
 * then commits all of them at once (one commit on the clinician's wait instead of one per read).
 * Every member still waits for its own rows to commit before its access returns anything (fail
 * closed: a failed write rejects every member of it). A member that joins after a write started is
 * in the next one. A member that records a second time writes alone, never holding the others.
 */
export class AuditBatch {
  /** Members that joined and have neither recorded nor left. */
  private outstanding = 0;
  private events: AuditEventInput[] = [];
  private waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];

  constructor(private readonly write: (events: AuditEventInput[]) => Promise<void>) {}

  join(): AuditBatchMember {
    this.outstanding += 1;
    let done = false;
    const finish = (): boolean => {
      if (done) return false;
      done = true;
      this.outstanding -= 1;
      return true;
    };
    return {
      record: (events) => {
        if (!finish()) return this.write(events);
        const written = new Promise<void>((resolve, reject) => {
          this.events.push(...events);
          this.waiters.push({ resolve, reject });
        });
        this.writeIfComplete();
        return written;
      },
      leave: () => {
        if (finish()) this.writeIfComplete();
      },
    };
  }

  private writeIfComplete(): void {
    if (this.outstanding > 0 || this.waiters.length === 0) return;
    const events = this.events.splice(0);
    const waiters = this.waiters.splice(0);
    // Never a synchronous throw out of a member's `record`: the write's outcome is every member's answer.
    Promise.resolve().then(() => this.write(events)).then(
      () => waiters.forEach((waiter) => waiter.resolve()),
      (error: unknown) => waiters.forEach((waiter) => waiter.reject(error)),
    );
  }
}
