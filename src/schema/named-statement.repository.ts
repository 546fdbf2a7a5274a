import type { PoolClient, QueryResult } from 'pg';
import { QueryFailedError, QueryRunner } from 'typeorm';

/**
 * Runs `text` on the query runner's connection as the named prepared statement `name`: parsed and
 * analysed once per pooled connection instead of on every call (the driver keeps the name per
 * connection and sends only Bind/Execute afterwards). Only for statements whose plan does not depend
 * on their parameters' values: after five runs Postgres may switch a named statement to a generic plan.
 * TypeORM's `runner.query` cannot pass a name, so this goes to the runner's pg client; it logs and
 * wraps errors as `runner.query` does, so the statement capture and the error shape are the same
 * either way. This is the only place that reaches past TypeORM to the driver.
 */
export async function runNamedStatement<R>(runner: QueryRunner, name: string, text: string, values: unknown[]): Promise<R[]> {
  const result = await onConnection(runner, text, values, (client) => client.query({ name, text, values }));
  return result.rows as R[];
}

/**
 * Sends `text` (one statement or several, without parameters) on the query runner's connection as
 * one simple query, and gives the driver's answer: one result, or one per statement when there are
 * several (which `runner.query` does not hand back). For transaction control (BEGIN, COMMIT,
 * ROLLBACK): `runner.query` would run TypeORM's query-event broadcaster around each (a dozen
 * promises per request) for statements no subscriber is ever told about. Logged and wrapped as
 * `runner.query` does.
 */
export function runSimpleQuery(runner: QueryRunner, text: string): Promise<QueryResult | QueryResult[]> {
  return onConnection(runner, text, undefined, (client) => client.query(text) as Promise<QueryResult | QueryResult[]>);
}

/** Runs `send` on the runner's pg client, logging `text` and wrapping a failure as `runner.query` does. */
async function onConnection<T>(runner: QueryRunner, text: string, values: unknown[] | undefined, send: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = (runner as unknown as { databaseConnection?: PoolClient }).databaseConnection;
  if (!client) throw new Error('the query runner has no connection');
  const logger = runner.connection.logger;
  logger.logQuery(text, values, runner);
  try {
    return await send(client);
  } catch (error) {
    logger.logQueryError(error as Error, text, values, runner);
    throw new QueryFailedError(text, values, error as Error);
  }
}
