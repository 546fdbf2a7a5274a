import { Logger } from '@nestjs/common';
import { auditEventHash, GENESIS_HASH } from './audit-hash';
import { AuditCheckpoint, CheckpointExistsError, CheckpointStore, signCheckpoint } from './audit-checkpoint';
import { AuditTrailIdentity, readTrailIdentity } from './audit-trail-identity';
import { CHAIN_START, ChainPosition, insertSeals, NewSeal, oldestUnsealedMs, sealableEvents, sealHead, sealHorizon, SealerSession } from './audit-seal.repository';
import { SealHead, storedContent } from './audit.sql';
import { AuditSealStatus, AuditSealStatusSource } from './audit-seal-status';
import { RecentValues } from './recent-values';
import { SqlSession } from '../schema/sql-session';

export interface AuditSealerSettings {
  /** How often the leader looks for sealable events, and a standby tries to lead. */
  intervalMs: number;
  /** Events chained per transaction. */
  batchSize: number;
  /** A checkpoint once this many links were added since the last one… */
  checkpointEveryEvents: number;
  /** …or once this long has passed since the last one, if any link was added since. */
  checkpointIntervalMs: number;
}

/** The sealer's lag, for a metric or a health view: plain numbers, no event content. */
export interface AuditSealLag {
  /** Whether this process leads (only the leader's numbers move). */
  leader: boolean;
  /** The chain's length at the last pass (null before the first). */
  sealedSeq: number | null;
  /** Age of the oldest committed event not yet sealed, at the last pass (0 when none was waiting). */
  oldestUnsealedAgeMs: number;
  /** Insert to seal (seal commit − occurred_at) over the last `LAG_WINDOW` events this process sealed. */
  insertToSeal: { count: number; p50Ms: number; p99Ms: number; maxMs: number };
  /** The last batch this process sealed: how many events, and the longest insert to seal among them. */
  lastBatch: { count: number; maxInsertToSealMs: number; sealedAt: string } | null;
  /** The last checkpoint this process knows of (written or found at start). */
  lastCheckpointSeq: number;
  lastPassAt: string | null;
}

const LAG_WINDOW = 4096;

/** A link to append, with what the lag needs of its event. */
interface Link {
  seal: NewSeal;
  occurredAtMs: number;
  xactId: string;
}

class ChainHeadMissingError extends Error {
  constructor() {
    super('the event named by the chain head is missing');
    this.name = 'ChainHeadMissingError';
  }
}

/**
 * The audit chain's sealer. Request paths only insert events; the sealer chains them afterwards,
 * in one order every verifier can recompute:
 *
 *   chain order = (xact_id, id): the inserting transaction's id, then the event id,
 *
 * sealing only events whose transaction is older than every transaction still running in this
 * database (see `SELECT_SEAL_HORIZON`), so no event can later appear before one already sealed. Each batch is
 * one transaction that reads the head (seq, hash, position) and appends links after it: a sealer
 * killed at any point leaves either the whole batch or none of it, and the next pass, here or in
 * another process, starts again from the committed head. Links are unique per event, per seq and
 * per predecessor, so even two sealers racing could not duplicate or fork the chain (the loser's
 * transaction fails). One sealer leads at a time: the holder of a session-level advisory lock on
 * its own connection; the others retry each interval and take over when that connection is gone.
 *
 * After the links commit (durably), the leader writes a signed checkpoint of the head every
 * `checkpointEveryEvents` links or `checkpointIntervalMs`, to a store outside the database, naming
 * the trail it seals (read when it takes the lead), so databases sharing a store never meet.
 */
export class AuditSealer implements AuditSealStatusSource {
  private readonly logger = new Logger(AuditSealer.name);
  private session: SealerSession | undefined;
  private leading = false;
  /** The trail this process seals, read when it takes the lead: every checkpoint it writes names it. */
  private trail: AuditTrailIdentity | undefined;
  private lastCheckpoint = { seq: 0, atMs: 0 };
  private warnedAhead = false;
  private failing = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private readonly lags = new RecentValues(LAG_WINDOW);
  /** The last link this process committed. */
  private lastLink: Pick<SealHead, 'seq' | 'eventId' | 'hash'> | undefined;
  /**
   * Where the chain ended after this process's last batch (the head it read, or the last link it
   * committed), so the pass's lag needs no second read of the head.
   */
  private chainEnd: { head: Pick<SealHead, 'seq' | 'eventId' | 'hash'> | undefined; position: ChainPosition } | undefined;
  private state = {
    sealedSeq: null as number | null,
    oldestUnsealedAgeMs: 0,
    lastPassAt: null as string | null,
    lastBatch: null as AuditSealLag['lastBatch'],
  };

