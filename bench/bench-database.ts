import * as fixtures from '../fixtures';
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { loadFixtureCohort } from '../src/cohort/fixtures/fixture-loader';
import { dataSourceOptions } from '../src/data-source';
import { runMigrations } from '../src/database/schema';
import { TEST_ANCHOR_DATE } from '../test/setup/test-database';
import { databaseUrlOf } from './options';

/**
 * The bench database (`vigil_bench` by default) on the real Postgres: created, migrated, seeded
 * with the fixture staff and teams (and the fixture patients), then filled by the generator. What
 * it was generated with is kept as a comment on the database, so the next run with the same
 * settings only migrates. Kept after the run; drop it with `DROP DATABASE vigil_bench`.
 */

export interface CohortParameters {
  patients: number;
  seed: number;
}

export interface PreparedDatabase {
  url: string;
  postgresVersion: string;
  /** Null when the database was reused or the generator does not exist yet. */
  generatorSeconds: number | null;
  /** What happened, in a sentence for the report. */
  provenance: string;
  generated: boolean;
  counts: Record<string, number>;
}

const COUNTED = ['patients', 'encounters', 'observations', 'conditions', 'medications', 'procedures', 'clinical_notes', 'allergies', 'audit_events'];

export async function prepareBenchDatabase(
  options: { adminUrl: string; database: string; regenerate: boolean } & CohortParameters,
  log: (message: string) => void,
): Promise<PreparedDatabase> {
  const url = databaseUrlOf(options.adminUrl, options.database);
  const wanted = { generator: 'db:generate', patients: options.patients, seed: options.seed };
  const existing = await admin(options.adminUrl, async (client) => {
    const { rows } = await client.query<{ comment: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
      [options.database],
    );
    return rows.length ? { comment: rows[0].comment, recorded: parseRecord(rows[0].comment) } : null;
  });
  const recorded = existing?.recorded;
  const matches = recorded?.generator === wanted.generator && recorded.patients === wanted.patients && recorded.seed === wanted.seed;

  const reuse = matches && !options.regenerate;
  if (!reuse) {
    await admin(options.adminUrl, async (client) => {
      if (existing) {
        log(`${options.database} holds ${existing.comment ?? 'no recorded cohort'}; dropping it to generate ${JSON.stringify(wanted)}`);
        await client.query(`DROP DATABASE "${options.database}" WITH (FORCE)`);
      }
      log(`creating ${options.database}`);
      await client.query(`CREATE DATABASE "${options.database}"`);
    });
  }

  const dataSource = new DataSource(dataSourceOptions({ url, poolSize: 1 }));
  await dataSource.initialize();
  let postgresVersion: string;
  try {
    const applied = await runMigrations(dataSource);
    if (applied.length) log(`migrations applied: ${applied.join(', ')}`);
    if (!reuse) {
      log('seeding the fixture cohort (staff, care teams, ~30 patients)');
      await loadFixtureCohort(dataSource, fixtures, TEST_ANCHOR_DATE);
    }
    const [row] = await dataSource.query<{ version: string }[]>(`SELECT current_setting('server_version') AS version`);
    postgresVersion = `PostgreSQL ${row.version}`;
  } finally {
    await dataSource.destroy();
  }

  let generatorSeconds: number | null = null;
  let provenance: string;
  let generated = reuse;
  if (reuse) {
    generatorSeconds = recorded?.seconds ?? null;
    provenance =
      `reused ${options.database}, generated earlier with ${options.patients} patients, seed ${options.seed}` +
      (recorded?.generatedAt ? ` on ${recorded.generatedAt}` : '') +
      (recorded?.seconds ? ` in ${recorded.seconds.toFixed(1)} s` : '') +
      ' (this run applied pending migrations only)';
  } else if (!hasGenerator()) {
    provenance = `the generator (npm run db:generate) does not exist yet: ${options.database} holds the fixture cohort only`;
    log(provenance);
  } else {
    log(`generating ${options.patients} patients (seed ${options.seed}) with npm run db:generate (its build step first, untimed)`);
    const run = await runScriptTimed('db:generate', ['--patients', String(options.patients), '--seed', String(options.seed)], { DATABASE_URL: url }, log);
    generatorSeconds = run.seconds;
    log(`generator took ${generatorSeconds.toFixed(1)} s`);
    await admin(url, (client) => client.query('ANALYZE'));
    const record: CohortRecord = { ...wanted, seconds: generatorSeconds, generatedAt: new Date().toISOString() };
    await admin(options.adminUrl, (client) => client.query(`COMMENT ON DATABASE "${options.database}" IS ${literal(JSON.stringify(record))}`));
    provenance = `generated in this run: ${options.patients} patients, seed ${options.seed}, in ${generatorSeconds.toFixed(1)} s`;
    generated = true;
  }
  const counts = await admin(url, async (client) => {
    const result: Record<string, number> = {};
    for (const table of COUNTED) result[table] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
    return result;
  });
  return { url, postgresVersion, generatorSeconds, provenance, generated, counts };
}

interface CohortRecord {
  generator: string;
  patients: number;
  seed: number;
  seconds?: number;
  generatedAt?: string;
}

function parseRecord(comment: string | null): CohortRecord | null {
  try {
    return comment ? (JSON.parse(comment) as CohortRecord) : null;
  } catch {
    return null;
  }
}

/**
 * Runs `npm run <script> -- <args>` and times it. When the script starts with the build
 * (`npm run build … && <command>`), the build runs first, untimed, and only the command is timed.
 */
export async function runScriptTimed(script: string, args: string[], env: Record<string, string>, log: (message: string) => void): Promise<{ seconds: number; output: string }> {
  const command = packageScripts()[script];
  const build = /^npm run (?:-s )?build[^&]*&&\s*(.+)$/.exec(command ?? '');
  if (build) await runNpm(['run', '-s', 'build'], {}, () => undefined);
  const start = performance.now();
  const quoted = args.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  const output = build ? await runCommand('sh', ['-c', `${build[1]} ${quoted}`], env, log) : await runNpm(['run', '-s', script, '--', ...args], env, log);
  return { seconds: (performance.now() - start) / 1000, output };
}

export function hasGenerator(): boolean {
  return Boolean(packageScripts()['db:generate']);
}

export function packageScripts(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  return manifest.scripts ?? {};
}

/** Runs an npm script of this package, its output shown as it comes; rejects on a non-zero exit. */
export function runNpm(args: string[], env: Record<string, string>, log: (message: string) => void): Promise<string> {
  return runCommand(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, env, log);
}

/** Runs a command from the repository root, its output logged as it comes; rejects on a non-zero exit. */
export function runCommand(command: string, args: string[], env: Record<string, string>, log: (message: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: join(__dirname, '..', '..'),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const forward = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      for (const line of text.split('\n')) if (line.trim()) log(`  ${line.trimEnd()}`);
    };
    child.stdout.on('data', forward);
    child.stderr.on('data', forward);
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

async function admin<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
