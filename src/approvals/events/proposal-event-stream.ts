import { HttpStatus, Inject, Injectable, Logger, MessageEvent, Optional } from '@nestjs/common';
import { AuditOutcome } from '../../audit';
import { catchError, concatMap, defer, EMPTY, exhaustMap, filter, from, interval, map, merge, mergeMap, NEVER, Observable, of, take, takeUntil, takeWhile, timer } from 'rxjs';
import { AccessContext } from '../../access/access-context';
import { AccessService, QUEUE_READERS } from '../../access/access.service';
import { ProblemException } from '../../common/http/problem';
import { toSafeError } from '../../common/logging/log-redaction';
import { AuditedAccess } from '../../access/audited-access.service';
import { ACCESS_ENDED_CHANNEL } from '../../cohort/staff-directory.repository';
import { DatabaseNotifications } from '../../database/database-notifications';
import { ProposalsRepository } from '../proposals.repository';
import { ProposalChange, ProposalEvents } from './proposal-events';

export interface ProposalStreamSettings {
  /** How often a stream asks the database for changes (other processes' changes arrive this way). */
  pollMs: number;
  /** A comment this often keeps proxies from closing an idle stream, and finds clients that left. */
  heartbeatMs: number;
  /**
   * How far back each poll looks before the newest change sent. `updated_at` is the writing
   * transaction's START, so a change can become visible after newer ones: the overlap catches any
   * transaction shorter than this, and de-duplication drops what was sent already.
   */
  lookbackMs: number;
  /** Rows per poll statement, and statements per poll, so one busy moment cannot flood a stream. */
  pageSize: number;
  maxPagesPerPoll: number;
}

/** Which of these patients the subscriber may see now (the access module's `events.subscribe`). */
export type VisiblePatients = (patientIds: string[]) => Promise<Set<string>>;

export const PROPOSAL_STREAM_SETTINGS = Symbol('PROPOSAL_STREAM_SETTINGS');
export const DEFAULT_STREAM_SETTINGS: ProposalStreamSettings = { pollMs: 2_000, heartbeatMs: 15_000, lookbackMs: 10_000, pageSize: 200, maxPagesPerPoll: 5 };

export const EVENT_CREATED = 'proposal.created';
export const EVENT_UPDATED = 'proposal.updated';
const TOKEN_EXPIRED: MessageEvent = { comment: 'token expired' };
const ACCESS_ENDED: MessageEvent = { comment: 'access ended' };
/** The messages after which a stream ends: its last comment says why. */
const LAST_MESSAGES = new Set([TOKEN_EXPIRED, ACCESS_ENDED]);

/**
 * One caller's live review queue: changes announced in this process (filtered by a care-team
 * query) merged with a poll of the database (filtered by the same join), each state of a proposal
 * sent once and never an older state after a newer one.
 */
@Injectable()
export class ProposalEventStream {
  private readonly logger = new Logger(ProposalEventStream.name);
  private readonly settings: ProposalStreamSettings;

  constructor(
    private readonly repository: ProposalsRepository,
    private readonly bus: ProposalEvents,
    private readonly access: AccessService,
    private readonly phi: AuditedAccess,
    private readonly notifications: DatabaseNotifications,
    @Optional() @Inject(PROPOSAL_STREAM_SETTINGS) settings?: Partial<ProposalStreamSettings>,
  ) {
    this.settings = { ...DEFAULT_STREAM_SETTINGS, ...settings };
  }

