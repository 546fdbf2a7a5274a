import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Bundle } from './fhir';
import { MEASURE_KEYS, MeasureKey, measureBundle } from './measure-bundles';
import { GroupPopulations, MeasurementPeriod, referenceEngine, ReferenceOptions, ReferenceStats } from './reference-engine';
import { POPULATIONS, Populations } from './vigil-populations';

/**
 * The reference engine's results for the deterministic generated cohort, computed once by
 * `npm run reference:cache` (build-reference-cache.ts) and committed, so the differential test
 * compares Vigil's live answers with them instead of spending ten minutes re-running fqm-execution
 * on data that has not changed. Only results for our own synthetic patients are cached: nothing
 * derived from ../shared/external-data's patients or test cases is written here.
 *
 * The file is keyed by everything the engine's answer depends on, as content hashes rather than
 * version numbers someone must remember to bump; the test recomputes live when any part differs.
 */
export const CACHE_FILE = join(__dirname, 'reference-results.generated.json');
/** As the developer should name it (never a path of this machine). */
export const CACHE_FILE_IN_REPO = 'test/reference-engine/reference-results.generated.json';

/**
 * The harness code that shapes what the engine is given or how its answer is read: the worker
 * (engine options, the raw path, TZ), the pool (group mapping), profile tagging and pruning (they
 * change the Bundles after the `patients` hash is taken), and this file (the encoding).
 */
const HARNESS_FILES = ['reference-worker.cjs', 'reference-engine.ts', 'profiles.ts', 'data-requirements.ts', 'reference-cache.ts'];
/** The engine and the two libraries that do the evaluation under it: a lockfile bump of either moves no fqm-execution version. */
const ENGINE_PACKAGES = ['fqm-execution', 'cql-execution', 'cql-exec-fhir'];

/** Each part of the key, and why it is there. */
export interface CacheKeyParts {
  /** sha256 of the exact patient Bundles handed to the engine (after trimming), in Patient.id order: covers generator code, seed, anchor, patient count and trimming. */
  patients: string;
  /** sha256 of each measure's Bundle as the workers receive it (Measure, Libraries with their ELM, value sets from ../shared). */
  measures: string;
  /** Installed versions of the engine packages. */
  engine: string;
  /** sha256 of the harness files above. */
  harness: string;
  /** The measurement period: every population is relative to it. */
  period: string;
  /** The run options (profile tagging codes, pruning, mode). */
  options: string;
}

/** Populations per measure and group, each a bitset over the patients in sorted Patient.id order. */
interface CachedGroup {
  id: string;
  initialPopulation: string;
  denominator: string;
  denominatorExclusion: string;
  denominatorException: string;
  numerator: string;
}

interface CacheFile {
  about: string;
  key: string;
  parts: CacheKeyParts;
  patients: number;
  measures: Record<MeasureKey, CachedGroup[]>;
}

const sha256 = () => createHash('sha256');
const patientIdOf = (bundle: Bundle) => bundle.entry![0].resource!.id!;
/** Code-unit order: the same on every machine, unlike localeCompare. */
const sortedIds = (ids: readonly string[]) => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

function engineVersions(): string {
  const engine = require.resolve('fqm-execution');
  return ENGINE_PACKAGES.map((name) => {
    // Resolved from the engine's own folder, so a copy nested under it is the one read.
    const { version } = JSON.parse(readFileSync(require.resolve(`${name}/package.json`, { paths: [dirname(engine)] }), 'utf8')) as { version: string };
    return `${name}@${version}`;
  }).join(' ');
}

/** The key of the engine's results for these Bundles; reads the measure bundles from ../shared. */
export function referenceCacheKey(bundles: readonly Bundle[], period: MeasurementPeriod, options: ReferenceOptions): { key: string; parts: CacheKeyParts } {
  const patients = sha256();
  const byId = new Map(bundles.map((bundle) => [patientIdOf(bundle), bundle]));
  for (const id of sortedIds([...byId.keys()])) patients.update(`${JSON.stringify(byId.get(id))}\n`);
  const measures = sha256();
  for (const key of MEASURE_KEYS) measures.update(`${key}\n${JSON.stringify(measureBundle(key))}\n`);
  const harness = sha256();
  // Line endings normalised, so a checkout with CRLF gives the same key.
  for (const file of HARNESS_FILES) harness.update(`${file}\n${readFileSync(join(__dirname, file), 'utf8').replace(/\r\n/g, '\n')}\n`);
  // Not in the key: the Node version (workers run with TZ=UTC and the engine does no
  // version-dependent arithmetic), the machine and the worker count (chunking changes no result).
  const parts: CacheKeyParts = {
    patients: patients.digest('hex'),
    measures: measures.digest('hex'),
    engine: engineVersions(),
    harness: harness.digest('hex'),
    period: `${period.start}..${period.end}`,
    options: JSON.stringify(options),
  };
  return { key: sha256().update(JSON.stringify(parts)).digest('hex'), parts };
}

function bitset(values: readonly boolean[]): string {
  const bytes = Buffer.alloc(Math.ceil(values.length / 8));
  values.forEach((value, i) => {
    if (value) bytes[i >> 3] |= 1 << (i & 7);
  });
  return bytes.toString('base64');
}

