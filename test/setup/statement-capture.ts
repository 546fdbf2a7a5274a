import { DataSource, QueryRunner, Logger as TypeOrmLogger } from 'typeorm';

/**
 * Calls `record` with every SQL text `dataSource` runs while `work` does, and the query runner it ran
 * on. Every statement is logged through the data source's logger, whether it went through TypeORM's
 * query runner or straight to the driver (the read sessions' BEGIN and COMMIT do), and TypeORM asks
 * the data source for its logger on every query, so swapping the logger's `logQuery` for the duration
 * sees them all (statements of other work on the same data source included: compare only what is yours).
 */
async function captureStatements(sources: Sources, work: () => Promise<unknown>, record: (query: string, runner?: QueryRunner) => void): Promise<void> {
  const dataSources = Array.isArray(sources) ? sources : [sources as DataSource];
  const loggers = dataSources.map((dataSource) => dataSource.logger);
  dataSources.forEach((dataSource, i) => {
    const capture: Partial<TypeOrmLogger> = { ...loggers[i], logQuery: (query: string, _parameters?: unknown[], runner?: QueryRunner) => record(query.trim(), runner) };
    Object.assign(dataSource, { logger: capture });
  });
  try {
    await work();
  } finally {
    dataSources.forEach((dataSource, i) => Object.assign(dataSource, { logger: loggers[i] }));
  }
}

/** One data source, or several (the service's pool and the reader pool: their statements in the order they ran). */
type Sources = DataSource | readonly DataSource[];

/** The SQL texts `dataSource` runs while `work` does, in order (see `captureStatements`). */
export async function statementsRunBy(dataSource: Sources, work: () => Promise<unknown>): Promise<string[]> {
  const executed: string[] = [];
  await captureStatements(dataSource, work, (query) => void executed.push(query));
  return executed;
}

/** The same, by the read each ran on (a query runner, or the connection a read holds: one per read; undefined for those run on neither). */
export async function statementsByRunner(dataSource: Sources, work: () => Promise<unknown>): Promise<Map<QueryRunner | undefined, string[]>> {
  const byRunner = new Map<QueryRunner | undefined, string[]>();
  await captureStatements(dataSource, work, (query, runner) => void byRunner.set(runner, [...(byRunner.get(runner) ?? []), query]));
  return byRunner;
}
