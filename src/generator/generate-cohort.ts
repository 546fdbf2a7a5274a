import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { copyStatement, TABLE_WRITERS } from './copy-format';
import { copyFile, copyInto, dropObjects, quote, recreateObjects, RowSink, secondaryObjects, spoolTo } from './copy-loader';
import { GENERATED_MRN_PREFIX, IdFactory } from './ids';
import { CohortContext, generatePatientRecord } from './patient-record';
import { GENERATED_TABLES, GeneratedTable } from './rows';
import { dayStart } from './time';

export interface GenerateOptions {
  patients: number;
  seed: number;
  /** `YYYY-MM-DD`: the day relative dates count back from. */
  anchor: string;
  /** Care-team codes to spread patients across; all existing teams when absent. */
  careTeams?: readonly string[];
  /** Delete an existing generated cohort first instead of refusing. */
  replace?: boolean;
  /** Progress lines (a handful per run). */
  progress?: (line: string) => void;
}

export interface GenerateSummary {
  patients: number;
  seed: number;
  anchor: string;
  careTeams: string[];
  replacedPatients: number;
  rows: Record<GeneratedTable, number>;
  phases: { name: string; seconds: number }[];
  seconds: number;
}

/** A run that must not go ahead (the message says why and what to do); the database is unchanged. */
export class GeneratorRefusal extends Error {}

/** The table streamed straight into COPY while generating; the rest are spooled to temporary files. */
const LIVE_TABLE: GeneratedTable = 'observations';

/**
 * Generates the cohort and loads it with COPY in ONE transaction on one connection, so a failed or
 * interrupted run leaves the database exactly as it was. Inside it: the loaded tables' secondary
 * indexes and foreign keys are dropped, observations stream into COPY as patients are generated
 * (the other tables spool to temporary files and are copied after), and the indexes and keys are
 * recreated from the DDL the catalog gave, before commit. VACUUM (ANALYZE) runs after commit.
 */
export async function generateCohort(dataSource: DataSource, options: GenerateOptions): Promise<GenerateSummary> {
  validateOptions(options);
  const progress = options.progress ?? (() => undefined);
  const phases: GenerateSummary['phases'] = [];
  const started = performance.now();
  const phase = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const begin = performance.now();
    const result = await work();
    phases.push({ name, seconds: (performance.now() - begin) / 1000 });
    return result;
  };

  const [client, release] = (await (dataSource.driver as PostgresDriver).obtainMasterConnection()) as [PoolClient, () => void];
  const spoolDir = mkdtempSync(join(tmpdir(), 'vigil-generate-'));
  const sinks = new Map<GeneratedTable, RowSink>();
  let committed = false;
  try {
    await client.query('BEGIN');
    const prepared = await phase('prepare', () => prepare(client, options));
    const objects = await phase('drop indexes', async () => {
      const found = await secondaryObjects(client, GENERATED_TABLES);
      await dropObjects(client, found);
      return found;
    });
    if (prepared.existing > 0) await phase('delete previous cohort', () => deleteGenerated(client));

    const context: CohortContext = {
      seed: options.seed,
      anchorMs: dayStart(options.anchor),
      careTeamIds: prepared.careTeamIds,
      ids: new IdFactory(options.seed),
    };
    for (const writer of TABLE_WRITERS) {
      sinks.set(writer.table, writer.table === LIVE_TABLE ? copyInto(client, copyStatement(writer)) : spoolTo(join(spoolDir, writer.table)));
    }
    await phase(`generate + COPY ${LIVE_TABLE}`, async () => {
      const step = Math.max(1, Math.ceil(options.patients / 10));
      for (let index = 0; index < options.patients; index++) {
        const record = generatePatientRecord(context, index);
        for (const writer of TABLE_WRITERS) {
          const { text, rows } = writer.lines(record);
          if (rows > 0) await (sinks.get(writer.table) as RowSink).write(text, rows);
        }
        if ((index + 1) % step === 0 && index + 1 < options.patients) {
          progress(`  generated ${index + 1} of ${options.patients} patients (${((performance.now() - started) / 1000).toFixed(1)} s)`);
        }
      }
      for (const sink of sinks.values()) await sink.end();
    });
    await phase('COPY other tables', async () => {
      for (const writer of TABLE_WRITERS) {
        if (writer.table !== LIVE_TABLE) await copyFile(client, copyStatement(writer), join(spoolDir, writer.table));
      }
    });
    await phase('recreate indexes and foreign keys', () => recreateObjects(client, objects));
    await phase('commit', () => client.query('COMMIT'));
    committed = true;
    // VACUUM as well as ANALYZE: a bulk load leaves no visibility map and no hint bits, so until
    // autovacuum came round every index-only probe fetched the heap (a worklist page probed 3,000
    // team memberships that way at 100,000 patients) and the first reader of each page wrote it.
    await phase('vacuum and analyze', () => client.query(`VACUUM (ANALYZE) ${GENERATED_TABLES.map(quote).join(', ')}`));

    const rows = Object.fromEntries(TABLE_WRITERS.map((writer) => [writer.table, (sinks.get(writer.table) as RowSink).rows]));
    return {
      patients: options.patients,
      seed: options.seed,
      anchor: options.anchor,
      careTeams: prepared.careTeamCodes,
      replacedPatients: prepared.existing,
      rows: rows as GenerateSummary['rows'],
      phases,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (error) {
    for (const sink of sinks.values()) sink.destroy();
    if (!committed) await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    rmSync(spoolDir, { recursive: true, force: true });
    release();
  }
}

/** Refuses a patient count, seed or anchor out of range (the same rules for the COPY load and the FHIR export). */
export function validateOptions(options: Pick<GenerateOptions, 'patients' | 'seed' | 'anchor'>): void {
  if (!Number.isInteger(options.patients) || options.patients < 1 || options.patients > 10_000_000) {
    throw new GeneratorRefusal('--patients must be a whole number from 1 to 10,000,000.');
  }
  if (!Number.isInteger(options.seed) || options.seed < 0 || options.seed > 2_147_483_647) {
    throw new GeneratorRefusal('--seed must be a whole number from 0 to 2147483647.');
  }
  const day = /^\d{4}-\d{2}-\d{2}$/.test(options.anchor) ? new Date(`${options.anchor}T00:00:00Z`) : new Date(NaN);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== options.anchor) {
    throw new GeneratorRefusal('--anchor must be an existing day as YYYY-MM-DD.');
  }
}

