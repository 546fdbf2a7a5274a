import * as fixtures from '../fixtures';
import 'reflect-metadata';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { loadFixtureCohort } from '../src/cohort/fixtures/fixture-loader';
import { dataSourceOptions } from '../src/data-source';
import { runMigrations } from '../src/database/schema';
import { TEST_ANCHOR_DATE } from '../test/setup/test-database';
import { packageScripts, runScriptTimed } from './bench-database';
import { databaseUrlOf } from './options';

/**
 * FHIR import throughput: `npm run import:fhir` on a FHIR R4 folder (by default the 80 Synthea
 * patients beside the repository, `../shared/external-data/synthea-r4-smart-80/fhir-r4-ndjson`;
 * BENCH_FHIR_SOURCE overrides) into a throwaway database (`<bench database>_import`: migrated,
 * seeded for the care teams, dropped afterwards). Resources are counted from the source (NDJSON
 * lines, Bundle entries); the time is the import command's alone (the build runs first, untimed).
 */

export type ImportResult =
  | { skipped: string }
  | { source: string; resources: number; seconds: number; perSecond: number; secondRunSeconds: number; summary: string };

export async function measureImport(options: { adminUrl: string; database: string; source?: string; root: string }, log: (message: string) => void): Promise<ImportResult> {
  const script = packageScripts()['import:fhir'];
  if (!script) return { skipped: 'the FHIR importer (npm run import:fhir) does not exist yet' };
  const source = options.source ?? join(options.root, '..', 'shared', 'external-data', 'synthea-r4-smart-80', 'fhir-r4-ndjson');
  if (!existsSync(source)) return { skipped: `no FHIR source at ${source} (set BENCH_FHIR_SOURCE)` };
  const resources = countResources(source);

  const name = `${options.database}_import`;
  const url = databaseUrlOf(options.adminUrl, name);
  await admin(options.adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  try {
    const dataSource = new DataSource(dataSourceOptions({ url, poolSize: 1 }));
    await dataSource.initialize();
    try {
      await runMigrations(dataSource);
      await loadFixtureCohort(dataSource, fixtures, TEST_ANCHOR_DATE);
    } finally {
      await dataSource.destroy();
    }
    const run = () => runScriptTimed('import:fhir', [source, '--care-team', 'primary-care-north'], { DATABASE_URL: url }, log);
    log(`importing ${resources} resources from ${source}`);
    const first = await run();
    log(`re-importing the same source (idempotent: should change nothing)`);
    const second = await run();
    const lines = first.output.trim().split('\n');
    const table = lines.findIndex((line) => /resource type/i.test(line));
    return {
      source,
      resources,
      seconds: first.seconds,
      perSecond: resources / first.seconds,
      secondRunSeconds: second.seconds,
      summary: (table >= 0 ? lines.slice(table) : lines.slice(-16)).join('\n'),
    };
  } finally {
    await admin(options.adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).catch(() => undefined);
  }
}

function countResources(path: string): number {
  if (statSync(path).isDirectory()) return readdirSync(path).reduce((sum, file) => sum + countResources(join(path, file)), 0);
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.ndjson')) return text.split('\n').filter((line) => line.trim()).length;
  if (path.endsWith('.json')) {
    const parsed = JSON.parse(text) as { resourceType?: string; entry?: unknown[] };
    return parsed.resourceType === 'Bundle' ? (parsed.entry?.length ?? 0) : 1;
  }
  return 0;
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
