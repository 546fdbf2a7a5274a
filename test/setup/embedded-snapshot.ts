import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/data-source';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { runMigrations } from '../../src/database/schema';

const PREFIX = 'vigil-test-pglite-';
const MIGRATIONS = join(__dirname, '..', '..', 'src', 'database', 'migrations');
/** A snapshot no run has used for this long is another branch's or an old schema's: removed. */
const UNUSED_FOR_MS = 24 * 3600 * 1000;

/**
 * A migrated embedded database (PGlite) for the tests that need one migrated but otherwise untouched.
 * A new PGlite directory runs initdb and then every migration inside WebAssembly: about 6 s of CPU
 * (3 s and 2.5 s), which on a loaded two-core machine outlasted a two-minute hook, while opening a
 * copy is about 0.5 s. So the global setup makes one per schema, kept in the temporary directory
 * under the hash of the migrations and PGlite's version, and runs after it (a developer's, or CI's
 * on the same machine) reuse it: a migration changed makes another. The test of how Vigil prepares
 * a new embedded database (embedded-database.int-case.ts) still starts from nothing.
 */
export async function ensureEmbeddedSnapshot(): Promise<string> {
  const directory = join(tmpdir(), `${PREFIX}${schemaHash()}`);
  if (existsSync(join(directory, 'PG_VERSION'))) {
    const now = new Date();
    utimesSync(directory, now, now);
  } else {
    await createSnapshot(directory);
  }
  removeUnusedSnapshots(directory);
  return directory;
}

/**
 * Puts a migrated embedded database in `directory` (which must not exist yet), as a copy of the
 * snapshot: the same schema and migration rows, and also the same installation id and system
 * identifier as every other copy, so that two copies are one audit trail to their checkpoints
 * (give each its own AUDIT_CHECKPOINT_DIR).
 */
export function copyMigratedEmbeddedDatabase(directory: string): void {
  const snapshot = process.env.VIGIL_TEST_EMBEDDED_SNAPSHOT;
  if (!snapshot) throw new Error('VIGIL_TEST_EMBEDDED_SNAPSHOT is not set: run the tests through Jest (npm test)');
  cpSync(snapshot, directory, { recursive: true, errorOnExist: true, force: false });
}

/** Built beside its final name and renamed into place, so a run never copies half of one; a concurrent run's wins. */
async function createSnapshot(directory: string): Promise<void> {
  const building = join(mkdtempSync(`${directory}-building-`), 'pglite');
  try {
    const embedded = await startEmbeddedPostgres(building);
    try {
      const dataSource = await new DataSource(dataSourceOptions({ url: embedded.url, poolSize: 1 })).initialize();
      try {
        await runMigrations(dataSource);
      } finally {
        await dataSource.destroy();
      }
    } finally {
      await embedded.stop();
    }
    try {
      renameSync(building, directory);
    } catch (error) {
      if (!['EEXIST', 'ENOTEMPTY'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  } finally {
    rmSync(join(building, '..'), { recursive: true, force: true });
  }
}

function schemaHash(): string {
  const hash = createHash('sha256');
  // Its package exports no package.json; the entry point is dist/index.cjs beside it.
  const pglite = JSON.parse(readFileSync(join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8')) as { version: string };
  hash.update(`pglite ${pglite.version}\n`);
  for (const name of readdirSync(MIGRATIONS).sort()) hash.update(`${name}\n`).update(readFileSync(join(MIGRATIONS, name)));
  return hash.digest('hex').slice(0, 16);
}

function removeUnusedSnapshots(keep: string): void {
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name);
    if (!name.startsWith(PREFIX) || path === keep) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > UNUSED_FOR_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Another run removed it first.
    }
  }
}
