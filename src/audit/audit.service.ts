import { Inject, Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlSession } from '../schema/sql-session';
import { AuditRecordError, AuditEventInput, normaliseAuditEvent, NormalisedAuditEvent } from './audit-event.input';
import { toAuditTimestamp } from './audit-hash';
import { BreakGlassUse } from './audit.sql';
import { AuditRepository, dedicatedAuditWriter, sharedAuditWriter, StandaloneAuditWriter } from './audit.repository';
import { GroupCommit, GroupCommitLimits, GroupCommitUnavailable } from './group-commit';

/**
 * The bounds of a standalone audit write: 64 events per transaction, at most 1000 waiting, and
 * 5 s before a caller is told its event could not be written (the read then answers 503 with no
 * data). Inside the write, lock and statement timeouts of half that stop a stalled transaction
 * (the table locked elsewhere, a blocked insert) from committing long after its callers gave up.
 */
export const DEFAULT_AUDIT_WRITE_LIMITS: GroupCommitLimits = { maxPerWrite: 64, maxQueued: 1000, timeoutMs: 5000 };

/** The lock and statement timeout of a standalone audit write: half its callers' timeout. */
export function auditDatabaseTimeoutMs(limits: Pick<GroupCommitLimits, 'timeoutMs'>): number {
  return Math.max(1, Math.floor(limits.timeoutMs / 2));
}
export const AUDIT_WRITE_LIMITS = Symbol('AUDIT_WRITE_LIMITS');

/** Where the audit trail's own connections go (the sealer's, the standalone writer's): the app's database. */
export interface AuditDatabase {
  url: string;
  /** The embedded database (PGlite): one connection shared by every client of the process. */
  embedded: boolean;
}
/** Provided by `AuditSealerModule.forRoot` in the API and the worker; absent elsewhere (the CLI). */
export const AUDIT_DATABASE = Symbol('AUDIT_DATABASE');

/** The audit trail cannot take an event now (stalled, or too far behind): fail closed, answer 503. */
export class AuditUnavailableError extends AuditRecordError {
  constructor() {
    super('the audit trail is not accepting events in time');
    this.name = 'AuditUnavailableError';
  }
}

/**
 * Appends events to the audit trail. An event recorded on its own commits in a transaction of the
 * audit trail's own, so it is kept even when the caller's work fails or rolls back, and it has
 * committed (durably: a WAL flush) by the time `record` resolves. Events recorded on their own at the
 * same moment share one transaction (group commit: one commit for all of them). Nothing here takes
 * a lock or computes a link: the sealer (`audit-sealer.ts`) chains events after they commit, so
 * writers never wait for each other. Any failure rejects with `AuditRecordError`: callers fail
 * closed (no audit event, no data).
 */
@Injectable()
export class AuditService implements OnApplicationShutdown {
  private readonly standalone: GroupCommit<NormalisedAuditEvent>;
  private readonly repository: AuditRepository;
  private readonly writer: StandaloneAuditWriter;

  /**
   * `database`: where the app's pool connects. On a Postgres server events recorded on their own
   * are written on a connection of the trail's own (`dedicatedAuditWriter`); on the embedded
   * database, or without a target (the CLI), through the app's pool (`sharedAuditWriter`).
   */
  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Optional() @Inject(AUDIT_WRITE_LIMITS) limits?: Partial<GroupCommitLimits>,
    @Optional() @Inject(AUDIT_DATABASE) database?: AuditDatabase,
  ) {
    this.repository = new AuditRepository(dataSource);
    const bounds = { ...DEFAULT_AUDIT_WRITE_LIMITS, ...limits };
    const databaseTimeoutMs = auditDatabaseTimeoutMs(bounds);
    this.writer = database && !database.embedded ? dedicatedAuditWriter(database.url, databaseTimeoutMs) : sharedAuditWriter(this.repository, databaseTimeoutMs);
    this.standalone = new GroupCommit((events) => this.writer.write(stamped(events)), bounds);
  }

  /** With the app's own connections (TypeORM closes its pool at the same stage), after requests have ended. */
  async onApplicationShutdown(): Promise<void> {
    await this.writer.close();
  }

  /**
   * Appends one event. Given a transaction's `manager`, the event commits (or rolls back) with that
   * transaction: a state change and its audit record can then never be separated by a crash.
   */
  async record(input: AuditEventInput, manager?: SqlSession): Promise<void> {
    const event = normaliseAuditEvent(input);
    try {
      await (manager ? this.append(manager, [event]) : this.standalone.submit(event));
    } catch (error) {
      throw asRecordError(error);
    }
  }

  /**
   * Appends one event in the same statement as the caller's own change: `statement` is built by
   * `insertAuditEventsAfter`, and `parameters` are its own ($17 on), after the event's. One round
   * trip and one commit for both, which commit or roll back together. Any failure of the statement
   * (the caller's part included) rejects with `AuditRecordError`, without the driver's message.
   */
  async recordWith(input: AuditEventInput, session: SqlSession, statement: string, parameters: readonly unknown[]): Promise<void> {
    const event = normaliseAuditEvent(input);
    try {
      await this.repository.insertWith(session, statement, stamped([event]), parameters);
    } catch (error) {
      throw asRecordError(error);
    }
  }

  /**
   * Appends several events recorded on their own at once (a list page: one per patient shown), in
   * one shared write when they fit in one. Resolves when every one has committed; rejects, once all
   * have settled, when any could not be written (the caller returns nothing then).
   */
  async recordAll(inputs: readonly AuditEventInput[]): Promise<void> {
    const events = inputs.map(normaliseAuditEvent);
    const outcomes = await Promise.allSettled(this.standalone.submitAll(events));
    const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw asRecordError(failed.reason);
  }

  /** Inserts `events`, in order, inside the given transaction, in one statement. */
  private async append(manager: SqlSession, events: readonly NormalisedAuditEvent[]): Promise<void> {
    await this.repository.insert(manager, stamped(events));
  }

  /** Accepted break-glass accesses, newest first: `limit` of them below event id `before` (all when null). */
  async breakGlassUses(before: string | null, limit: number): Promise<{ items: BreakGlassUse[]; nextCursor: string | null }> {
    const rows = await this.repository.breakGlassPage(before, limit + 1);
    const items = rows.slice(0, limit);
    return { items, nextCursor: rows.length > limit ? items[items.length - 1].id : null };
  }
}

/** The events with the moment they are written (one moment for the events written together). */
function stamped(events: readonly NormalisedAuditEvent[]): (NormalisedAuditEvent & { occurredAt: string })[] {
  const occurredAt = toAuditTimestamp(new Date());
  return events.map((event) => ({ ...event, occurredAt }));
}

/** Any failure to write as the `AuditRecordError` callers fail closed on, without the driver's message. */
function asRecordError(error: unknown): AuditRecordError {
  if (error instanceof AuditRecordError) return error;
  if (error instanceof GroupCommitUnavailable) return new AuditUnavailableError();
  // 55P03 lock_not_available, 57014 query_canceled: the bounded write gave up.
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (code === '55P03' || code === '57014') return new AuditUnavailableError();
  // A driver error carries the statement's parameters (which may be PHI): keep only its SQLSTATE.
  return new AuditRecordError('could not record the audit event', typeof code === 'string' ? code : undefined);
}
