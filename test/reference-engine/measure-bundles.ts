import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Bundle, CanonicalResource, Measure, Resource } from './fhir';

/**
 * The stewards' eCQM content beside the project (`../shared/external-data/ecqm-qicore-2024`, see
 * its README): Measures, Libraries (CQL + ELM), value sets with expansions and the official test
 * cases. Resolved from the repo root; nothing of it is copied into the repo.
 */
export const REPO_ROOT = join(__dirname, '..', '..');
export const ECQM_DIR = join(REPO_ROOT, '..', 'shared', 'external-data', 'ecqm-qicore-2024');

export const MEASURE_KEYS = ['CMS122', 'CMS165', 'CMS125', 'CMS130', 'CMS951', 'CMS347'] as const;
export type MeasureKey = (typeof MEASURE_KEYS)[number];

/** `measures/index.json`: per measure key, its canonical URL, version and the Library files it needs. */
export interface MeasureIndexEntry {
  measure: string;
  version: string;
  libraries: string[];
}

/** True where the shared folder is present; tests skip with {@link ecqmMissingMessage} otherwise. */
export function ecqmAvailable(): boolean {
  return existsSync(join(ECQM_DIR, 'measures', 'index.json'));
}

export const ecqmMissingMessage = 'ecqm-qicore-2024 is absent (see ../shared/external-data/README.md)';

/**
 * `describe`, or, where the eCQM folder is absent, a skipped `describe` with the reason in its name.
 * The body is not run then: Jest runs a skipped describe's body to collect its tests, and these bodies
 * read the folder (and start engine workers) while they collect.
 */
export function describeWithEcqm(name: string, body: () => void): void {
  if (ecqmAvailable()) describe(name, body);
  else describe.skip(`${name} [skipped: ${ecqmMissingMessage}]`, () => it('needs the shared eCQM folder', () => undefined));
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

export function measureIndex(): Record<MeasureKey, MeasureIndexEntry> {
  return readJson(join(ECQM_DIR, 'measures', 'index.json'));
}

export function readMeasure(key: MeasureKey): Measure {
  return readJson(join(ECQM_DIR, 'measures', `${key}.Measure.json`));
}

let valueSets: CanonicalResource[] | undefined;

/** All 85 ValueSets (with their expansions), read once per process. */
export function allValueSets(): CanonicalResource[] {
  valueSets ??= readdirSync(join(ECQM_DIR, 'valuesets'))
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => readJson<CanonicalResource>(join(ECQM_DIR, 'valuesets', file)));
  return valueSets;
}

/**
 * A measure's Bundle as a CQL engine takes it (type `collection`): the Measure, the Library
 * resources `index.json` lists for it, and every ValueSet. Checks that the index and the Measure
 * agree on URL and version, and that the Measure's main Library is among those listed.
 */
export function measureBundle(key: MeasureKey): Bundle {
  const entry = measureIndex()[key];
  if (!entry) throw new Error(`${key} is not in measures/index.json`);
  const measure = readMeasure(key);
  if (measure.url !== entry.measure || measure.version !== entry.version) {
    throw new Error(`${key}: index.json names ${entry.measure}|${entry.version}, the Measure is ${measure.url}|${measure.version}`);
  }
  const libraries = entry.libraries.map((file) => readJson<CanonicalResource>(join(ECQM_DIR, 'libraries', file)));
  const main = measure.library?.[0];
  if (!main || !libraries.some((library) => library.url === main.split('|')[0])) {
    throw new Error(`${key}: the Measure's library ${main} is not among the files index.json lists`);
  }
  const resources: Resource[] = [measure, ...libraries, ...allValueSets()];
  return { resourceType: 'Bundle', type: 'collection', entry: resources.map((resource) => ({ resource })) };
}

/** One official test case: its patient Bundle and the stewards' expected populations. */
export interface EcqmTestCase {
  measure: MeasureKey;
  /** The case id, which is also the Patient's id. */
  caseId: string;
  /** The stewards' name for the case, e.g. `DENEXPass HospiceServiceRequestDuringMP`. */
  description: string;
  bundle: Bundle;
  expected: ExpectedResult;
}

export type PopulationCode = 'initial-population' | 'denominator' | 'denominator-exclusion' | 'denominator-exception' | 'numerator';

export interface ExpectedResult {
  measure: MeasureKey;
  patientId: string;
  description: string;
  period: { start: string; end: string };
  groups: { id: string | null; populations: Partial<Record<PopulationCode, number>> }[];
}

/** Every shared test case of a measure, in case-id order. */
export function testCases(key: MeasureKey): EcqmTestCase[] {
  const folder = join(ECQM_DIR, 'test-cases', key);
  return readdirSync(folder)
    .filter((file) => file.endsWith('.bundle.json'))
    .sort()
    .map((file) => {
      const caseId = file.slice(0, -'.bundle.json'.length);
      const expected = readJson<ExpectedResult>(join(folder, `${caseId}.expected.json`));
      return { measure: key, caseId, description: expected.description, bundle: readJson<Bundle>(join(folder, file)), expected };
    });
}
