/**
 * Every statement over the measure packages: fixed and parameterised. The reads run at request
 * time and are in the statement list (`src/cli/statement-list.ts`); the loader's run only from the
 * `measures-load` command, and the needs' only from `import-fhir`, as the tables' owner.
 */
import { isoTimestamp as ISO } from '../common/sql';

const EDITION_COLUMNS = `p.id, p.key, p.url, p.version, p.edition, p.period_start::text AS "periodStart", p.period_end::text AS "periodEnd", ${ISO('p.loaded_at', 'loadedAt')}`;

export const MEASURE_PACKAGE_STATEMENTS = {
  /** Every loaded measure, for the catalogue: what it is, its groups, what it was loaded with. */
  catalogue: `SELECT ${EDITION_COLUMNS}, p.title, p.scoring, p.basis, p.groups, p.loaded_by AS "loadedBy", COALESCE(p.measure->'identifier', '[]'::jsonb) AS identifiers,
  (SELECT count(*)::int FROM measure_package_libraries l WHERE l.measure_package_id = p.id) AS "libraryCount",
  (SELECT count(*)::int FROM measure_package_value_sets v WHERE v.measure_package_id = p.id) AS "valueSetCount",
  (SELECT count(*)::int FROM measure_package_value_sets v WHERE v.measure_package_id = p.id AND v.from_supplement) AS "supplementedValueSetCount"
FROM measure_packages p
ORDER BY p.key, p.period_start NULLS LAST, p.version`,

  /** $1 key: every loaded edition of that measure. */
  editionsOfKey: `SELECT ${EDITION_COLUMNS} FROM measure_packages p WHERE p.key = $1`,

  /** $1 keys: every loaded edition of those measures, with what evaluating one needs (no counts). */
  editionsOfKeys: `SELECT ${EDITION_COLUMNS}, p.title, p.groups FROM measure_packages p WHERE p.key = ANY($1::text[])`,

  /** Every loaded edition with what evaluating one needs: which measures a stored-results run of a period evaluates. */
  evaluableEditions: `SELECT ${EDITION_COLUMNS}, p.title, p.groups FROM measure_packages p ORDER BY p.key`,

  /** $1 package id: its Measure and the ELM of every library of its include closure. */
  packageLibraries: `SELECT p.measure, l.elm FROM measure_packages p
JOIN measure_package_libraries pl ON pl.measure_package_id = p.id
JOIN measure_libraries l ON l.id = pl.library_id
WHERE p.id = $1`,

  /** $1 package id: each value-set expansion it names, its codes as [system, code] pairs. */
  packageValueSets: `SELECT e.url, e.version, (SELECT coalesce(json_agg(json_build_array(c.system, c.code)), '[]'::json) FROM value_set_codes c WHERE c.value_set_id = e.id) AS codes
FROM measure_package_value_sets v
JOIN value_set_expansions e ON e.id = v.value_set_id
WHERE v.measure_package_id = $1`,
};

export const MEASURE_LOAD_STATEMENTS = {
  /** One load at a time, in every process: a package and the shared rows it reuses are decided together. */
  lockLoads: `SELECT pg_advisory_xact_lock(hashtext('vigil.measure_packages'))`,

  /** $1 url, $2 version: the package already loaded under that canonical, if any. */
  packageOf: `SELECT p.id, p.key, p.edition, p.content_hash AS "contentHash" FROM measure_packages p WHERE p.url = $1 AND p.version = $2`,

  /** $1 content hashes: the libraries already stored. */
  librariesByHash: `SELECT l.id, l.content_hash AS "contentHash" FROM measure_libraries l WHERE l.content_hash = ANY($1::text[])`,

  /** $1 name, $2 version, $3 url, $4 content hash, $5 ELM JSON, $6 CQL. */
  insertLibrary: `INSERT INTO measure_libraries (name, version, url, content_hash, elm, cql) VALUES ($1, $2, $3, $4, $5::jsonb, $6)
RETURNING id, content_hash AS "contentHash"`,

  /** $1 content hashes: the expansions already stored. */
  valueSetsByHash: `SELECT v.id, v.content_hash AS "contentHash" FROM value_set_expansions v WHERE v.content_hash = ANY($1::text[])`,

  /** $1 a JSON array of expansions (url, version, title, identifier, timestamp, codeCount, contentHash). */
  insertValueSets: `INSERT INTO value_set_expansions (url, version, title, expansion_identifier, expansion_timestamp, code_count, content_hash)
SELECT e->>'url', e->>'version', e->>'title', e->>'identifier', e->>'timestamp', (e->>'codeCount')::int, e->>'contentHash'
FROM jsonb_array_elements($1::jsonb) e
RETURNING id, content_hash AS "contentHash"`,

  /** Codes of new expansions, streamed (tab-separated text). */
  copyValueSetCodes: `COPY value_set_codes (value_set_id, system, code, display) FROM STDIN`,

  /** $1..$15: the package row. */
  insertPackage: `INSERT INTO measure_packages (url, version, key, title, edition, scoring, basis, groups, period_start, period_end, primary_library_id, measure, content_hash, loaded_by, load_correlation_id)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12::jsonb, $13, $14, $15)
RETURNING id`,

  /** $1 package id, $2 library ids. */
  insertPackageLibraries: `INSERT INTO measure_package_libraries (measure_package_id, library_id) SELECT $1, unnest($2::int[])`,

  /** $1 package id, $2 a JSON array of (id, names, fromSupplement). */
  insertPackageValueSets: `INSERT INTO measure_package_value_sets (measure_package_id, value_set_id, names, from_supplement)
SELECT $1, (e->>'id')::int, ARRAY(SELECT jsonb_array_elements_text(e->'names')), (e->>'fromSupplement')::boolean
FROM jsonb_array_elements($2::jsonb) e`,
};

/** What the import summary's measure needs read: many packages at once, each shared library and expansion once. */
export const MEASURE_NEEDS_STATEMENTS = {
  /** $1 package ids: each package's Measure and the ids of its include closure's libraries. */
  packagesWithLibraries: `SELECT p.id, p.measure, array_agg(pl.library_id ORDER BY pl.library_id) AS "libraryIds"
FROM measure_packages p JOIN measure_package_libraries pl ON pl.measure_package_id = p.id
WHERE p.id = ANY($1::uuid[]) GROUP BY p.id`,

  /** $1 library ids: their ELM. */
  librariesById: `SELECT l.id, l.elm FROM measure_libraries l WHERE l.id = ANY($1::int[])`,

  /** $1 package ids: each expansion any of them names, once, its codes as [system, code] pairs. */
  valueSetsOfPackages: `SELECT e.url, e.version, (SELECT coalesce(json_agg(json_build_array(c.system, c.code)), '[]'::json) FROM value_set_codes c WHERE c.value_set_id = e.id) AS codes
FROM value_set_expansions e
WHERE e.id IN (SELECT v.value_set_id FROM measure_package_value_sets v WHERE v.measure_package_id = ANY($1::uuid[]))`,
};
