import type { PoolClient, QueryResult } from 'pg';
import { DataSource, QueryFailedError, QueryRunner } from 'typeorm';

/**
 * A connection statements are sent on straight to the driver: the pg client, and the data source whose
 * logger sees each statement (the one the client was taken from). The logger is told of `session`
 * (the query runner the statements ran on), or else of this object, as the query runner: one per
 * read, so a log can group a read's statements as it does a query runner's.
 */
export interface DriverConnection {
  readonly client: PoolClient;
  readonly dataSource: DataSource;
  readonly session?: object;
}

/**
 * Runs `text` on the connection as the named prepared statement `name`: parsed and analysed once per
 * pooled connection instead of on every call (the driver keeps the name per connection and sends
 * only Bind/Execute afterwards). Only for statements whose plan does not depend on their parameters'
 * values: after five runs Postgres may switch a named statement to a generic plan. TypeORM's
 * `runner.query` cannot pass a name, so this goes to the pg client; it logs and wraps errors as
 * `runner.query` does, so the statement capture and the error shape are the same either way. This
 * module is the only place that sends statements past TypeORM to the driver.
 */
export async function runNamedStatement<R>(on: QueryRunner | DriverConnection, name: string, text: string, values: unknown[]): Promise<R[]> {
  const sent = withFixedLists(values);
  const result = await onConnection(on, text, values, (client) => client.query({ name, text, values: sent }));
  return result.rows as R[];
}

/** Runs `text` unnamed (parsed and planned for these values), logged and wrapped as `runNamedStatement`. */
export async function runUnnamedStatement<R>(on: DriverConnection, text: string, values: unknown[]): Promise<R[]> {
  const sent = withFixedLists(values);
  const result = await onConnection(on, text, values, (client) => client.query(text, sent));
  return result.rows as R[];
}

/**
 * Sends `text` (one statement or several, without parameters) on the connection as one simple query,
 * and gives the driver's answer: one result, or one per statement when there are several (which
 * `runner.query` does not hand back). For transaction control (BEGIN, COMMIT, ROLLBACK):
 * `runner.query` would run TypeORM's query-event broadcaster around each (a dozen promises per
 * request) for statements no subscriber is ever told about. Logged and wrapped as `runner.query` does.
 */
export function runSimpleQuery(on: QueryRunner | DriverConnection, text: string): Promise<QueryResult | QueryResult[]> {
  return onConnection(on, text, undefined, (client) => client.query(text) as Promise<QueryResult | QueryResult[]>);
}

/** Runs `send` on the pg client, logging `text` and wrapping a failure as `runner.query` does. */
async function onConnection<T>(on: QueryRunner | DriverConnection, text: string, values: unknown[] | undefined, send: (client: PoolClient) => Promise<T>): Promise<T> {
  const connection = 'client' in on ? on : driverConnectionOf(on);
  const { client, dataSource } = connection;
  // The logger is looked up on every statement, as TypeORM does: a test may swap it to capture statements.
  const logger = dataSource.logger;
  const runner = (connection.session ?? connection) as QueryRunner;
  logger.logQuery(text, values, runner);
  try {
    return await send(client);
  } catch (error) {
    logger.logQueryError(error as Error, text, values, runner);
    throw new QueryFailedError(text, values, error as Error);
  }
}

/** The query runner's pg client (TypeORM keeps it as `databaseConnection`, with no public accessor). */
function driverConnectionOf(runner: QueryRunner): DriverConnection {
  const client = (runner as unknown as { databaseConnection?: PoolClient }).databaseConnection;
  if (!client) throw new Error('the query runner has no connection');
  return { client, dataSource: runner.connection, session: runner };
}

/** The array literal of each fixed list sent so far (see `withFixedLists`). */
const literals = new WeakMap<readonly unknown[], string>();

/**
 * `values` with each fixed list (a frozen array of strings and nulls: the code lists of the care-gap
 * reads, a cached identity's care teams) replaced by its Postgres array literal, made on its first
 * use and kept while the list lives: pg would otherwise encode the same list again on every call.
 * The literal is the text pg sends for the array (`postgresArrayLiteral`), so the server sees the
 * same bytes. `values` itself when it holds no fixed list; never changed.
 */
export function withFixedLists(values: unknown[]): unknown[] {
  let sent = values;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (!Array.isArray(value) || !Object.isFrozen(value)) continue;
    let literal = literals.get(value);
    if (literal === undefined) {
      const made = postgresArrayLiteral(value);
      if (made === null) continue;
      literals.set(value, (literal = made));
    }
    if (sent === values) sent = values.slice();
    sent[i] = literal;
  }
  return sent;
}

/**
 * The text pg sends for a one-dimensional array of strings and nulls (its `prepareValue`): each
 * string double-quoted with backslashes and double quotes escaped by a backslash, a null as NULL.
 * Null for any other array (pg encodes those itself).
 */
export function postgresArrayLiteral(list: readonly unknown[]): string | null {
  let literal = '{';
  for (let i = 0; i < list.length; i += 1) {
    const item = list[i];
    if (i > 0) literal += ',';
    if (item === null || item === undefined) literal += 'NULL';
    else if (typeof item === 'string') literal += `"${item.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    else return null;
  }
  return `${literal}}`;
}
