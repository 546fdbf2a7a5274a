import { DataSource } from 'typeorm';

/** Applies pending migrations; returns the names of those applied. */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const applied = await dataSource.runMigrations({ transaction: 'each' });
  return applied.map((migration) => migration.name);
}

/** Reverts every applied migration, newest first; returns how many were reverted. */
export async function revertAllMigrations(dataSource: DataSource): Promise<number> {
  let reverted = 0;
  while (await hasAppliedMigrations(dataSource)) {
    await dataSource.undoLastMigration({ transaction: 'each' });
    reverted += 1;
  }
  return reverted;
}

async function hasAppliedMigrations(dataSource: DataSource): Promise<boolean> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const exists = await dataSource.query<{ exists: boolean }[]>(`SELECT to_regclass($1) IS NOT NULL AS "exists"`, [table]);
  if (!exists[0]?.exists) return false;
  const rows = await dataSource.query<{ count: string }[]>(`SELECT count(*)::text AS count FROM "${table}"`);
  return Number(rows[0]?.count) > 0;
}

/**
 * The DDL TypeORM would generate to make the database match the entities. Empty means the
 * migrations and the entities agree; anything else is a migration someone forgot to write.
 */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return log.upQueries.map((query) => query.query);
}

/** Host, port and database name of a connection URL: safe to log (no user or password). */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
  } catch {
    return '(unparseable URL)';
  }
}
