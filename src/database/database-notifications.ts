import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { BehaviorSubject, defer, distinctUntilChanged, filter, finalize, map, NEVER, Observable, of, share, Subject } from 'rxjs';
import type { DatabaseTarget } from './data-source.options';

export const DATABASE_NOTIFICATIONS_TARGET = Symbol('DATABASE_NOTIFICATIONS_TARGET');

/** A channel is a fixed lower-case identifier: `LISTEN` takes no parameter, so it is written into the statement. */
const CHANNEL = /^[a-z][a-z0-9_]{0,62}$/;

/** The statement that subscribes this process's notification connection to `channel`. */
export function listenStatement(channel: string): string {
  if (!CHANNEL.test(channel)) throw new Error('a notification channel is a lower-case SQL identifier');
  return `LISTEN ${channel}`;
}

/** Waits between reconnection attempts: quick at first, then every 5 s while Postgres stays away. */
const reconnectDelayMs = (attempt: number) => Math.min(250 * 2 ** attempt, 5_000);

/**
 * Postgres notifications (`NOTIFY`, `pg_notify`) for this process: how a change committed by another
 * process (the admin command, another API process) reaches the ones that must react at once. A
 * notification is sent only when its transaction commits, so nothing is heard of a change that rolled
 * back. One connection of its own per process, opened when the first subscriber arrives (a process
 * nobody listens in, the worker, never opens it), closed when the last one leaves, and reopened with
 * backoff when the server ends it. While it is down notifications are missed, not queued: every
 * subscriber also checks the state it cares about on a timer of its own.
 *
 * On the embedded database there is nothing to hear: another process cannot open it while this one
 * has it, and a change made in this process is announced in-process.
 */
@Injectable()
export class DatabaseNotifications implements OnModuleDestroy {
  private readonly logger = new Logger(DatabaseNotifications.name);
  private readonly received = new Subject<{ channel: string; payload: string }>();
  /** The channels someone subscribes to (each stream is shared by its subscribers). */
  private readonly listeners = new Set<string>();
  private readonly streams = new Map<string, Observable<string>>();
  /** The channels subscribed on the open connection: a notification on any other may be missed now. */
  private readonly active = new BehaviorSubject<ReadonlySet<string>>(new Set());
  private client: Client | null = null;
  private connecting = false;
  private retry: NodeJS.Timeout | null = null;
  private attempt = 0;
  private stopped = false;
  private reachable: boolean | undefined;

  constructor(@Inject(DATABASE_NOTIFICATIONS_TARGET) private readonly target: Pick<DatabaseTarget, 'url' | 'embedded'>) {}

  /** The payload of every notification on `channel` from now on (shared by its subscribers). */
  on(channel: string): Observable<string> {
    listenStatement(channel);
    if (this.target.embedded) return NEVER;
    let stream = this.streams.get(channel);
    if (!stream) {
      stream = defer(() => {
        this.listen(channel);
        return this.received.pipe(
          filter((notification) => notification.channel === channel),
          map((notification) => notification.payload),
        );
      }).pipe(
        finalize(() => this.unlisten(channel)),
        share(),
      );
      this.streams.set(channel, stream);
    }
    return stream;
  }

  /**
   * Whether a notification on `channel` would be heard now: true once its `LISTEN` has taken effect on
   * the open connection, false from the moment that connection is lost (and on the embedded
   * database, where nothing is heard). What a subscriber that must not miss one (a cache) goes by.
   */
  listening(channel: string): Observable<boolean> {
    listenStatement(channel);
    if (this.target.embedded) return of(false);
    return this.active.pipe(
      map((channels) => channels.has(channel)),
      distinctUntilChanged(),
    );
  }

  onModuleDestroy(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.received.complete();
    this.close();
  }

  private listen(channel: string): void {
    this.listeners.add(channel);
    const client = this.client;
    if (client) {
      void client.query(listenStatement(channel)).then(
        () => {
          if (this.client === client && this.listeners.has(channel)) this.active.next(new Set([...this.active.value, channel]));
        },
        () => this.lost(),
      );
    } else this.connect();
  }

  private unlisten(channel: string): void {
    this.listeners.delete(channel);
    this.active.next(new Set([...this.active.value].filter((each) => each !== channel)));
    if (this.listeners.size === 0) this.close();
    else void this.client?.query(`UN${listenStatement(channel)}`).catch(() => this.lost());
  }

  private connect(): void {
    if (this.client || this.connecting || this.stopped || this.listeners.size === 0) return;
    this.connecting = true;
    const client = new Client({ connectionString: this.target.url, application_name: 'vigil-notifications', keepAlive: true, connectionTimeoutMillis: 5_000 });
    // An error on an idle connection would otherwise be thrown and end the process.
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => this.received.next({ channel: message.channel, payload: message.payload ?? '' }));
    const opened = async () => {
      await client.connect();
      for (const channel of this.listeners) await client.query(listenStatement(channel));
    };
    opened().then(
      () => {
        this.connecting = false;
        if (this.stopped || this.listeners.size === 0) return void client.end().catch(() => undefined);
        this.client = client;
        this.attempt = 0;
        this.active.next(new Set(this.listeners));
        if (this.reachable !== true) this.logger.log('Listening for database notifications');
        this.reachable = true;
      },
      (error: unknown) => {
        this.connecting = false;
        client.end().catch(() => undefined);
        this.report(error);
        this.schedule();
      },
    );
  }

  /** The connection went away: open another while anyone listens. */
  private lost(client: Client | null = this.client): void {
    if (!client || client !== this.client) return;
    this.client = null;
    this.active.next(new Set());
    client.end().catch(() => undefined);
    this.report(new Error('connection ended'));
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped || this.retry || this.listeners.size === 0) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect();
    }, reconnectDelayMs(this.attempt++));
    this.retry.unref();
  }

  private close(): void {
    const client = this.client;
    this.client = null;
    this.active.next(new Set());
    client?.end().catch(() => undefined);
  }

  /** Once per change of state, with the error's kind only (a driver message can name the server). */
  private report(error: unknown): void {
    if (this.reachable === false) return;
    this.reachable = false;
    this.logger.warn({ errorType: error instanceof Error ? error.constructor.name : typeof error }, 'Database notifications unavailable; reconnecting in the background');
  }
}
