import type { FilterCheck, WorklistOrder, WorklistSort, WorklistStatementName } from './worklist.sql';

/**
 * A page statement fixed for one page shape, prepared by name on each connection: Postgres then
 * plans it once instead of on every call (0.6–1.0 ms a page at 100,000 patients, as much as running
 * it). After five runs it keeps one generic plan, made without the parameters' values, when that
 * plan costs no more than those made for them. A filter written `($n IS NULL OR …)` ruins such a
 * plan: it cannot drive an index (a generic plan of the NULL-able statements walked every result,
 * 0.6–6 s a page) and its selectivity is guessed at a few percent, so the plan is costed as a whole
 * walk and never chosen. So a fixed statement states which filters it has: the measure ($4), the
 * status ($5) and whether the page follows a keyset ($7–$9). A part it lacks is still typed and
 * checked once, `$n IS NULL` (a one-time filter): bound to the wrong statement it answers no rows,
 * never rows of another filter. A walk in a patient order that checks the filters hashed (a rare
 * measure and status: `FilterCheck`) has fixed statements too, since its measure and status, fixed
 * in the text, are the index conditions that read the hash (a NULL-able measure could only filter,
 * reading every result of the period into it). A reason ($6) or attestation ($11) filter takes the
 * NULL-able statements, planned per call.
 */
export interface WorklistPageShape {
  measure: boolean;
  status: boolean;
  after: boolean;
}

/** Every fixed shape, in the order `statements.sql` lists them. */
export const WORKLIST_PAGE_SHAPES: readonly WorklistPageShape[] = [false, true].flatMap((measure) =>
  [false, true].flatMap((status) => [false, true].map((after) => ({ measure, status, after }))),
);

/** The most rows a page statement returns ($10 at most): a page of at most 100 patients, and one to tell whether another follows. */
export const WORKLIST_ROWS_MAX = 101;

/**
 * The page's row cap, $10, over a walk capped at `WORKLIST_ROWS_MAX` (`alias`: the walk's), in a
 * fixed statement. The rows are the same (the cap is never below $10) and the walk still stops at
 * $10 rows (a row is produced only when the outer limit asks for it). Not knowing $10, the planner
 * costs a generic plan's walk as a tenth of the whole; with a constant cap, as a custom plan does.
 */
export const cappedLimit = (alias: string): string => `LIMIT ${WORKLIST_ROWS_MAX}) ${alias}\nLIMIT $10`;

/**
 * Keeps a fixed statement's plan serial: `current_schema()` is marked parallel-unsafe, and Postgres
 * decides whether a statement may run in parallel before it folds `… OR TRUE` away, so the rows are
 * untouched. A generic plan, costed for an average status, otherwise walked with two parallel workers
 * started for every page: 11–14 ms a page where the serial walk takes 1–2 (closed gaps by the last
 * result, open gaps by name, at 100,000 patients). The NULL-able statements' custom plans stay serial.
 */
export const SERIAL_ONLY = '(current_schema() IS NULL OR TRUE)';

/** A part a fixed statement lacks: its parameter typed, and NULL checked once (a one-time filter). */
export const absent = (param: string, type: string): string => `${param}::${type} IS NULL`;

/**
 * Result `r` of a fixed statement matches the filters: the period ($2, $3), the measure and status
 * when the shape has them, and no reason or attestation filter. `unseen`: the measure and status are
 * compared with their values as an InitPlan returns them, `(SELECT $4::text)`, still index conditions
 * but unknown to the planner even in a plan made for the parameters (see `FIXED_HASH_OF`).
 */
export const fixedMatches = (r: string, shape: WorklistPageShape, unseen = false): string => {
  const value = (param: string) => (unseen ? `(SELECT ${param}::text)` : `${param}::text`);
  return `${r}.period_start = $2 AND ${r}.period_end = $3 AND ${shape.measure ? `${r}.measure_id = ${value('$4')}` : absent('$4', 'text')}
    AND ${shape.status ? `${r}.status = ${value('$5')}` : absent('$5', 'text')} AND ${absent('$6', 'text')} AND ${absent('$11', 'text')}`;
};

/**
 * The patient ids of the results matching a fixed shape, as the subquery of a hashed check. The
 * plans Postgres makes for a page's values (its first five runs on a connection) are what a generic
 * plan must not cost more than to be kept, and they see the filter's true rarity: the hash's rows as
 * 8,477 where a generic plan reckons 33,347 (CMS122 open gaps at 100,000 patients, 1,554 in fact),
 * so it never was (planned on every call, 0.7–1.1 ms, as long as the page's run). With the measure
 * and status unseen both plan alike and the generic one is kept from the sixth run. The ids pass
 * through an array so that the hash is reckoned at `unnest`'s few rows whatever the cohort's size:
 * reckoned from the table, a measure's share of a larger cohort's results would no longer fit in
 * `hash_mem`, and the check would become a scan of the results for each walked patient. Only a rare
 * filter is checked hashed (`SPARSE_MATCHES_BELOW`), so the array stays small.
 */
export const FIXED_HASH_OF = (shape: WorklistPageShape): string =>
  `SELECT unnest(ARRAY(SELECT m.patient_id FROM measure_results m WHERE ${fixedMatches('m', shape, true)}))`;

/**
 * The name of a page statement. `oneMeasure`: the page is filtered to one measure (then
 * `lastResult` walks an index); `check`: how a walk in a patient order checks the filters
 * (`lastResult` walks the results themselves); `shape`: a fixed statement's (`Fixed` and its parts),
 * or null for the NULL-able one.
 */
export function worklistStatementName(sort: WorklistSort, order: WorklistOrder, oneMeasure = false, check: FilterCheck = 'probe', shape: WorklistPageShape | null = null): WorklistStatementName {
  const name = { name: 'Name', age: 'Age', lastResult: oneMeasure ? 'LastResultOfMeasure' : 'LastResult' }[sort];
  const hashed = check === 'hashed' && sort !== 'lastResult' ? 'Hashed' : '';
  const fixed = shape ? `Fixed${shape.measure && sort !== 'lastResult' ? 'Measure' : ''}${shape.status ? 'Status' : ''}${shape.after ? 'After' : ''}` : '';
  return `worklistBy${name}${order === 'asc' ? 'Asc' : 'Desc'}${hashed}${fixed}` as WorklistStatementName;
}

/**
 * The fixed shape of a page (`after`: it follows a keyset), or null when only the NULL-able
 * statements serve it: a reason or attestation filter, or a walk checked hashed without a measure
 * (which only those filters make rare, so it has no fixed statement).
 */
export function fixedShapeOf(query: { measureId?: string; status?: string; reason?: string; attestation?: string }, check: FilterCheck, after: boolean): WorklistPageShape | null {
  if (query.reason !== undefined || query.attestation !== undefined) return null;
  if (check === 'hashed' && query.measureId === undefined) return null;
  return { measure: query.measureId !== undefined, status: query.status !== undefined, after };
}

/** The name a fixed statement is prepared under on each connection. */
export const preparedWorklistName = (name: WorklistStatementName): string => `worklist.${name}`;
