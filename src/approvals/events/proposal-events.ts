import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Observable, Subject } from 'rxjs';
import type { DeliveryState } from '../approvals.sql';

/** A change to a proposal, as the live queue tells it: ids and states only, never content or PHI. */
export interface ProposalChange {
  id: string;
  status: string;
  kind: string;
  patientId: string;
  currentVersion: number;
  /** ISO-8601 UTC with microseconds, as the approval statements return them (so they compare as text). */
  createdAt: string;
  updatedAt: string;
  /** Null for a draft never submitted: not in review, so never announced (not even to its author). */
  submittedAt?: string | null;
  /** Where the applied effect stands at each destination (states, ids and reason codes only). */
  deliveries?: DeliveryState[];
}

/**
 * The in-process bus of proposal changes. Writers publish AFTER their transaction commits, so a
 * listener never announces a change that could still roll back. It only reaches streams of this
 * process: the streams also poll the database, which is how they see other processes' changes.
 */
@Injectable()
export class ProposalEvents implements OnModuleDestroy {
  private readonly logger = new Logger(ProposalEvents.name);
  private readonly subject = new Subject<ProposalChange>();
  private readonly stopping = new Subject<void>();

  /** Every change published in this process from now on. */
  readonly changes: Observable<ProposalChange> = this.subject.asObservable();
  /** Emits once when the application shuts down, so open streams end and HTTP can close. */
  readonly shutdown: Observable<void> = this.stopping.asObservable();

  /**
   * Never throws: the change is committed already, and the poll announces it if this fails.
   * `correlationId`: the request that made the change, for the log line of a failure (none for the queue's workers).
   */
  publish(row: ProposalChange | null | undefined, correlationId: string | null = null): void {
    if (!row || row.submittedAt === null) return;
    try {
      const { id, status, kind, patientId, currentVersion, createdAt, updatedAt, submittedAt, deliveries } = row;
      this.subject.next({ id, status, kind, patientId, currentVersion, createdAt, updatedAt, submittedAt, deliveries });
    } catch (error) {
      this.logger.warn({ type: (error as Error)?.constructor?.name, correlationId }, 'A proposal change could not be announced in-process');
    }
  }

  onModuleDestroy(): void {
    this.stopping.next();
    this.stopping.complete();
    this.subject.complete();
  }
}
