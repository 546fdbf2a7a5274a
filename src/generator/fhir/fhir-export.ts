import { closeSync, existsSync, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { GeneratorRefusal, validateOptions } from '../generate-cohort';
import { IdFactory } from '../ids';
import { CohortContext, generatePatientRecord } from '../patient-record';
import { dayStart } from '../time';
import { FHIR_RESOURCE_TYPES, FhirResourceType, patientResources } from './fhir-resources';

export interface FhirExportOptions {
  patients: number;
  seed: number;
  /** `YYYY-MM-DD`: the day relative dates count back from. */
  anchor: string;
  /**
   * The care teams' ids, as the COPY load would spread patients across them. FHIR carries no care
   * team (the importer's `--care-team` decides), but how many there are is part of each patient's
   * random stream, so the same teams give the same cohort as `db:generate` without `--fhir`.
   */
  careTeamIds: readonly string[];
  /** A folder that does not exist yet or is empty. */
  folder: string;
  progress?: (line: string) => void;
}

export interface FhirExportSummary {
  patients: number;
  /** Resources written per type (one `<Type>.ndjson` file each). */
  resources: Record<FhirResourceType, number>;
  files: string[];
  seconds: number;
}

/** Lines are gathered per file and written in chunks of about this many characters. */
const CHUNK = 1 << 20;

/**
 * Writes the deterministic cohort as FHIR R4 bulk-data NDJSON: one `<Type>.ndjson` per resource
 * type, one resource per line, patients in index order. The same (patients, seed, anchor, number of
 * care teams) give byte-identical files, and the same clinical rows as the COPY load.
 */
export function exportCohortFhir(options: FhirExportOptions): FhirExportSummary {
  const started = performance.now();
  const progress = options.progress ?? (() => undefined);
  validateOptions(options);
  if (options.careTeamIds.length === 0) throw new GeneratorRefusal('No care teams exist. Load the fixture cohort first: npm run db:seed.');
  if (existsSync(options.folder) && readdirSync(options.folder).length > 0) {
    throw new GeneratorRefusal('The --fhir folder is not empty; nothing was written. Give a new or empty folder.');
  }
  mkdirSync(options.folder, { recursive: true });
  const context: CohortContext = { seed: options.seed, anchorMs: dayStart(options.anchor), careTeamIds: options.careTeamIds, ids: new IdFactory(options.seed) };
  const files = FHIR_RESOURCE_TYPES.map((type) => ({ type, path: join(options.folder, `${type}.ndjson`), pending: '', count: 0, fd: -1 }));
  try {
    for (const file of files) file.fd = openSync(file.path, 'wx');
    const step = Math.max(1, Math.ceil(options.patients / 10));
    for (let index = 0; index < options.patients; index++) {
      const resources = patientResources(generatePatientRecord(context, index));
      for (const file of files) {
        for (const resource of resources[file.type]) file.pending += `${JSON.stringify(resource)}\n`;
        file.count += resources[file.type].length;
        if (file.pending.length >= CHUNK) {
          writeSync(file.fd, file.pending);
          file.pending = '';
        }
      }
      if ((index + 1) % step === 0 && index + 1 < options.patients) progress(`  exported ${index + 1} of ${options.patients} patients`);
    }
    for (const file of files) writeSync(file.fd, file.pending);
  } finally {
    for (const file of files) if (file.fd >= 0) closeSync(file.fd);
  }
  return {
    patients: options.patients,
    resources: Object.fromEntries(files.map((file) => [file.type, file.count])) as Record<FhirResourceType, number>,
    files: files.map((file) => `${file.type}.ndjson`),
    seconds: (performance.now() - started) / 1000,
  };
}