function bits(encoded: string, count: number): boolean[] {
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length !== Math.ceil(count / 8)) throw new Error(`a cached bitset holds ${bytes.length} bytes, ${count} patients need ${Math.ceil(count / 8)}`);
  return Array.from({ length: count }, (_, i) => (bytes[i >> 3] & (1 << (i & 7))) !== 0);
}

/** The file's text: fixed key order and layout, so the same results give the same bytes. */
export function serializeReferenceCache(populations: Populations, key: { key: string; parts: CacheKeyParts }): string {
  const first = populations.get(MEASURE_KEYS[0]);
  const ids = sortedIds([...(first?.keys() ?? [])]);
  const measures = {} as Record<MeasureKey, CachedGroup[]>;
  for (const measure of MEASURE_KEYS) {
    const byPatient = populations.get(measure);
    if (!byPatient || byPatient.size !== ids.length || ids.some((id) => !byPatient.has(id))) throw new Error(`${measure}: the results do not cover the same patients as ${MEASURE_KEYS[0]}`);
    const shape = byPatient.get(ids[0])!;
    if (ids.some((id) => byPatient.get(id)!.map((g) => g.groupId).join() !== shape.map((g) => g.groupId).join())) throw new Error(`${measure}: patients differ in their population groups`);
    measures[measure] = shape.map((group, index) => {
      const column = (name: (typeof POPULATIONS)[number]) => bitset(ids.map((id) => byPatient.get(id)![index][name]));
      return { id: group.groupId, initialPopulation: column('initialPopulation'), denominator: column('denominator'), denominatorExclusion: column('denominatorExclusion'), denominatorException: column('denominatorException'), numerator: column('numerator') };
    });
  }
  const file: CacheFile = {
    about: 'fqm-execution populations for the generated cohort of vigil-reference-diff.int-spec.ts; bitsets over its patients in sorted Patient.id order. Written by npm run reference:cache; do not edit.',
    key: key.key,
    parts: key.parts,
    patients: ids.length,
    measures,
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

export function writeReferenceCache(populations: Populations, key: { key: string; parts: CacheKeyParts }): string {
  const text = serializeReferenceCache(populations, key);
  writeFileSync(CACHE_FILE, text);
  return text;
}

export type CacheLookup = { hit: true; populations: Populations } | { hit: false; reason: string };

/**
 * The cached populations for these patient Bundles, in their order, or why there are none: the
 * file is absent or unreadable, or which parts of the key changed.
 */
export function lookupReferenceCache(bundles: readonly Bundle[], key: { key: string; parts: CacheKeyParts }): CacheLookup {
  if (!existsSync(CACHE_FILE)) return { hit: false, reason: 'the file is absent' };
  let file: CacheFile;
  try {
    file = JSON.parse(readFileSync(CACHE_FILE, 'utf8')) as CacheFile;
  } catch {
    return { hit: false, reason: 'the file is not valid JSON' };
  }
  if (file.key !== key.key) {
    const changed = (Object.keys(key.parts) as (keyof CacheKeyParts)[]).filter((part) => file.parts?.[part] !== key.parts[part]);
    return { hit: false, reason: `its key differs (changed: ${changed.join(', ') || 'the key itself'})` };
  }
  const ids = bundles.map(patientIdOf);
  const sorted = sortedIds(ids);
  if (file.patients !== sorted.length) return { hit: false, reason: `it holds ${file.patients} patients, the cohort has ${sorted.length}` };
  const position = new Map(sorted.map((id, index) => [id, index]));
  const populations: Populations = new Map();
  try {
    for (const measure of MEASURE_KEYS) {
      const groups = (file.measures?.[measure] ?? []).map((group) => ({ id: group.id, columns: POPULATIONS.map((name) => bits(group[name], sorted.length)) }));
      if (groups.length === 0) return { hit: false, reason: `it has no results for ${measure}` };
      const byPatient = new Map<string, GroupPopulations[]>();
      for (const id of ids) {
        const at = position.get(id)!;
        byPatient.set(id, groups.map((group) => ({ groupId: group.id, ...(Object.fromEntries(POPULATIONS.map((name, i) => [name, group.columns[i][at]])) as Omit<GroupPopulations, 'groupId'>) })));
      }
      populations.set(measure, byPatient);
    }
  } catch (error) {
    // A file edited by hand (it says not to be): recompute rather than fail on the cache.
    return { hit: false, reason: `it cannot be decoded (${error instanceof Error ? error.message : String(error)})` };
  }
  return { hit: true, populations };
}

/** Every measure run live by the shared engine pool, with per-measure timings. */
export async function livePopulations(bundles: readonly Bundle[], period: MeasurementPeriod, options: ReferenceOptions = {}): Promise<{ populations: Populations; stats: ReferenceStats[] }> {
  const populations: Populations = new Map();
  const stats: ReferenceStats[] = [];
  for (const key of MEASURE_KEYS) {
    const run = await referenceEngine().run(key, bundles, period, options);
    populations.set(key, run.populations);
    stats.push(run.stats);
  }
  return { populations, stats };
}

/** Per-measure engine timings as a text table (counts and times only). */
export function timingTable(stats: readonly ReferenceStats[]): string {
  return stats.map((s) => `  ${s.measure.padEnd(7)} ${String(s.patients).padStart(5)} patients  ${(s.wallMs / 1000).toFixed(1).padStart(6)} s wall  ${s.msPerPatient.toFixed(1).padStart(6)} ms/patient (engine)`).join('\n');
}
