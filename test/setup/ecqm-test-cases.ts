import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POPULATIONS, PopulationName } from '../../src/clinical/care-gaps';

/** The measure stewards' content and test cases (../shared/external-data/ecqm-qicore-2024; see its README). */
export const ECQM_DIR = join(__dirname, '..', '..', '..', 'shared', 'external-data', 'ecqm-qicore-2024');
export const ECQM_TEST_CASES = join(ECQM_DIR, 'test-cases');

/** The expected result of one official test case, as `<case>.expected.json` holds it. */
export interface ExpectedCase {
  measure: string;
  patientId: string;
  description: string;
  period: { start: string; end: string };
  groups: { id: string | null; populations: Record<string, number> }[];
}

/** MeasureReport population codes → Vigil's population names. */
const CODES: Record<string, PopulationName> = {
  'initial-population': 'initialPopulation',
  denominator: 'denominator',
  'denominator-exclusion': 'denominatorExclusion',
  'denominator-exception': 'denominatorException',
  numerator: 'numerator',
};

/** A case's expected populations per group as booleans, every population named (absent = 0). */
export function expectedPopulations(expected: ExpectedCase): Record<PopulationName, boolean>[] {
  return expected.groups.map((group) => {
    const populations = Object.fromEntries(POPULATIONS.map((name) => [name, false])) as Record<PopulationName, boolean>;
    for (const [code, count] of Object.entries(group.populations)) populations[CODES[code]] = count > 0;
    return populations;
  });
}

export function readExpectedCases(): ExpectedCase[] {
  return readdirSync(ECQM_TEST_CASES)
    .sort()
    .flatMap((measure) =>
      readdirSync(join(ECQM_TEST_CASES, measure))
        .filter((file) => file.endsWith('.expected.json'))
        .sort()
        .map((file) => JSON.parse(readFileSync(join(ECQM_TEST_CASES, measure, file), 'utf8')) as ExpectedCase),
    );
}

/** A temporary folder with a copy of every case's Bundle (the importer reads a folder; expected files are not FHIR). */
export function bundleFolder(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'vigil-ecqm-'));
  for (const measure of readdirSync(ECQM_TEST_CASES)) {
    for (const file of readdirSync(join(ECQM_TEST_CASES, measure)).filter((name) => name.endsWith('.bundle.json'))) {
      copyFileSync(join(ECQM_TEST_CASES, measure, file), join(path, `${measure}-${file}`));
    }
  }
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export const ecqmAvailable = (): boolean => existsSync(ECQM_TEST_CASES);
