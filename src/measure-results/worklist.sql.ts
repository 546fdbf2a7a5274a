/**
 * The care-team worklist's statements: one page of a team's patients whose stored results for the
 * period match the filters, in one of three orders, by keyset, each with those matching results.
 * Fixed text, one statement per order and direction (nothing a caller sends is spliced in), listed in
 * `src/database/statements.sql`.
 *
 * Parameters of a page: $1 the team (a uuid[] of one), $2/$3 the period, $4 measure, $5 status,
 * $6 reason-code LIKE pattern (each NULL for any), $7/$8/$9 the keyset after (two keys and the
 * patient id; NULL for the first page), $10 the row cap (+1 to detect a further page), $11 the
 * attestation filter (`WorklistAttestationFilter`; NULL for any).
 *
 * Two kinds of page statement: those taking every filter NULL-able, planned per call (run unnamed),
 * and those fixed for one page shape (`WorklistPageShape`: which filters, whether after a keyset),
 * prepared by name so they are planned once per connection. `worklist-shape.ts` says when each runs.
 */
import { attestedPairs, attestationsJson } from '../cohort/care-gap-attestations';
import { onCareTeams } from '../cohort/care-team-rule';
import { absent, cappedLimit, FIXED_HASH_OF, fixedMatches, SERIAL_ONLY, WORKLIST_PAGE_SHAPES, WorklistPageShape, worklistStatementName } from './worklist-shape';

export { worklistStatementName };

const DAY = (column: string, alias: string) => `to_char(${column}, 'YYYY-MM-DD') AS "${alias}"`;

/**
 * The attestation filter (`param`): `attested`, results with an attestation that stands for the
 * period ($2..$3, every matching result's), whatever the measured status; `attested-open`, those the
 * record still measures as an open gap (attested, not yet closed by evidence). Inside the OR the
 * attested pairs are read once per statement into a hash (`attestedPairs`).
 */
const ATTESTATION_MATCHES = (r: string, param: string) =>
  `(${param}::text IS NULL OR ((${param} = 'attested' OR ${r}.status = 'open-gap') AND (${r}.patient_id, ${r}.measure_id) IN (${attestedPairs('$2', '$3')})))`;

/** Result `r` matches the filters: $2–$6 and the attestation filter (`attestation`: $11 in a page, $7 in the count). */
const MATCHES = (r: string, attestation = '$11') =>
  `${r}.period_start = $2 AND ${r}.period_end = $3 AND ($4::text IS NULL OR ${r}.measure_id = $4)
    AND ($5::text IS NULL OR ${r}.status = $5) AND ($6::text IS NULL OR ${r}.reason_code LIKE $6) AND ${ATTESTATION_MATCHES(r, attestation)}`;

/** Result `r` matches a page's filters: as a fixed statement of `shape` takes them, or all NULL-able (`shape` null). */
const pageMatches = (r: string, shape: WorklistPageShape | null) => (shape ? fixedMatches(r, shape) : MATCHES(r));

/** The patient's row as the cohort reads it (the caller's projection decides which fields leave). */
const PAGE_COLUMNS = `p.id::text AS id, p.mrn, p.given_name AS "givenName", p.family_name AS "familyName", ${DAY('p.birth_date', 'birthDate')}, p.sex,
  p.phone, p.email, p.address_line AS "addressLine", p.city, p.state, p.postal_code AS "postalCode",
  to_char(p.deceased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "deceasedAt"`;

/**
 * A worklist result's fields, in the order the page statement sends them (`RESULTS_COLUMN`) and
 * `WORKLIST_RESULT_FIELD_NAMES` names them back (the projection reads the tuples by those names): one list, so the two cannot disagree.
 */
export const WORKLIST_RESULT_FIELDS = [
  ['measureId', 'r.measure_id'],
  ['status', 'r.status'],
  ['reasonCode', 'r.reason_code'],
  ['reason', 'r.reason'],
  ['toClose', 'r.to_close'],
  ['lastEvidenceOn', "to_char(r.last_evidence_on, 'YYYY-MM-DD')"],
  ['computedAt', `to_char(r.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`],
  ['stale', 'r.data_version <> p.data_version'],
  ['attestations', attestationsJson('r.patient_id', 'r.measure_id', 'r.period_start', 'r.period_end')],
] as const;

/**
 * The page patient `p`'s matching results, as one JSON array in measure order, with when each was
 * computed and whether the data moved on since: read with the page (one statement, one plan and
 * 25 rows instead of a second statement's 150), each patient's by the primary key. Each result is
 * a JSON array of `WORKLIST_RESULT_FIELDS`' values, not an object: the keys would be built, sent
 * and parsed 150 times a page (the statement for a page of 25, unfiltered, at 100,000 patients:
 * 2.22–2.36 ms with an object per result, 1.94–2.06 ms with arrays, alternated on one connection).
 */
