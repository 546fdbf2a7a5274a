import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { connectionOptions, connectionTimeouts, DatabaseTarget } from './data-source.options';
import { startEmbeddedPostgres } from './embedded-postgres';
import { runMigrations } from './schema';

export interface PreparedDatabase {
  target: DatabaseTarget;
  stop(): Promise<void>;
}

/** The explicit seeding step: loads the fixture cohort into the database at `url` and says what it loaded. */
export type SeedFixtures = (url: string, anchorDate: string | undefined) => Promise<{ anchorDate: string; patients: number; staffUsers: number }>;

/**
 * Where the seeding step comes from, handed in by the composition root (`() => import(…)`): it is
 * loaded only when start-up seeds (the embedded default, or FIXTURES_SEED_ON_START), so a start-up
 * on the organisation's own database never loads the fixtures.
 */
export type SeedingStep = () => Promise<{ seedFixtureCohort: SeedFixtures }>;

/**
 * Decides which Postgres Vigil uses and gets it ready before the app starts. Without DATABASE_URL
 * it starts the embedded database, migrates it and loads the fixture cohort, and says so. With
 * DATABASE_URL it only migrates or seeds when told to (DATABASE_MIGRATE_ON_START,
 * FIXTURES_SEED_ON_START): a real database is never seeded silently.
 */
export async function prepareDatabase(config: AppConfig, log: Logger, seeding: SeedingStep): Promise<PreparedDatabase> {
  const { database } = config;
  if (database.url) {
    // Neither host nor port in the log: start-up lines are shipped to log stores that need neither.
    log.info('Using the Postgres server from DATABASE_URL');
    const target = { url: database.url, poolSize: database.poolSize, embedded: false, timeouts: connectionTimeouts(config) };
    // Migrating (and seeding) is the tables' owner's work: DATABASE_MIGRATION_URL when the roles are split.
    await initialise({ ...target, url: database.migrationUrl ?? database.url }, database.migrateOnStart, database.seedOnStart ? seeding : null, config, log);
    return { target, stop: async () => undefined };
  }

  if (config.env === 'production') log.warn('Production on the embedded database with the fixture staff (VIGIL_ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION)');
  log.info(
    { location: database.embeddedDir },
    'No DATABASE_URL set: starting the embedded Postgres (PGlite); it will be migrated and loaded with the fixture cohort',
  );
  const embedded = await startEmbeddedPostgres(database.embeddedDir);
  // PGlite is a single backend shared by every client: one pooled connection keeps transactions apart.
  // No connection bounds: PGlite (0.5) ignores them in the start-up packet, and even after
  // `SET statement_timeout` a `pg_sleep(2)` runs to the end: without timer signals in WebAssembly it
  // cannot enforce them.
  const target = { url: embedded.url, poolSize: 1, embedded: true };
  try {
    await initialise(target, true, seeding, config, log);
  } catch (error) {
    await embedded.stop();
    throw error;
  }
  return { target, stop: () => embedded.stop() };
}

async function initialise(target: DatabaseTarget, migrate: boolean, seeding: SeedingStep | null, config: AppConfig, log: Logger) {
  if (migrate) {
    // Migrations are SQL of their own: no entity is needed to run them.
    const dataSource = new DataSource(connectionOptions({ url: target.url, poolSize: 1 }, []));
    await dataSource.initialize();
    try {
      const applied = await runMigrations(dataSource);
      log.info({ applied }, applied.length ? 'Applied database migrations' : 'Database schema is up to date');
    } finally {
      await dataSource.destroy();
    }
  }
  if (seeding) {
    const { seedFixtureCohort } = await seeding();
    const result = await seedFixtureCohort(target.url, config.fixtures.anchorDate);
    log.info(result, 'Loaded the fixture cohort');
  }
}
