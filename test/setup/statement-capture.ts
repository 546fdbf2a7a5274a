import { DataSource, Logger as TypeOrmLogger } from 'typeorm';

/**
 * The SQL texts `dataSource` runs while `work` does, in order. TypeORM asks the data source for its
 * logger on every query, so swapping the logger's `logQuery` for the duration sees them all
 * (statements of other work on the same data source included: compare only what is yours).
 */
export async function statementsRunBy(dataSource: DataSource, work: () => Promise<unknown>): Promise<string[]> {
  const logger = dataSource.logger;
  const executed: string[] = [];
  const capture: Partial<TypeOrmLogger> = { ...logger, logQuery: (query: string) => void executed.push(query.trim()) };
  Object.assign(dataSource, { logger: capture });
  try {
    await work();
  } finally {
    Object.assign(dataSource, { logger });
  }
  return executed;
}
