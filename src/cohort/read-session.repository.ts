import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { Pool, QueryResult } from 'pg';
import { DriverConnection, runNamedStatement, runSimpleQuery, runUnnamedStatement } from '../schema/named-statement.repository';
import { CohortStatementName } from './cohort.statements';
import { IDENTITY_GENERATION, IDENTITY_READ_SESSION_BEGIN, READ_SESSION_BEGIN } from './read-session.statements';
import { runCohortStatement } from './prepared-statement.repository';

/** Runs one named cohort statement in the current read (on its connection, and in its transaction where it is one). */
export type Run = <R>(name: CohortStatementName, params: unknown[]) => Promise<R[]>;

/**
 * Runs one fixed statement of another module over patient data (the worklist's, the access checks':
 * each listed in `src/database/statements.sql`) in the current read: unnamed, so it is
 * planned for its actual parameters (NULL-able filters and arrays would make a generic plan poor), or,
 * given `preparedAs`, as that named prepared statement (`runNamedStatement`: only a statement whose
 * generic plan is as good as one made for its values).
 */
export type Query = <R>(sql: string, params: unknown[], preparedAs?: string) => Promise<R[]>;

/** An open read (a transaction, or on the reader pool a connection held), with its two ways to run a statement. */
export interface OpenRead {
  run: Run;
  query: Query;
  /** The identity generation its opening read (`IDENTITY_READ_SESSION_BEGIN`); undefined when opened otherwise. */
  identityGeneration?: number;
}

/**
 * One HTTP request's place for the read its identity lookup leaves open (`CohortRepository.staffUserBy`
 * with `keepOpenFor`), until the request's first `inOneRead` continues it. Travels with the request
 * (the auth guard puts it on the request, the access context carries it); nothing outside the cohort
 * module can reach the read itself.
 */
export interface RequestRead {
  /** Commits and hands back the read if it is still left open (the request will not reach it: a refusal is being recorded, say). */
  end(): Promise<void>;
}

/** The response of the request a read is left open for: when it closes, a read no one took is ended. */
export interface ClosingResponse {
  /** Whether the response has closed already (then nothing may be left open). */
  readonly closed: boolean;
  once(event: 'close', listener: () => void): unknown;
}

/** An open read as these sessions know it: its pooled connection, and whether it is a transaction to end. */
interface Session extends OpenRead {
  connection: DriverConnection;
  transaction: boolean;
}

/** What a `RequestRead` holds: the read left open, if any, and whether its response's close is heard yet. */
interface RequestSlot {
  response: ClosingResponse;
  open?: Session;
  listening: boolean;
}

/** How a read opens: the simple query it starts with (none: nothing to send), and whether that begins a transaction. */
interface Opening {
  text: string | null;
  transaction: boolean;
}

/** The name the identity generation read is prepared under, on the reader pool's connections. */
const IDENTITY_GENERATION_PREPARED = 'identity.generation';

/**
 * The cohort's reads, READ ONLY and as the SELECT-only `vigil_reader`, in one of two modes chosen at
 * start (by the composition root: whether there is a reader pool):
 * - on a Postgres server, the reader pool (`ReaderPool`), whose connections are `vigil_reader` and
 *   read-only from their start-up: a READ COMMITTED read sends no BEGIN, SET LOCAL ROLE or COMMIT, each
 *   statement runs on its own (READ COMMITTED takes a snapshot per statement anyway), and a failed
 *   statement leaves nothing open; only a REPEATABLE READ read (a snapshot form of `begin`) opens a
 *   transaction;
 * - without one (the embedded database: one shared backend), every read is a transaction on the
 *   service's pool, opened in one round trip (`READ_SESSION_BEGIN`: READ ONLY, SET LOCAL ROLE) and
 *   ended by COMMIT (ROLLBACK on any error, so a connection goes back to the pool clean).
 * `inOneRead` hands its work one open read; a request's identity lookup may leave its read open
 * (`openForRequest`) for the request's `inOneRead` to continue, so a request's identity, access
 * check and reads take one connection from the pool (and, as transactions, cost one BEGIN and one
 * COMMIT). Every other read gets its own.
 *
 * Nothing here is found from where the code runs (no AsyncLocalStorage: on Node 20 one that has ever
 * run makes every promise of the process pay an init hook): the open read and the request's slot are
 * handed in by the caller.
 */
export class ReadSessions {
  private readonly slots = new WeakMap<RequestRead, RequestSlot>();

  /** `readers`: the reader pool (see the class); null reads in transactions on `dataSource`. */
  constructor(
    private readonly dataSource: DataSource,
    private readonly readers: DataSource | null = null,
  ) {}

  /** A place for the read `response`'s request leaves open (see `RequestRead`). */
  requestRead(response: ClosingResponse): RequestRead {
    const slot: RequestSlot = { response, listening: false };
    const request: RequestRead = { end: () => this.endLeftOpen(slot) };
    this.slots.set(request, slot);
    return request;
  }

  /**
   * `work`'s read stays open in `request`'s slot (its connection held, and its transaction when it
   * is one) for the request's `inOneRead` to continue, and is ended when the response closes if
   * nothing took it by then; a read of its own when the slot holds one already.
   */
  async openForRequest<T>(request: RequestRead, work: (open: OpenRead) => Promise<T>, begin = READ_SESSION_BEGIN): Promise<T> {
    const slot = this.slotOf(request);
    if (slot.open) return this.transaction(work, begin);
    const open = await this.open(begin);
    try {
      const result = await work(open);
      // The response may have closed while the lookup ran: then no one would end the read later.
      if (slot.response.closed) await this.close(open);
      else this.leaveOpen(slot, open);
      return result;
    } catch (error) {
      await this.close(open, error);
      throw error;
    }
  }

