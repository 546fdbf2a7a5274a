import { DataSource, QueryRunner } from 'typeorm';
import { STATEMENT_OF_TABLE, TABLE_COLUMNS, WRITE_ORDER } from './fhir-import.sql';
import { MappedResource, Row, TableName, WriteOutcome } from './fhir-import.types';

/** SQLSTATE classes that mean "this row's data", not "the database or connection": 21 cardinality, 22 data exception, 23 integrity. */
const isDataError = (error: unknown) => /^2[123]/.test(String((error as { code?: unknown }).code ?? ''));

/**
 * Known constraints, as reasons a reader can act on; others are named by constraint (never by value).
 * (A shared MRN is no longer one: it is imported and reported as a warning, see `patientsWithSharedMrn`.)
 * A person or team the import would create with an identifier someone else already holds is refused,
 * never merged: joining two records of people is a decision for a person.
 */
const CONSTRAINT_REASONS: Record<string, string> = {
  CHK_observations_value_or_absent: 'observation has neither a value nor a data-absent reason',
  UQ_975b4ddfa7b30b64ac26cefbad0: 'its username is taken by another staff member (not merged)',
  UQ_staff_users_email: 'its e-mail address belongs to another staff member (not merged)',
  UQ_staff_users_npi: 'its NPI belongs to another staff member (not merged)',
  UQ_staff_users_fhir_practitioner_id: 'a Practitioner with this id was imported from another source (not merged)',
  UQ_de7c13b0a0e0831527f47e9d860: 'its care-team code is taken by another team (not merged)',
  UQ_care_teams_fhir_care_team_id: 'a CareTeam with this id was imported from another source (not merged)',
};

function refusal(error: unknown): string {
  const { code, constraint } = error as { code?: string; constraint?: string };
  if (constraint && CONSTRAINT_REASONS[constraint]) return CONSTRAINT_REASONS[constraint];
  return `refused by the database (SQLSTATE ${code ?? 'unknown'}${constraint ? `, ${constraint}` : ''})`;
}

/**
 * Writes a batch in one transaction. When Postgres refuses it for a data reason, the batch is rolled
 * back and retried one item per transaction, so the bad item is refused alone (`refused`, with the
 * reason) and nothing of it is half-written. Any other error (connection lost, …) propagates: batches
 * committed before it stay, and a re-run finishes the job because every write is idempotent.
 */
export async function writeBatch<T, R>(
  dataSource: DataSource,
  items: T[],
  write: (runner: QueryRunner, items: T[]) => Promise<R[]>,
  refused: (item: T, reason: string) => R,
): Promise<R[]> {
  if (items.length === 0) return [];
  try {
    return await inTransaction(dataSource, (runner) => write(runner, items));
  } catch (error) {
    if (!isDataError(error)) throw error;
    if (items.length === 1) return [refused(items[0], refusal(error))];
  }
  const results: R[] = [];
  for (const item of items) {
    try {
      results.push(...(await inTransaction(dataSource, (runner) => write(runner, [item]))));
    } catch (error) {
      if (!isDataError(error)) throw error;
      results.push(refused(item, refusal(error)));
    }
  }
  return results;
}

async function inTransaction<R>(dataSource: DataSource, work: (runner: QueryRunner) => Promise<R>): Promise<R> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    const result = await work(runner);
    await runner.commitTransaction();
    return result;
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction();
    throw error;
  } finally {
    await runner.release();
  }
}

/** The result of writing a batch: each resource's outcome, or why the database refused it. */
export type WriteResult = { resource: MappedResource; outcome: WriteOutcome } | { resource: MappedResource; refused: string };

/**
 * Writes resources a batch at a time: all rows of a batch in one transaction, one statement per
 * table, retried one resource per transaction when Postgres refuses the batch (`writeBatch`).
 */
export class ResourceWriter {
  constructor(private readonly dataSource: DataSource) {}

  async write(resources: MappedResource[]): Promise<WriteResult[]> {
    return writeBatch(this.dataSource, resources, (runner, batch) => this.writeAll(runner, batch), (resource, refused): WriteResult => ({ resource, refused }));
  }

  private async writeAll(runner: QueryRunner, resources: MappedResource[]): Promise<WriteResult[]> {
    const changed = new Map<string, Change>();
    for (const table of WRITE_ORDER) {
      const rows = resources.flatMap((resource) => resource.rows[table] ?? []);
      if (rows.length) await this.upsert(runner, table, rows, changed);
    }
    return resources.map((resource) => ({ resource, outcome: outcomeOf(resource, changed) }));
  }

  private async upsert(runner: QueryRunner, table: TableName, rows: Row[], changed: Map<string, Change>): Promise<void> {
    const columns = TABLE_COLUMNS[table].map(([column]) => rows.map((row) => row[column] ?? null));
    const returned: { id: string; inserted: boolean }[] = await runner.query(STATEMENT_OF_TABLE[table], columns);
    for (const row of returned) {
      // A new care-team link (keyed by the patient's id) is a change to that patient, unless the patient is new.
      if (table === 'patient_care_teams') {
        if (!changed.has(`patients:${row.id}`)) changed.set(`patients:${row.id}`, 'updated');
      } else changed.set(`${table}:${row.id}`, row.inserted ? 'inserted' : 'updated');
    }
  }
}

type Change = 'inserted' | 'updated';

/** Loaded when any of its rows is new, updated when any changed, else unchanged. */
function outcomeOf(resource: MappedResource, changed: Map<string, Change>): WriteOutcome {
  let outcome: WriteOutcome = 'unchanged';
  for (const [table, rows] of Object.entries(resource.rows) as [TableName, Row[]][]) {
    if (table === 'patient_care_teams') continue;
    for (const row of rows) {
      const change = changed.get(`${table}:${row.id}`);
      if (change === 'inserted') return 'loaded';
      if (change === 'updated') outcome = 'updated';
    }
  }
  return outcome;
}
