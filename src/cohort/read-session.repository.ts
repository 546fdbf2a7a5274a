import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, QueryRunner } from 'typeorm';
import { CohortStatementName, IDENTITY_READ_SESSION_BEGIN, READ_SESSION_BEGIN } from './cohort.statements';
import { runNamedStatement } from '../schema/named-statement.repository';
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

/** A request's read left open (`open`), and whether the request has ended (`closed`): nothing may be left open then. */
interface RequestSlot {
  open?: OpenRead;
  closed: boolean;
}

/**
 * One HTTP request's slot for a read transaction left open by the caller's identity lookup
 * (`staffUserByUsername(…, { keepOpen: true })`) for the request's one `inOneRead` to continue.
 */
export interface RequestReadScope {
  /** Runs the rest of the request (the guard, pipes and handler) with this slot. */
  run(next: () => void): void;
  /** Ends a read still left open (the request never reached its read): called when the response closes. */
  close(): Promise<void>;
}

/**
 * The cohort's read transactions: READ ONLY, as the SELECT-only `vigil_reader`, opened in one round
 * trip and ended by COMMIT (ROLLBACK on any error, so a connection goes back to the pool clean).
 * Reads inside `inOneRead` share one transaction; a request's identity lookup may leave its
 * transaction open (`openForRequest`) for that `inOneRead` to continue, so a request's identity,
 * access check and reads cost one BEGIN and one COMMIT. Every read outside a scope gets its own.
 */
export class ReadSessions {
  /** The read transaction of the enclosing `inOneRead`, if any. */
  private readonly scope = new AsyncLocalStorage<OpenRead>();
  /** The current HTTP request's slot for a read left open by its identity lookup, if any. */
  private readonly requestSlot = new AsyncLocalStorage<RequestSlot>();

  constructor(private readonly dataSource: DataSource) {}

  /** The enclosing `inOneRead`'s transaction, or a transaction of `work`'s own opened with `begin`. */
  read<T>(work: (open: OpenRead) => Promise<T>, begin = READ_SESSION_BEGIN): Promise<T> {
    const shared = this.scope.getStore();
    return shared ? work(shared) : this.transaction(work, begin);
  }

  /**
   * `work`'s first read opens a transaction that, inside a request scope with nothing open and no
   * `inOneRead` around, stays open for the request's `inOneRead` to continue; anywhere else this is `read`.
   */
  async openForRequest<T>(work: (open: OpenRead) => Promise<T>, begin = READ_SESSION_BEGIN): Promise<T> {
    const slot = this.requestSlot.getStore();
    if (!slot || slot.open || this.scope.getStore()) return this.read(work, begin);
    const open = await this.open(begin);
    try {
      const result = await work(open);
      // The response may have closed while the lookup ran: then no one would end the read later.
      if (slot.closed) await this.close(open);
      else slot.open = open;
      return result;
    } catch (error) {
      await this.close(open, error);
      throw error;
    }
  }

  /** A slot for one HTTP request's read left open by its identity lookup (see `RequestReadScope`). */
  requestReadScope(): RequestReadScope {
    const slot: RequestSlot = { closed: false };
    return {
      run: (next) => this.requestSlot.run(slot, next),
      close: () => {
        slot.closed = true;
        return this.endOpenRead(slot);
      },
    };
  }

  /** Commits and hands back the read this request's identity lookup left open, if any. */
  endRequestRead(): Promise<void> {
    const slot = this.requestSlot.getStore();
    return slot ? this.endOpenRead(slot) : Promise.resolve();
  }

  /**
   * Runs `work` with every read inside it sharing one read transaction: the one the request's
   * identity lookup left open, when there is one, else a new one. Nested calls join the outer one.
   */
  inOneRead<T>(work: () => Promise<T>): Promise<T> {
    if (this.scope.getStore()) return work();
    const slot = this.requestSlot.getStore();
    const left = slot?.open;
    if (slot && left) {
      // Continue the read the request's identity lookup left open; it ends here, as its own would.
      slot.open = undefined;
      return this.within(left, (open) => this.scope.run(open, work));
    }
    return this.transaction((open) => this.scope.run(open, work));
  }

  /** One transaction of its own on one pooled connection, opened with `begin` (`READ_SESSION_BEGIN` or a snapshot form). */
  async transaction<T>(work: (open: OpenRead) => Promise<T>, begin = READ_SESSION_BEGIN): Promise<T> {
    return this.within(await this.open(begin), work);
  }

  private async endOpenRead(slot: RequestSlot): Promise<void> {
    const open = slot.open;
    slot.open = undefined;
    if (open) await this.close(open);
  }

  private async open(begin: string): Promise<OpenRead> {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as { query(text: string): Promise<{ rows: Record<string, unknown>[] }[]> };
    let identityGeneration: number | undefined;
    try {
      if (begin === IDENTITY_READ_SESSION_BEGIN) {
        // Several statements in one simple query: the driver answers one result per statement (the generation is the
        // last), which TypeORM's query does not hand back; logged as TypeORM logs every statement it runs.
        this.dataSource.logger.logQuery(begin, undefined, runner);
        const results = await client.query(begin);
        identityGeneration = Number(results[results.length - 1].rows[0].generation);
      } else await runner.query(begin);
    } catch (error) {
      // The opening is several statements: BEGIN may have run before a later one failed.
      await runner.query('ROLLBACK').catch(() => undefined);
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
      if (failure === undefined) await open.runner.query('COMMIT');
      else await open.runner.query('ROLLBACK');
    } catch (error) {
      await open.runner.query('ROLLBACK').catch(() => undefined);
      if (failure === undefined) throw error;
    } finally {
      await open.runner.release();
    }
  }
}
