import { join } from 'node:path';
import { exportCohortFhir } from '../../src/generator/fhir/fhir-export';
import { MeasurementPeriod, ReferenceOptions } from './reference-engine';
import { trimVisitHistory } from './vigil-populations';

/**
 * The generated cohort of the differential test (vigil-reference-diff.int-spec.ts), defined once so
 * the test and the script that caches the engine's results for it (build-reference-cache.ts) build
 * the very same patient Bundles. The cache's key hashes those Bundles, so a difference would only
 * cost a live engine run, never a wrong comparison.
 *
 * The cohort as exported on New Year's Day 2026 (the anchor: the record spans the six years before
 * it, and nothing but a few planned visits after it), measured for the 2025 reporting year, as the
 * stewards' test cases are. Visits and vital signs before 2023 are left out of what both sides
 * read (trimVisitHistory says why; labs, problems, medicines and procedures keep all six years).
 */
export const GENERATED_DEFAULT_PATIENTS = 2000;
export const GENERATED_SEED = 20250101;
export const GENERATED_ANCHOR = '2026-01-01';
export const GENERATED_PERIOD: MeasurementPeriod = { start: '2025-01-01', end: '2025-12-31' };
export const VISIT_HISTORY_FROM = '2023-01-01';
/** The engine's options for the generated cohort: strict QI-Core tagging (profiles.ts), pruned, the fast path. */
export const GENERATED_ENGINE_OPTIONS: ReferenceOptions = {};

export interface GeneratedCohort {
  /** The trimmed NDJSON folder both sides read: Vigil through the importer, the engine as Bundles. */
  readFolder: string;
  /** Resources exported before trimming. */
  resources: number;
}

/**
 * Exports `patients` generated patients as FHIR NDJSON under `folder`/export and writes the trimmed
 * copy both sides read to `folder`/read. FHIR carries no care team, but how many teams there are is
 * part of each patient's random stream (fhir-export.ts), so callers pass one team, as the test does.
 */
export function writeGeneratedCohort(folder: string, patients: number, careTeamIds: readonly string[]): GeneratedCohort {
  const exported = exportCohortFhir({ patients, seed: GENERATED_SEED, anchor: GENERATED_ANCHOR, careTeamIds, folder: join(folder, 'export') });
  const readFolder = join(folder, 'read');
  trimVisitHistory(join(folder, 'export'), readFolder, VISIT_HISTORY_FROM);
  return { readFolder, resources: Object.values(exported.resources).reduce((sum, count) => sum + count, 0) };
}