const resultsColumn = (shape: WorklistPageShape | null) => `(SELECT coalesce(json_agg(json_build_array(${WORKLIST_RESULT_FIELDS.map(([, value]) => value).join(', ')}) ORDER BY r.measure_id), '[]'::json)
  FROM measure_results r WHERE r.patient_id = p.id AND ${pageMatches('r', shape)}) AS "results"`;

export type WorklistSort = 'name' | 'age' | 'lastResult';
export type WorklistOrder = 'asc' | 'desc';

/**
 * The orders by a patient's own columns: their sort keys (one or two, each with its SQL type; the
 * cursor carries them as text) and whether `asc` runs them upwards. The patient id breaks ties, so
 * the order is total. (`lastResult` is ordered by the results: its statements are below.) The
 * columns are unqualified: the page walks them as `k`, and reads the page's rows as `p`.
 */
const ORDERS: Record<'name' | 'age', { keys: [string, string][]; ascending: boolean }> = {
  name: { keys: [['family_name', 'text'], ['given_name', 'text']], ascending: true },
  // Youngest first is the latest birth date first.
  age: { keys: [['birth_date', 'date']], ascending: false },
};

/** How a walk in a patient order checks the filters (see `pageStatement`). */
export type FilterCheck = 'probe' | 'hashed';

/**
 * The walked patient (`column`) has a matching result, checked against a hash of every matching
 * result's patient read once (a "hashed SubPlan"), then the team probed for the few that match.
 * Postgres turns an IN at the top of a WHERE into a join, which under an ordered walk is a probe per
 * patient again; inside an OR it stays a subquery, hashed, and the constant FALSE is folded away
 * after that decision (checked in measure-store-plans.int-case). The hash is only chosen while
 * the planner expects it to fit in work_mem: used only for rare filters, it does by a wide margin.
 */
const HASHED_MATCH = (column: string, shape: WorklistPageShape | null) => `(${column} IN (${shape ? FIXED_HASH_OF(shape) : `SELECT m.patient_id FROM measure_results m WHERE ${MATCHES('m')}`}) OR FALSE)
    AND ${onCareTeams(column, '$1')}`;

/**
 * Fewer matching results than this and a walk in a patient order checks them hashed (see
 * `pageStatement`): at 100,000 patients the two cost the same near 6,600 for a page of 25.
 */
export const SPARSE_MATCHES_BELOW = 5000;

/** A one-key order binds $8 all the same (every order takes the same parameters), so it must be typed. */
const ONE_KEY = '\n  AND ($8::text IS NULL OR TRUE)';

/**
 * The walk resumes after the keyset: `(keys, id) > ($7[, $8], $9)` (`<` downwards, `upwards` false),
 * typed `types`. NULL-able (`shape` null: a first page binds NULLs), or as a fixed shape has it: the
 * comparison (an index condition of the walk), or, on a first page, the keyset absent.
 */
function afterKeyset(keys: string[], types: string[], id: string, upwards: boolean, shape: WorklistPageShape | null): string {
  const comparison = `(${keys.join(', ')}, ${id}) ${upwards ? '>' : '<'} (${keys.map((_, i) => `$${7 + i}::${types[i]}`).join(', ')}, $9::uuid)`;
  if (!shape) return `($9::uuid IS NULL OR ${comparison})${keys.length === 1 ? ONE_KEY : ''}`;
  // Every fixed statement has its walk's keyset once: there it is also kept serial.
  if (!shape.after) return `${absent('$7', types[0])} AND ${absent('$8', types[1] ?? 'text')} AND ${absent('$9', 'uuid')} AND ${SERIAL_ONLY}`;
  return `${comparison}${keys.length === 1 ? `\n  AND ${absent('$8', 'text')}` : ''} AND ${SERIAL_ONLY}`;
}

/**
 * A page in a patient order: the inner query walks the order's index (`IDX_patients_name_order`,
 * `IDX_patients_birth_order`: key columns and id) without reading a patient's row, checks team and
 * results on the way, and stops at the limit; only the page's patients' rows are then read, by
 * primary key. A rare filter walks far (CMS122 open gaps by name: ~3,000 patients for a page of 25 at
 * 100,000) and reading every walked row doubled the page's time (16.8 → 8.7 ms median, measured).
 *
 * How the walk checks the filters (`FilterCheck`): `probe` looks each walked patient up in the
 * results index, which is cheapest when most patients match (the walk stops soon). `hashed` reads
 * every matching result once into a hash table first and checks each walked patient against it:
 * cheapest when few match, where the walk is long. At 100,000 patients, warm (median of four):
 * CMS122 open gaps (1,554 results) 8.4 ms probed, 1.1 ms hashed; CMS951 closed gaps (4,370) 2.9 and
 * 1.5 ms; CMS165 open gaps (12,539) 1.1 and 3.4 ms; CMS130, any status (100,030) 0.3 and 26 ms.
 * The repository picks by counting the matching results up to `SPARSE_MATCHES_BELOW`.
 */
