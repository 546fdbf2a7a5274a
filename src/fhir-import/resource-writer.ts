import { DataSource, QueryRunner } from 'typeorm';
import { STATEMENT_OF_TABLE, TABLE_COLUMNS, WRITE_ORDER } from './fhir-import.sql';
import { MappedResource, Row, TableName, WriteOutcome } from './fhir-import.types';

/** The result of writing a batch: each resource's outcome, or why the database refused it. */
export type WriteResult = { resource: MappedResource; outcome: WriteOutcome } | { resource: MappedResource; refused: string };

/** SQLSTATE classes that mean "this row's data", not "the database or connection": 21 cardinality, 22 data exception, 23 integrity. */
const isDataError = (error: unknown) => /^2[123]/.test(String((error as { code?: unknown }).code ?? ''));

/**
 * Known constraints, as reasons a reader can act on; others are named by constraint (never by value).
 * (A shared MRN is no longer one: it is imported and reported as a warning, see `patientsWithSharedMrn`.)
 */
const CONSTRAINT_REASONS: Record<string, string> = {
  CHK_observations_value_or_absent: 'observation has neither a value nor a data-absent reason',
};

function refusal(error: unknown): string {
  const { code, constraint } = error as { code?: string; constraint?: string };
  if (constraint && CONSTRAINT_REASONS[constraint]) return CONSTRAINT_REASONS[constraint];
  return `refused by the database (SQLSTATE ${code ?? 'unknown'}${constraint ? `, ${constraint}` : ''})`;
}

/**
 * Writes resources a batch at a time: all rows of a batch in one transaction, one statement per
 * table. When Postgres refuses a batch for a data reason, the batch is rolled back and retried one
 * resource per transaction, so the bad resource is refused alone and nothing of it is half-written.
 * Any other error (connection lost, …) propagates: batches committed before it stay, and a re-run
 * finishes the job because every write is an idempotent upsert.
 */
export class ResourceWriter {
  constructor(private readonly dataSource: DataSource) {}

  async write(resources: MappedResource[]): Promise<WriteResult[]> {
    if (resources.length === 0) return [];
    try {
      return await this.inTransaction(resources);
    } catch (error) {
      if (!isDataError(error) || resources.length === 1) {
        if (isDataError(error)) return [{ resource: resources[0], refused: refusal(error) }];
        throw error;
      }
    }
    const results: WriteResult[] = [];
    for (const resource of resources) {
      try {
        results.push(...(await this.inTransaction([resource])));
      } catch (error) {
        if (!isDataError(error)) throw error;
        results.push({ resource, refused: refusal(error) });
      }
    }
    return results;
  }

  private async inTransaction(resources: MappedResource[]): Promise<WriteResult[]> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const changed = new Map<string, Change>();
      for (const table of WRITE_ORDER) {
        const rows = resources.flatMap((resource) => resource.rows[table] ?? []);
        if (rows.length) await this.upsert(runner, table, rows, changed);
      }
      await runner.commitTransaction();
      return resources.map((resource) => ({ resource, outcome: outcomeOf(resource, changed) }));
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
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
