import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { FhirImporter, ImportOptions, ImportSummary } from '../../src/fhir-import';

export const FHIR_FIXTURES = join(__dirname, '..', '..', 'fixtures', 'fhir');

/** Runs the importer as the CLI does, minus printing. */
export function importFhir(dataSource: DataSource, path: string, options: Partial<ImportOptions> = {}): Promise<ImportSummary> {
  return new FhirImporter(dataSource, { careTeamCode: 'primary-care-north', now: new Date('2026-06-30T00:00:00Z'), ...options }).run(path);
}

/** Loaded / updated / already present / skipped per resource type, as plain data. */
export function countsOf(summary: ImportSummary): Record<string, [number, number, number, number]> {
  return Object.fromEntries([...summary.types.entries()].map(([type, c]) => [type, [c.loaded, c.updated, c.unchanged, c.skipped]]));
}

const TABLES = ['patients', 'patient_care_teams', 'encounters', 'observations', 'conditions', 'medications', 'medication_dispenses', 'procedures', 'allergies', 'clinical_requests', 'adverse_events', 'immunizations', 'communications'];

/**
 * A fingerprint of every row of the cohort tables the import writes: per table, the row count and
 * an md5 of all rows as JSON in a stable order (computed in Postgres, so 18,000 rows cost
 * milliseconds). With `withTimestamps`, created_at/updated_at and patients.data_version count too (a
 * re-import must not touch them); without, two databases loaded at different times can be compared.
 */
export async function cohortSnapshot(dataSource: DataSource, withTimestamps: boolean): Promise<Record<string, unknown>> {
  // `data_version` is bookkeeping like the timestamps: counted where the timestamps are (a re-import must
  // not move it). A patient's population record key is a secret random draw of its database, never equal
  // in two: counted only within one database.
  const row = withTimestamps ? 'to_jsonb(t)' : `(to_jsonb(t) - 'created_at' - 'updated_at' - 'data_version' - 'population_record_key')`;
  const snapshot: Record<string, unknown> = {};
  for (const table of TABLES) {
    const [result] = await dataSource.query(`SELECT count(*)::int AS rows, md5(coalesce(string_agg(${row}::text, ',' ORDER BY ${row}::text), '')) AS md5 FROM "${table}" t`);
    snapshot[table] = result;
  }
  return snapshot;
}