function pageStatement(sort: 'name' | 'age', order: WorklistOrder, check: FilterCheck = 'probe', shape: WorklistPageShape | null = null): string {
  const { keys, ascending } = ORDERS[sort];
  const up = ascending === (order === 'asc');
  const direction = up ? 'ASC' : 'DESC';
  const orderBy = (alias: string) => `${keys.map(([key]) => `${alias}.${key} ${direction}`).join(', ')}, ${alias}.id ${direction}`;
  const walk = `SELECT k.id FROM patients k
  WHERE ${check === 'probe' ? `${onCareTeams('k.id', '$1')}
    AND EXISTS (SELECT 1 FROM measure_results m WHERE m.patient_id = k.id AND ${pageMatches('m', shape)})` : HASHED_MATCH('k.id', shape)}
    AND ${afterKeyset(keys.map(([key]) => `k.${key}`), keys.map(([, type]) => type), 'k.id', up, shape)}
  ORDER BY ${orderBy('k')}`;
  return `SELECT ${PAGE_COLUMNS}, p.${keys[0][0]}::text AS "key1", ${keys[1] ? `p.${keys[1][0]}` : 'NULL'}::text AS "key2",
  ${resultsColumn(shape)}
FROM (${shape ? `SELECT walk.id FROM (${walk}\n  ${cappedLimit('walk')}` : `${walk}\n  LIMIT $10`}) page
JOIN patients p ON p.id = page.id
ORDER BY ${orderBy('p')}`;
}

/** A result's day for ordering: never-dated results sort as the oldest (the most overdue). */
const DAY_KEY = (r: string) => `coalesce(${r}.last_evidence_on, DATE '0001-01-01')`;

/**
 * `lastResult` of one measure: each patient has one matching result, so its day is that row's, and
 * the page is a walk of `IDX_measure_results_last_evidence` (period, measure, day, patient), or
 * with a status of `IDX_measure_results_measure_status_last_evidence` (period, measure, status,
 * day, patient; partial, hence `period_end >= period_start`, see migration 1764555000000) that stops at its limit, the team and the other filters checked on the way. The same keys, order and
 * cursor as the any-measure form below.
 */
function lastResultOfMeasureStatement(order: WorklistOrder, shape: WorklistPageShape | null = null): string {
  const direction = order === 'asc' ? 'ASC' : 'DESC';
  const day = DAY_KEY('m');
  const filters = shape
    ? `${fixedMatches('m', shape)} AND m.period_end >= m.period_start`
    : `m.period_start = $2 AND m.period_end = $3 AND m.measure_id = $4 AND m.period_end >= m.period_start
  AND ($5::text IS NULL OR m.status = $5) AND ($6::text IS NULL OR m.reason_code LIKE $6) AND ${ATTESTATION_MATCHES('m', '$11')}`;
  return lastResultWalk(`SELECT ${PAGE_COLUMNS}, ${day}::text AS "key1", NULL::text AS "key2",
  ${resultsColumn(shape)}
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE ${filters}
  AND ${onCareTeams('p.id', '$1')}
  AND ${afterKeyset([day], ['date'], 'm.patient_id', order === 'asc', shape)}
ORDER BY ${day} ${direction}, m.patient_id ${direction}`, shape);
}

/** A `lastResult` walk (`select`, ordered) to the page's row cap: `LIMIT $10`, or capped in a fixed statement (`cappedLimit`). */
const lastResultWalk = (select: string, shape: WorklistPageShape | null) => (shape ? `SELECT walk.* FROM (${select}\n${cappedLimit('walk')}` : `${select}\nLIMIT $10`);

/**
 * `lastResult` over every measure: a patient sorts by the latest day among their matching results.
 * The page walks `IDX_measure_results_any_last_evidence` (period, day, patient), or with a status
 * `IDX_measure_results_status_last_evidence` (status, period, day, patient), over every measure's
 * matching results, and a row stands for its patient only when it is the patient's
 * latest matching result (ties broken by measure id, so exactly one row does); it stops at its
 * limit, like the one-measure walk, instead of computing every team patient's day and sorting them
 * (no page in 10 s at 51,000 patients, measured). Same keys, order and cursor as before.
 * `period_end >= period_start` holds for every row: it is the indexes' partial condition, which
 * keeps them to this statement (see the migration 1764555000000).
 */
function lastResultOfAnyMeasureStatement(order: WorklistOrder, shape: WorklistPageShape | null = null): string {
  const direction = order === 'asc' ? 'ASC' : 'DESC';
  const day = DAY_KEY('m');
  return lastResultWalk(`SELECT ${PAGE_COLUMNS}, ${day}::text AS "key1", NULL::text AS "key2",
  ${resultsColumn(shape)}
FROM measure_results m JOIN patients p ON p.id = m.patient_id
WHERE ${pageMatches('m', shape)} AND m.period_end >= m.period_start
  AND ${onCareTeams('p.id', '$1')}
  AND NOT EXISTS (SELECT 1 FROM measure_results o WHERE o.patient_id = m.patient_id AND ${pageMatches('o', shape)}
    AND (${DAY_KEY('o')}, o.measure_id) > (${day}, m.measure_id))
  AND ${afterKeyset([day], ['date'], 'm.patient_id', order === 'asc', shape)}
ORDER BY ${day} ${direction}, m.patient_id ${direction}`, shape);
}

type Direction = 'Asc' | 'Desc';
/** A fixed statement's name (`worklistStatementName`): order, direction, and the parts of its shape. */
type FixedStatementName =
  | `worklistBy${'Name' | 'Age'}${Direction}Fixed${'' | 'Measure'}${'' | 'Status'}${'' | 'After'}`
  | `worklistBy${'Name' | 'Age'}${Direction}HashedFixedMeasure${'' | 'Status'}${'' | 'After'}`
  | `worklistBy${'LastResult' | 'LastResultOfMeasure'}${Direction}Fixed${'' | 'Status'}${'' | 'After'}`;

/**
 * Every fixed page statement (`WorklistPageShape`): each patient order with each shape, probed, and
 * hashed when the shape has a measure (only a measure makes a fixed shape's filters rare: see
 * `fixedShapeOf`), and each `lastResult` walk with each shape of its own (one measure: the measure
 * given; every measure: none).
 */
function fixedStatements(): Record<string, string> {
  const statements: Record<string, string> = {};
  for (const order of ['asc', 'desc'] as const) {
    for (const shape of WORKLIST_PAGE_SHAPES) {
      for (const sort of ['name', 'age'] as const) {
        for (const check of shape.measure ? (['probe', 'hashed'] as const) : (['probe'] as const)) {
          statements[worklistStatementName(sort, order, false, check, shape)] = pageStatement(sort, order, check, shape);
        }
      }
      const lastResult = shape.measure ? lastResultOfMeasureStatement(order, shape) : lastResultOfAnyMeasureStatement(order, shape);
      statements[worklistStatementName('lastResult', order, shape.measure, 'probe', shape)] = lastResult;
    }
  }
  return statements;
}

export const WORKLIST_STATEMENTS = {
  worklistByNameAsc: pageStatement('name', 'asc'),
  worklistByNameDesc: pageStatement('name', 'desc'),
  worklistByAgeAsc: pageStatement('age', 'asc'),
  worklistByAgeDesc: pageStatement('age', 'desc'),
  worklistByLastResultAsc: lastResultOfAnyMeasureStatement('asc'),
  worklistByLastResultDesc: lastResultOfAnyMeasureStatement('desc'),
  worklistByLastResultOfMeasureAsc: lastResultOfMeasureStatement('asc'),
  worklistByLastResultOfMeasureDesc: lastResultOfMeasureStatement('desc'),
  worklistByNameAscHashed: pageStatement('name', 'asc', 'hashed'),
  worklistByNameDescHashed: pageStatement('name', 'desc', 'hashed'),
  worklistByAgeAscHashed: pageStatement('age', 'asc', 'hashed'),
  worklistByAgeDescHashed: pageStatement('age', 'desc', 'hashed'),
  ...(fixedStatements() as Record<FixedStatementName, string>),

  /**
   * How many results match the filters ($2–$6 as a page's, $7 its attestation filter), counted up
   * to $1: whether a walk in a patient order should check them hashed (`SPARSE_MATCHES_BELOW`). An
   * index-only walk of at most $1 entries of `IDX_measure_results_worklist` when a measure is given.
   */
  worklistMatchingResults: `SELECT count(*)::int AS "matching" FROM (SELECT 1 FROM measure_results m WHERE ${MATCHES('m', '$7')} LIMIT $1) c`,
} as const;

export type WorklistStatementName = keyof typeof WORKLIST_STATEMENTS;
