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
 * never rows of another filter. A reason ($6) or attestation ($11) filter, and a walk that checks
 * the filters hashed, take the NULL-able statements, planned per call (a hash built from a measure
 * and status that a generic plan could only filter on would read every result of the period).
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
 * when the shape has them, and no reason or attestation filter.
 */
export const fixedMatches = (r: string, shape: WorklistPageShape): string =>
  `${r}.period_start = $2 AND ${r}.period_end = $3 AND ${shape.measure ? `${r}.measure_id = $4::text` : absent('$4', 'text')}
    AND ${shape.status ? `${r}.status = $5::text` : absent('$5', 'text')} AND ${absent('$6', 'text')} AND ${absent('$11', 'text')}`;

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
 * statements serve it: a reason or attestation filter, or a walk that checks the filters hashed.
 */
export function fixedShapeOf(query: { measureId?: string; status?: string; reason?: string; attestation?: string }, check: FilterCheck, after: boolean): WorklistPageShape | null {
  if (query.reason !== undefined || query.attestation !== undefined || check === 'hashed') return null;
  return { measure: query.measureId !== undefined, status: query.status !== undefined, after };
}

/** The name a fixed statement is prepared under on each connection. */
export const preparedWorklistName = (name: WorklistStatementName): string => `worklist.${name}`;