  /**
   * Opening the stream is one audited access (`events.subscribe`; its row names the fields every
   * event carries), refusals included. It takes no parameters at all, and any is refused by name:
   * above all a token in the query string (where EventSource users are tempted to put it, and from
   * where it would reach proxy logs). Answers the subscriber's visibility check for `open`.
   */
  subscribe(context: AccessContext, queryFields: string[]): Promise<VisiblePatients> {
    return this.phi.audited(context, null, async () => {
      if (queryFields.length > 0) {
        throw new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'This route takes no parameters.',
          queryFields.map((field) => ({ field, reason: 'unknown_field', message: `${field} is not a known field` })));
      }
      if (!context.caller) throw new Error('only a staff user subscribes to the review queue');
      const { visiblePatients } = this.access.eventsSubscribe(context.caller);
      return { value: visiblePatients, fields: ['id', 'status', 'kind', 'patientId', 'currentVersion', 'updatedAt', 'deliveries'], rowCount: 0, outcome: AuditOutcome.Success };
    });
  }

  /**
   * The stream for staff user `userId`: changes whose patient `visiblePatients` says they may see
   * now. It ends when their token does (`endsAt`, ms since the epoch): a stream never outlives the
   * credential that opened it, and the client reconnects with a fresh token. It also ends when its
   * person is deactivated (`accessEnded`). A removal from a care team only narrows what it sends:
   * both of its sources read membership at the moment of each change. `correlationId` (the request
   * that opened it) goes on the stream's log lines.
   */
  open(userId: string, visiblePatients: VisiblePatients, endsAt?: number, correlationId: string | null = null): Observable<MessageEvent> {
    const roles = QUEUE_READERS;
    const expiry = endsAt === undefined ? NEVER : timer(new Date(endsAt)).pipe(map((): MessageEvent => TOKEN_EXPIRED));
    const stream = defer(() => {
      const log = new ChangeLog(isoMicros(Date.now()));
      const announced = this.bus.changes.pipe(concatMap((change) => this.ifVisible(change, visiblePatients)));
      // exhaustMap: a tick that comes while a slow poll runs is dropped, not queued behind it.
      const polled = interval(this.settings.pollMs).pipe(
        exhaustMap(() => this.poll(userId, roles, log, correlationId)),
        mergeMap((changes) => changes),
      );
      const changes = merge(announced, polled).pipe(
        filter((change) => log.accept(change)),
        map(toMessage),
      );
      const heartbeat = interval(this.settings.heartbeatMs).pipe(map((): MessageEvent => ({ comment: 'heartbeat' })));
      // Sent at once: Nest writes the response headers with the first message.
      return merge(of<MessageEvent>({ comment: 'connected' }), changes, heartbeat);
    });
    // The expiry (or access) comment is the last message sent; then the stream completes and Nest ends the response.
    return merge(stream, expiry, this.accessEnded(userId, roles)).pipe(
      takeWhile((message) => !LAST_MESSAGES.has(message), true),
      takeUntil(this.bus.shutdown),
    );
  }

  /**
   * Emits once when `userId` is no longer active in a role that reads the queue: checked as soon as
   * the admin command's notification arrives (every API process hears it at the commit), and on every
   * poll, which bounds the cut-off at one poll interval when a notification was missed (the
   * notification connection down, or the stream opened in the instant of the deactivation).
   */
  private accessEnded(userId: string, roles: readonly string[]): Observable<MessageEvent> {
    const told = this.notifications.on(ACCESS_ENDED_CHANNEL).pipe(
      filter((staffUserId) => staffUserId === userId),
      mergeMap(() => this.stillActive(userId, roles)),
    );
    const polled = interval(this.settings.pollMs).pipe(exhaustMap(() => this.stillActive(userId, roles)));
    return merge(told, polled).pipe(
      filter((active) => !active),
      take(1),
      map((): MessageEvent => ACCESS_ENDED),
    );
  }

  /** A failed check is not a deactivation: the stream stays open through a database outage, and the next tick asks again. */
  private async stillActive(userId: string, roles: readonly string[]): Promise<boolean> {
    try {
      const [row] = await this.repository.run<{ active: boolean }>('streamSubscriberActive', [userId, roles]);
      return row.active;
    } catch {
      return true;
    }
  }

  private ifVisible(change: ProposalChange, visiblePatients: VisiblePatients): Observable<ProposalChange> {
    return from(visiblePatients([change.patientId])).pipe(
      mergeMap((visible) => (visible.has(change.patientId) ? of(change) : EMPTY)),
      // Dropped, not lost: the next poll reads it again through the same care-team join.
      catchError(() => EMPTY),
    );
  }

  private async poll(userId: string, roles: readonly string[], log: ChangeLog, correlationId: string | null): Promise<ProposalChange[]> {
    const found: ProposalChange[] = [];
    try {
      let since = log.pollFrom(this.settings.lookbackMs);
      for (let page = 0; page < this.settings.maxPagesPerPoll; page += 1) {
        const rows = await this.repository.run<ProposalChange>('changedSince', [userId, roles, since, this.settings.pageSize]);
        found.push(...rows);
        if (rows.length < this.settings.pageSize) break;
        since = rows[rows.length - 1].updatedAt;
      }
    } catch (error) {
      // The stream stays open through a database outage; the next tick tries again.
      this.logger.warn({ err: toSafeError(error as Error), correlationId }, 'Live queue poll failed; retrying at the next tick');
    }
    return found;
  }
}

/**
 * What one stream has sent: the newest `updatedAt` per proposal. Timestamps are compared as text,
 * which is exact because every one has the same shape (`YYYY-MM-DDTHH:MM:SS.ffffffZ`).
 */
export class ChangeLog {
  private readonly sent = new Map<string, string>();

  constructor(private newest: string) {}

  /** True for a state of a proposal newer than any sent on this stream (so the same state twice is false). */
  accept(change: ProposalChange): boolean {
    const previous = this.sent.get(change.id);
    if (previous !== undefined && previous >= change.updatedAt) return false;
    this.sent.set(change.id, change.updatedAt);
    if (change.updatedAt > this.newest) this.newest = change.updatedAt;
    return true;
  }

  /** Where the next poll starts; forgets proposals last sent before it (a poll cannot return them again). */
  pollFrom(lookbackMs: number): string {
    const from = isoMicros(Date.parse(this.newest) - lookbackMs);
    for (const [id, at] of this.sent) if (at < from) this.sent.delete(id);
    return from;
  }
}

/** A JavaScript time in the statements' shape (microseconds), so that it compares with theirs as text. */
export function isoMicros(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '000Z');
}

function toMessage(change: ProposalChange): MessageEvent {
  const { id, status, kind, patientId, currentVersion, updatedAt, deliveries } = change;
  // Entering review and the change's own timestamp come from one transaction's now(): equal only for
  // the change that put it into review (its filing, or its author's submit of a draft), which is news
  // of a new proposal to the queue. Rows without `submittedAt` (older announcements) use `createdAt`.
  const type = (change.submittedAt ?? change.createdAt) === updatedAt ? EVENT_CREATED : EVENT_UPDATED;
  return { type, data: { id, status, kind, patientId, currentVersion, updatedAt, deliveries: deliveries ?? [] } };
}
