import { DataSource, QueryRunner } from 'typeorm';
import { runNamedStatement, runSimpleQuery } from '../schema/named-statement.repository';
import { CohortStatementName, IDENTITY_READ_SESSION_BEGIN, READ_SESSION_BEGIN } from './cohort.statements';
import { runCohortStatement } from './prepared-statement.repository';

/** Runs one named cohort statement inside the current read transaction. */
export type Run = <R>(name: CohortStatementName, params: unknown[]) => Promise<R[]>;

/**
 * Runs one fixed statement of another module over patient data (the worklist's, the access checks':
 * each listed in `src/database/statements.sql`) inside the current read transaction: unnamed, so it is
 * planned for its actual parameters (NULL-able filters and arrays would make a generic plan poor), or,
 * given `preparedAs`, as that named prepared statement (`runNamedStatement`: only a statement whose
 * generic plan is as good as one made for its values).
 */
export type Query = <R>(sql: string, params: unknown[], preparedAs?: string) => Promise<R[]>;

/** An open read transaction and its connection, with its two ways to run a statement. */
export interface OpenRead {
  runner: QueryRunner;
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

/** What a `RequestRead` holds: the read left open, if any, and whether its response's close is heard yet. */
interface RequestSlot {
  response: ClosingResponse;
  open?: OpenRead;
  listening: boolean;
}

/**
 * The cohort's read transactions: READ ONLY, as the SELECT-only `vigil_reader`, opened in one round
 * trip and ended by COMMIT (ROLLBACK on any error, so a connection goes back to the pool clean).
 * `inOneRead` hands its work one open read; a request's identity lookup may leave its transaction
 * open (`openForRequest`) for the request's `inOneRead` to continue, so a request's identity,
 * access check and reads cost one BEGIN and one COMMIT. Every other read gets its own.
 *
 * Nothing here is found from where the code runs (no AsyncLocalStorage: on Node 20 one that has ever
 * run makes every promise of the process pay an init hook): the open read and the request's slot are
 * handed in by the caller.
 */
export class ReadSessions {
  private readonly slots = new WeakMap<RequestRead, RequestSlot>();

  constructor(private readonly dataSource: DataSource) {}

  /** A place for the read `response`'s request leaves open (see `RequestRead`). */
  requestRead(response: ClosingResponse): RequestRead {
    const slot: RequestSlot = { response, listening: false };
    const request: RequestRead = { end: () => this.endLeftOpen(slot) };
    this.slots.set(request, slot);
    return request;
  }

  /**
   * `work`'s read opens a transaction that stays open in `request`'s slot for the request's
   * `inOneRead` to continue, and is ended when the response closes if nothing took it by then; a
   * transaction of its own when the slot holds one already.
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

  /** One transaction of its own on one pooled connection, opened with `begin` (`READ_SESSION_BEGIN` or a snapshot form). */
  async transaction<T>(work: (open: OpenRead) => Promise<T>, begin = READ_SESSION_BEGIN): Promise<T> {
    return this.within(await this.open(begin), work);
  }

  private slotOf(request: RequestRead): RequestSlot {
    const slot = this.slots.get(request);
    if (!slot) throw new Error('a request read that these read sessions did not make');
    return slot;
  }

  private leaveOpen(slot: RequestSlot, open: OpenRead): void {
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

  private async open(begin: string): Promise<OpenRead> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    let identityGeneration: number | undefined;
    try {
      // Several statements in one simple query: the driver answers one result per statement.
      const results = (await runSimpleQuery(runner, begin)) as { rows: Record<string, unknown>[] }[];
      // The identity opening's last statement reads the generation.
      if (begin === IDENTITY_READ_SESSION_BEGIN) identityGeneration = Number(results[results.length - 1].rows[0].generation);
    } catch (error) {
      // The opening is several statements: BEGIN may have run before a later one failed.
      await runSimpleQuery(runner, 'ROLLBACK').catch(() => undefined);
      await runner.release();
      throw error;
    }
    return {
      runner,
      run: <R>(name: CohortStatementName, params: unknown[]) => runCohortStatement<R>(runner, name, params),
      query: async <R>(sql: string, params: unknown[], preparedAs?: string) =>
        preparedAs === undefined ? ((await runner.query(sql, params)) as R[]) : runNamedStatement<R>(runner, preparedAs, sql, params),
      identityGeneration,
    };
  }

  /** Runs `work` in the open read, then ends it: COMMIT, or ROLLBACK when the work failed. */
  private async within<T>(open: OpenRead, work: (open: OpenRead) => Promise<T>): Promise<T> {
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

  /** Ends an open read and hands its connection back: COMMIT, or ROLLBACK after `failure`. */
  private async close(open: OpenRead, failure?: unknown): Promise<void> {
    try {
      await runSimpleQuery(open.runner, failure === undefined ? 'COMMIT' : 'ROLLBACK');
    } catch (error) {
      await runSimpleQuery(open.runner, 'ROLLBACK').catch(() => undefined);
      if (failure === undefined) throw error;
    } finally {
      await open.runner.release();
    }
  }
}
