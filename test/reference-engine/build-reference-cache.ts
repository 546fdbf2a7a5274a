import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { GENERATED_DEFAULT_PATIENTS, GENERATED_ENGINE_OPTIONS, GENERATED_PERIOD, writeGeneratedCohort } from './generated-cohort';
import { ecqmAvailable, ecqmMissingMessage } from './measure-bundles';
import { CACHE_FILE_IN_REPO, livePopulations, lookupReferenceCache, referenceCacheKey, timingTable, writeReferenceCache } from './reference-cache';
import { closeReferenceEngine } from './reference-engine';
import { formatCountTable, populationCounts } from './synthea-bundles';
import { ndjsonPatientBundles } from './vigil-populations';

/**
 * `npm run reference:cache` — runs fqm-execution once on the differential test's generated cohort
 * (the same Bundles the test builds) and writes its populations to
 * test/reference-engine/reference-results.generated.json, to be committed with the change that
 * made the test say the cache is stale. About ten minutes on two cores.
 *
 *   --check  only say whether the committed file matches (exit 1 if not); runs no engine
 *   --force  recompute even when the file matches (to see that it comes out byte-identical)
 *
 * Needs ../shared/external-data/ecqm-qicore-2024 (the measures), not Postgres: FHIR carries no
 * care team, only their number shapes the cohort, and the test uses one.
 */
const print = (text: string) => process.stdout.write(`${text}\n`);
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const force = process.argv.includes('--force');
  if (!ecqmAvailable()) {
    console.error(`reference:cache: ${ecqmMissingMessage}; nothing was written.`);
    return 1;
  }
  if (process.env.VIGIL_DIFF_PATIENTS) console.warn(`reference:cache: VIGIL_DIFF_PATIENTS is ignored; the cache is for the test's default ${GENERATED_DEFAULT_PATIENTS} patients.`);

  const folder = mkdtempSync(join(tmpdir(), 'vigil-reference-cache-'));
  try {
    const begin = performance.now();
    const cohort = writeGeneratedCohort(folder, GENERATED_DEFAULT_PATIENTS, ['the one care team']);
    const bundles = ndjsonPatientBundles(cohort.readFolder);
    const key = referenceCacheKey(bundles, GENERATED_PERIOD, GENERATED_ENGINE_OPTIONS);
    print(`generated cohort: ${bundles.length} patients, ${cohort.resources} resources exported, trimmed and hashed in ${seconds(begin)}; key ${key.key.slice(0, 12)}`);

    const lookup = lookupReferenceCache(bundles, key);
    if (check) {
      print(lookup.hit ? `${CACHE_FILE_IN_REPO} is up to date.` : `${CACHE_FILE_IN_REPO} is stale: ${lookup.reason}. Run npm run reference:cache and commit it.`);
      return lookup.hit ? 0 : 1;
    }
    if (lookup.hit && !force) {
      print(`${CACHE_FILE_IN_REPO} is up to date; nothing to do (--force recomputes it anyway).`);
      return 0;
    }

    const engineBegin = performance.now();
    const { populations, stats } = await livePopulations(bundles, GENERATED_PERIOD, GENERATED_ENGINE_OPTIONS);
    print(`fqm-execution: ${bundles.length} patients × ${stats.length} measures in ${seconds(engineBegin)}\n${timingTable(stats)}`);
    print(`patients per population (engine)\n${formatCountTable(populationCounts(populations))}`);
    const text = writeReferenceCache(populations, key);
    print(`wrote ${CACHE_FILE_IN_REPO} (${Buffer.byteLength(text)} bytes)${lookup.hit ? ' (it matched already)' : ''}: commit it.`);
    return 0;
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await closeReferenceEngine();
  }
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exitCode = 1;
  },
);