/**
 * Takes a lock only one generator can hold, resolves the care teams, and counts an existing
 * generated cohort: refused unless `replace`, and refused even then if approvals or agent turns
 * point at those patients (their foreign keys forbid deleting them).
 */
async function prepare(client: PoolClient, options: GenerateOptions) {
  await client.query('LOCK TABLE "patients" IN SHARE ROW EXCLUSIVE MODE');
  // Index builds at the end of the load are faster with more memory (this transaction only).
  await client.query(`SET LOCAL maintenance_work_mem = '512MB'`);
  const { careTeamIds, careTeamCodes } = await resolveCareTeams(async (sql) => (await client.query<{ id: string; code: string }>(sql)).rows, options.careTeams);

  const existing = Number(
    (await client.query<{ count: string }>(`SELECT count(*) AS count FROM patients WHERE mrn LIKE $1`, [`${GENERATED_MRN_PREFIX}%`])).rows[0].count,
  );
  if (existing > 0 && !options.replace) {
    throw new GeneratorRefusal(
      `This database already holds a generated cohort (${existing} patients with MRNs ${GENERATED_MRN_PREFIX}…); nothing was changed. ` +
        'Re-run with --replace to delete it and generate again, or start over on a fresh database (createdb, npm run db:migrate, npm run db:seed).',
    );
  }
  if (existing > 0) {
    const referenced = await client.query<{ count: string }>(
      `SELECT (SELECT count(*) FROM proposals p JOIN patients x ON x.id = p.patient_id WHERE x.mrn LIKE $1)
            + (SELECT count(*) FROM agent_turns t JOIN patients x ON x.id = t.patient_id WHERE x.mrn LIKE $1) AS count`,
      [`${GENERATED_MRN_PREFIX}%`],
    );
    if (Number(referenced.rows[0].count) > 0) {
      throw new GeneratorRefusal(
        `Proposals or agent turns refer to generated patients (${referenced.rows[0].count}); --replace cannot delete them. ` +
          'Start over on a fresh database (createdb, npm run db:migrate, npm run db:seed).',
      );
    }
  }
  return { careTeamIds, careTeamCodes, existing };
}

/** The care teams patients are spread across, by code (every team when none is named); unknown codes are refused. */
export async function resolveCareTeams(query: (sql: string) => Promise<{ id: string; code: string }[]>, codes: readonly string[] | undefined) {
  const teams = { rows: await query('SELECT id, code FROM care_teams ORDER BY code') };
  if (teams.rows.length === 0) throw new GeneratorRefusal('No care teams exist. Load the fixture cohort first: npm run db:seed.');
  const wanted = codes ?? teams.rows.map((team) => team.code);
  const unknown = wanted.filter((code) => !teams.rows.some((team) => team.code === code));
  if (unknown.length > 0 || wanted.length === 0) {
    throw new GeneratorRefusal(
      `Unknown care team(s): ${unknown.join(', ') || '(none given)'}. Existing: ${teams.rows.map((team) => team.code).join(', ')}.`,
    );
  }
  return { careTeamIds: wanted.map((code) => (teams.rows.find((team) => team.code === code) as { id: string }).id), careTeamCodes: [...wanted] };
}

/** Deletes the generated patients and their records, child tables first (foreign keys are dropped at this point). */
async function deleteGenerated(client: PoolClient): Promise<void> {
  const generated = `SELECT id FROM patients WHERE mrn LIKE '${GENERATED_MRN_PREFIX}%'`;
  for (const table of [...GENERATED_TABLES].reverse()) {
    if (table === 'patients') continue;
    await client.query(`DELETE FROM ${quote(table)} WHERE patient_id IN (${generated})`);
  }
  await client.query(`DELETE FROM patients WHERE mrn LIKE '${GENERATED_MRN_PREFIX}%'`);
}