  constructor(
    private readonly connect: () => Promise<SealerSession>,
    private readonly store: CheckpointStore,
    private readonly key: Buffer,
    private readonly settings: AuditSealerSettings,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops after the pass in progress and closes the connection (which gives up the leadership). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await this.dropSession();
  }

  /**
   * The metrics' view: only the leader's numbers move, so a standby (or a process before its first
   * pass) reports nothing rather than a reassuring 0. No checkpoint yet: its age is NaN.
   */
  sealStatus(): AuditSealStatus | null {
    if (!this.leading || this.state.lastPassAt === null) return null;
    const checkpointAgeSeconds = this.lastCheckpoint.atMs > 0 ? (Date.now() - this.lastCheckpoint.atMs) / 1000 : Number.NaN;
    return { lagSeconds: this.state.oldestUnsealedAgeMs / 1000, checkpointAgeSeconds };
  }

  lag(): AuditSealLag {
    const sorted = this.lags.sorted();
    const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : 0);
    return {
      leader: this.leading,
      ...this.state,
      insertToSeal: { count: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted.length ? sorted[sorted.length - 1] : 0 },
      lastCheckpointSeq: this.lastCheckpoint.seq,
    };
  }

  /**
   * One pass: (re)connect, try to lead, and as leader seal everything sealable, checkpoint when due
   * and measure what is left. Resolves with the links it committed (also when it then failed).
   * Errors are logged (type and code only) and give up the connection, and with it the leadership;
   * the next pass, here or in another process, starts over from the committed head.
   */
  async pass(): Promise<number> {
    let total = 0;
    try {
      if (!this.session || this.session.broken) {
        await this.dropSession();
        this.session = await this.connect();
      }
      if (!this.leading) {
        this.leading = await this.session.tryLead();
        if (!this.leading) return 0;
        this.trail = await readTrailIdentity(this.session);
        await this.loadLastCheckpoint(this.trail);
        this.logger.log('This process now seals the audit chain');
      }
      for (;;) {
        const sealed = await this.sealBatch(this.session);
        total += sealed;
        // Per batch, so a long catch-up (after downtime) is checkpointed as it goes, not only at its end.
        if (sealed > 0 && this.lastLink) await this.checkpointIfDue(this.lastLink);
        if (sealed < this.settings.batchSize) break;
      }
      await this.afterPass(this.session);
      this.state.lastPassAt = new Date().toISOString();
      this.recovered();
    } catch (error) {
      this.failed(error);
      await this.dropSession();
    }
    return total;
  }

  /** Seals one batch in one transaction of `session`; resolves with the links added. */
  async sealBatch(session: Pick<SealerSession, 'transaction'>): Promise<number> {
    const batch = await session.transaction(async (db) => {
      const next = await this.nextLinks(db);
      if (next.links.length > 0) await insertSeals(db, next.links.map((link) => link.seal));
      return next;
    });
    const sealed = batch.links;
    const last = sealed[sealed.length - 1];
    this.chainEnd = last ? { head: last.seal, position: { xactId: last.xactId, id: last.seal.eventId } } : batch.end;
    const committedAt = Date.now();
    for (const link of sealed) this.remember(committedAt - link.occurredAtMs);
    if (sealed.length > 0) {
      const maxInsertToSealMs = Math.max(...sealed.map((link) => committedAt - link.occurredAtMs));
      this.state.lastBatch = { count: sealed.length, maxInsertToSealMs: Math.max(0, maxInsertToSealMs), sealedAt: new Date(committedAt).toISOString() };
      const { seq, eventId, hash } = sealed[sealed.length - 1].seal;
      this.lastLink = { seq, eventId, hash };
      this.state.sealedSeq = Number(seq);
    }
    return sealed.length;
  }

  /** The links for the next batch, computed from the committed head: the same inputs give the same links. */
  private async nextLinks(db: SqlSession): Promise<{ links: Link[]; end: NonNullable<AuditSealer['chainEnd']> }> {
    // First, before anything is read: see SELECT_SEAL_HORIZON.
    const horizon = await sealHorizon(db);
    const head = await sealHead(db);
    if (head?.eventMissing) throw new ChainHeadMissingError();
    const after: ChainPosition = head ? { xactId: head.xactId as string, id: head.eventId } : CHAIN_START;
    const events = await sealableEvents(db, after, horizon, this.settings.batchSize);
    let seq = head ? BigInt(head.seq) : 0n;
    let prevHash = head ? head.hash : GENESIS_HASH;
    const links: Link[] = [];
    for (const event of events) {
      seq += 1n;
      const hash = auditEventHash(storedContent(event, prevHash));
      links.push({ seal: { seq: seq.toString(), eventId: event.id, prevHash, hash }, occurredAtMs: Date.parse(event.occurredAt), xactId: event.xactId });
      prevHash = hash;
    }
    return { links, end: { head, position: after } };
  }

  /**
   * After a pass: how long the oldest committed, unsealed event has waited (committed, but behind a
   * transaction still running; 0 when none), and a checkpoint when one is due. From where the
   * pass's last batch left the chain: one index walk of what is left, not a scan of the trail.
   */
  private async afterPass(session: SealerSession): Promise<void> {
    const end = this.chainEnd ?? { head: undefined, position: CHAIN_START };
    const oldest = await oldestUnsealedMs(session, end.position);
    this.state.oldestUnsealedAgeMs = oldest === null ? 0 : Math.max(0, Date.now() - oldest);
    if (end.head) await this.checkpointIfDue(end.head);
  }

  private async checkpointIfDue(head: Pick<SealHead, 'seq' | 'eventId' | 'hash'>): Promise<void> {
    const seq = Number(head.seq);
    this.state.sealedSeq = seq;
    if (seq < this.lastCheckpoint.seq && !this.warnedAhead) {
      // A checkpoint of this trail names a link the chain does not have: its tail was removed.
      this.warnedAhead = true;
      this.logger.error({ chainSeq: seq, checkpointSeq: this.lastCheckpoint.seq }, 'Audit checkpoints are ahead of the chain: run audit-verify');
    }
    const since = seq - this.lastCheckpoint.seq;
    const due = since >= this.settings.checkpointEveryEvents || (since > 0 && Date.now() - this.lastCheckpoint.atMs >= this.settings.checkpointIntervalMs);
    if (!due) return;
    if (!this.trail) throw new Error('The sealer checkpoints only as leader, once it has read its trail');
    const trail = this.trail;
    const checkpoint = signCheckpoint({ trail, seq, eventId: head.eventId, head: head.hash, count: seq, sealedAt: new Date().toISOString() }, this.key);
    try {
      await this.store.write(checkpoint);
    } catch (error) {
      if (!(error instanceof CheckpointExistsError)) throw error;
      // Never overwritten: the stored one is evidence (a leader that died after writing it, or a store
      // shared with a copy of this trail). Not retried: the next one is due after the next interval.
      this.logger.error({ seq, trailId: trail.id }, 'Audit checkpoint not written: this trail already has one at this seq; run audit-verify');
      this.lastCheckpoint = { seq, atMs: Date.now() };
      return;
    }
    this.lastCheckpoint = { seq, atMs: Date.parse(checkpoint.sealedAt) };
    this.logger.log({ seq, eventId: head.eventId, keyId: checkpoint.keyId, trailId: trail.id }, 'Audit checkpoint written');
  }

  /** The latest checkpoint of this trail (another database's, sharing the store, says nothing about this chain). */
  private async loadLastCheckpoint(trail: AuditTrailIdentity): Promise<void> {
    const latest = (await this.store.list({ trailId: trail.id }))
      .flatMap((stored) => ('checkpoint' in stored && stored.checkpoint.trail.id === trail.id ? [stored.checkpoint] : []))
      .reduce<AuditCheckpoint | undefined>((best, checkpoint) => (!best || checkpoint.seq > best.seq ? checkpoint : best), undefined);
    this.lastCheckpoint = latest ? { seq: latest.seq, atMs: Date.parse(latest.sealedAt) || 0 } : { seq: 0, atMs: 0 };
  }

  private remember(lagMs: number): void {
    this.lags.add(Math.max(0, lagMs));
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.pass()
        .then(() => undefined)
        .finally(() => {
          this.running = undefined;
          this.schedule(this.settings.intervalMs);
        });
    }, delayMs);
  }

  private async dropSession(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (this.leading) this.logger.warn('This process no longer seals the audit chain');
    this.leading = false;
    await session?.close();
  }

  /** Logged once per change of state, never per pass: a database that is down would flood the log. */
  private failed(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    const code = (error as { code?: unknown } | null)?.code;
    const fields = { type: error instanceof Error ? error.name : typeof error, ...(typeof code === 'string' ? { code } : {}) };
    this.logger.warn({ err: fields }, 'Audit sealer pass failed; retrying');
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.logger.log('Audit sealer passes succeed again');
  }
}