  /**
   * Runs `work` with one open read, ended when it settles: the one `request`'s identity lookup left
   * open, when there is one, else a new one.
   */
  inOneRead<T>(work: (open: OpenRead) => Promise<T>, request?: RequestRead): Promise<T> {
    const slot = request && this.slotOf(request);
    const left = slot?.open;
    if (!slot || !left) return this.transaction(work);
    // Continue the read the request's identity lookup left open; it ends here, as its own would.
    slot.open = undefined;
    return this.within(left, work);
  }

  /** One read of its own on one pooled connection, opened as `begin` says (`READ_SESSION_BEGIN`, its identity form, or a snapshot form). */
  async transaction<T>(work: (open: OpenRead) => Promise<T>, begin = READ_SESSION_BEGIN): Promise<T> {
    return this.within(await this.open(begin), work);
  }

  private slotOf(request: RequestRead): RequestSlot {
    const slot = this.slots.get(request);
    if (!slot) throw new Error('a request read that these read sessions did not make');
    return slot;
  }

  private leaveOpen(slot: RequestSlot, open: Session): void {
    slot.open = open;
    if (slot.listening) return;
    slot.listening = true;
    slot.response.once('close', () => void this.endLeftOpen(slot).catch(() => undefined));
  }

  private async endLeftOpen(slot: RequestSlot): Promise<void> {
    const open = slot.open;
    slot.open = undefined;
    if (open) await this.close(open);
  }

  /**
   * On the reader pool a READ COMMITTED read sends nothing to open (its identity form only the
   * generation read, the read's first statement); a snapshot form opens its transaction as given.
   */
  private opening(begin: string): Opening {
    if (!this.readers) return { text: begin, transaction: true };
    if (begin === READ_SESSION_BEGIN) return { text: null, transaction: false };
    if (begin === IDENTITY_READ_SESSION_BEGIN) return { text: IDENTITY_GENERATION, transaction: false };
    return { text: begin, transaction: true };
  }

  /**
   * Takes a connection straight from the pool's driver (no TypeORM query runner: its broadcaster and
   * bookkeeping cost several kilobytes and a dozen promises per read, for events no one listens to)
   * and sends the read's opening on it.
   */
  private async open(begin: string): Promise<Session> {
    const { text, transaction } = this.opening(begin);
    const dataSource = this.readers ?? this.dataSource;
    const client = await ((dataSource.driver as PostgresDriver).master as Pool).connect();
    const session: Session = {
      connection: { client, dataSource },
      transaction,
      run: <R>(name: CohortStatementName, params: unknown[]) => runCohortStatement<R>(session.connection, name, params),
      query: <R>(sql: string, params: unknown[], preparedAs?: string) =>
        preparedAs === undefined ? runUnnamedStatement<R>(session.connection, sql, params) : runNamedStatement<R>(session.connection, preparedAs, sql, params),
    };
    try {
      const results = await this.send(session.connection, text, transaction);
      // The identity opening's last statement reads the generation.
      if (begin === IDENTITY_READ_SESSION_BEGIN) session.identityGeneration = Number(results[results.length - 1].rows[0].generation);
    } catch (error) {
      // A transaction's opening is several statements: BEGIN may have run before a later one failed.
      this.release(session, transaction ? await this.rolledBack(session.connection) : undefined);
      throw error;
    }
    return session;
  }

  /**
   * Sends a read's opening, answering one result per statement. A transaction's opening is several
   * statements in one simple query (the driver answers one result each); the generation read alone,
   * on the reader pool, is a prepared statement (no parse or plan per request).
   */
  private async send(connection: DriverConnection, text: string | null, transaction: boolean): Promise<Pick<QueryResult, 'rows'>[]> {
    if (text === null) return [];
    if (!transaction) return [{ rows: await runNamedStatement<Record<string, unknown>>(connection, IDENTITY_GENERATION_PREPARED, text, []) }];
    const results = await runSimpleQuery(connection, text);
    return Array.isArray(results) ? results : [results];
  }

  /** Runs `work` in the open read, then ends it: COMMIT, or ROLLBACK when the work failed. */
  private async within<T>(open: Session, work: (open: OpenRead) => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await work(open);
    } catch (error) {
      await this.close(open, error);
      throw error;
    }
    await this.close(open);
    return result;
  }

  /**
   * Ends an open read and hands its connection back: a transaction by COMMIT, or ROLLBACK after
   * `failure`; a read outside one has nothing open on the server (a failed statement ended itself).
   * A connection whose transaction could not be ended is closed, never pooled with it open.
   */
  private async close(open: Session, failure?: unknown): Promise<void> {
    let broken: Error | undefined;
    try {
      if (open.transaction && failure === undefined) await runSimpleQuery(open.connection, 'COMMIT');
      else if (open.transaction) broken = await this.rolledBack(open.connection);
    } catch (error) {
      // The COMMIT failed: its transaction may be open still.
      broken = await this.rolledBack(open.connection);
      throw error;
    } finally {
      this.release(open, broken);
    }
  }

  /** Sends ROLLBACK, answering the error when it failed (then the connection may hold a transaction still). */
  private async rolledBack(connection: DriverConnection): Promise<Error | undefined> {
    try {
      await runSimpleQuery(connection, 'ROLLBACK');
      return undefined;
    } catch (error) {
      return error as Error;
    }
  }

  /** Hands the connection back to its pool: closed instead when `broken` (pg's pool discards a client released with an error). */
  private release(open: Session, broken?: Error): void {
    open.connection.client.release(broken);
  }
}
