import type { PoolClient } from 'pg';
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
  const client = (runner as unknown as { databaseConnection?: PoolClient }).databaseConnection;
  if (!client) throw new Error('the query runner has no connection');
  const logger = runner.connection.logger;
  logger.logQuery(text, values, runner);
  try {
    const result = await client.query({ name, text, values });
    return result.rows as R[];
  } catch (error) {
    logger.logQueryError(error as Error, text, values, runner);
    throw new QueryFailedError(text, values, error as Error);
  }
}
