import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { elmOfLibrary, ElmLibrary, FhirMeasure, FhirResource, ValueSetResource } from '../../src/clinical/elm';

/**
 * The stewards' published measures of two editions beside the project
 * (`../shared/external-data/ecqm-measures`, see its README): per measure its Measure, the ELM of
 * its libraries, its value-set expansions (a supplement where index.json names one) and its shared
 * official test cases. Read where they are; nothing is copied into the repo.
 */

/** The checkout's root (found upwards, so the path holds when this file runs compiled into dist-bench/). */
function repoRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export const ECQM_MEASURES_DIR = join(repoRoot(__dirname), '..', 'shared', 'external-data', 'ecqm-measures');
export const EDITIONS = ['2024-qicore4', '2025-qicore6'] as const;
export type Edition = (typeof EDITIONS)[number];

export const corpusMissingMessage = 'the ecqm-measures corpus is absent (../shared/external-data/ecqm-measures; see its README)';

export function corpusAvailable(): boolean {
  return EDITIONS.every((edition) => existsSync(join(ECQM_MEASURES_DIR, edition, 'index.json')));
}

interface IndexEntry {
  measure: string;
  period: { start: string; end: string };
  libraries: { name: string; version: string; file?: string }[];
  valuesets: { url: string; file?: string; status?: string; supplement?: { file: string } }[];
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

const indexes = new Map<Edition, Record<string, IndexEntry>>();
function index(edition: Edition): Record<string, IndexEntry> {
  let measures = indexes.get(edition);
  if (!measures) indexes.set(edition, (measures = readJson<{ measures: Record<string, IndexEntry> }>(join(ECQM_MEASURES_DIR, edition, 'index.json')).measures));
  return measures;
}

export function measureKeys(edition: Edition): string[] {
  return Object.keys(index(edition));
}

export interface MeasureContent {
  edition: Edition;
  key: string;
  measure: FhirMeasure;
  libraries: ElmLibrary[];
  valueSets: ValueSetResource[];
  period: { start: string; end: string };
}

/** Freezes every object and array under `value`, so that a change to a shared one throws (strict mode) rather than leaking. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * The measures of an edition share most of their libraries (FHIRHelpers, QICoreCommon, the
 * stewards' common libraries: 95 files behind 426 references in 2024) and value sets (686 files
 * behind 1,789): each file is read and decoded once per process, and frozen, since every measure
 * that lists it gets the same object.
 */
const sharedFiles = new Map<string, unknown>();
function sharedFile<T>(path: string, parse: (json: unknown) => T): T {
  if (!sharedFiles.has(path)) sharedFiles.set(path, deepFreeze(parse(readJson(path))));
  return sharedFiles.get(path) as T;
}

export function measureContent(edition: Edition, key: string): MeasureContent {
  const entry = index(edition)[key];
  const dir = join(ECQM_MEASURES_DIR, edition);
  const libraries = entry.libraries
    .filter((l) => l.file)
    .map((l) => sharedFile(join(dir, 'libraries', l.file!), (json) => elmOfLibrary(json as Parameters<typeof elmOfLibrary>[0])))
    .filter((elm): elm is ElmLibrary => !!elm);
  const valueSets = entry.valuesets
    .map((v) => (v.supplement ? join(dir, 'valuesets-supplement', v.supplement.file) : v.file ? join(dir, 'valuesets', v.file) : null))
    .filter((file): file is string => file !== null && existsSync(file))
    .map((file) => sharedFile(file, (json) => json as ValueSetResource));
  return { edition, key, measure: readJson<FhirMeasure>(join(dir, entry.measure)), libraries, valueSets, period: entry.period };
}

export interface ExpectedGroup {
  id: string | null;
  populations: Record<string, number>;
  populationList?: { id: string | null; code: string; count: number }[];
  /**
   * The group's stratifiers in the Measure's order, each with its strata as MADiE reports them:
   * `true`/`false` for a boolean stratifier (the `false` stratum's counts are not the complement of
   * the group's and are not compared), or a label (`Strata 1`) for the stratum the case falls in.
   */
  stratifiers?: { id: string; strata: { value: string; populations: Record<string, number> }[] }[];
}

export interface OfficialCase {
  caseId: string;
  description: string;
  period: { start: string; end: string };
  resources: FhirResource[];
  bundle: { resourceType: 'Bundle'; type?: string; entry?: { resource?: FhirResource }[] };
  expected: { groups: ExpectedGroup[] };
}

/** The shared official cases of a measure (none where the edition holds them all out). */
export function officialCases(edition: Edition, key: string): OfficialCase[] {
  const dir = join(ECQM_MEASURES_DIR, edition, 'test-cases', key);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.expected.json'))
    .sort()
    .map((file) => {
      const caseId = file.slice(0, -'.expected.json'.length);
      const expected = readJson<{ description: string; period: { start: string; end: string }; groups: ExpectedGroup[] }>(join(dir, file));
      const bundle = readJson<OfficialCase['bundle']>(join(dir, `${caseId}.bundle.json`));
      const resources = (bundle.entry ?? []).map((e) => e.resource).filter((r): r is FhirResource => !!r);
      return { caseId, description: expected.description, period: expected.period, resources, bundle, expected };
    });
}
