import { createHash } from 'node:crypto';
import { Microcell, microcellKey } from './microcells';
import { LARGEST_PROTECTED_COUNT, MAX_PERTURBATION, PTABLE, SMALLEST_NON_ZERO_SHOWN, cellKeyOf, perturb } from './perturbation';
import { Publication, StrataDomains, TableColumnDimension, TableLayout, TableRowDimension, buildPublication } from './published-quantities';
import { CheckedDraw, DisclosureTarget, determinedByDraw } from './disclosure-check';

/**
 * The de-identified counts an analyst may read for one period: every fixed table over the stored
 * care-gap results, each count perturbed by cell-key perturbation. Pure: the caller supplies the
 * microcells of one period (with their record-key sums) and serves the whole result.
 */

export interface PublishedTable {
  /** `measures`, or `<measure>/<careTeam|ageBand|sex|reasonClass>`. */
  id: string;
  measureId: string | null;
  rowDimension: TableRowDimension;
  columnDimension: TableColumnDimension;
  rows: string[];
  columns: string[];
  /** Perturbed counts: 0, or at least 11. */
  cells: number[][];
  rowTotals: number[];
  /** Null in the `measures` table: a sum over measures counts evaluations, not patients. */
  columnTotals: number[] | null;
  grandTotal: number | null;
}

export interface PopulationCounts {
  policy: typeof PERTURBATION_POLICY;
  tables: PublishedTable[];
  /** Tables left out because no draw of them was clean (docs/population-counts.md, "The check"); almost always empty. */
  withheldTables: string[];
}

/** How many draws the publisher tries before it withholds tables: with one draw in ten pinning a count, all 20 fail with odds of 1 in 10^20. */
export const MAX_DRAWS = 20;

export const PERTURBATION_POLICY = {
  method: 'cell-key-perturbation',
  published:
    'Per measure: care team × status, 10-year age band (90+ as one band) × status and sex × status, each with row, column and grand totals; ' +
    'status × reason class with totals; and measure × status with a total per measure. A patient on several care teams counts in each of their ' +
    "teams' rows.",
  rule:
    'Every count is published as the value the ptable gives for it at its cell key. A count of 0 is published as 0. A count of 1 to 10 is ' +
    'published as 0 or 11, with the same odds whatever it is. A larger count is published as itself plus a change of -2 to +2 (never below 11). ' +
    'A draw is published only when no count of 1 to 10 can be solved for from all its tables together, nor from them and the ' +
    'publication before it together with what changed between the two (see limits).',
  ptable: PTABLE,
  largestProtectedCount: LARGEST_PROTECTED_COUNT,
  smallestNonZeroShown: SMALLEST_NON_ZERO_SHOWN,
  maxPerturbation: MAX_PERTURBATION,
  additive: false,
  cellKey:
    'Every patient has a secret random record key, kept in the database and never published. A count\'s cell key is a hash of the sum of ' +
    'its patients\' record keys, salted by the publication\'s inputs: within a publication the same patients are always published alike ' +
    '(in every table and every measure), and any change to the inputs draws every cell key anew.',
  attackerModel:
    'Knows every published value, this policy and the ptable, that every patient has one status per measure (so every measure counts the same ' +
    'patients per stratum), that care teams overlap, and that counts are non-negative integers; between two consecutive publications, per ' +
    'measure, how many results were added and removed, how many changed status and how many changed reason class (as one who watched an ' +
    'import of one patient would), and, when solving for the changed patients\' teams, age bands and sexes, even how many entered and left ' +
    'each status; does not know the record keys.',
  limits: [
    'Counts are not additive: cells need not add up to their totals, and totals over the same patients agree only because they are the same patients.',
    'A published 0 means 0 to 10; any non-zero value means at least 1. Whether a group is empty is disclosed with odds, not certainty.',
    'Each publication draws anew. An analyst who reads many publications whose inputs differ (one per recompute) can average counts that did ' +
      'not change: a protected count stays indistinguishable from the other protected counts, but sums and differences of larger ones narrow.',
    'Bounds: non-negativity and the tables together narrow a count to an interval. Before publishing, the publisher solves every table together ' +
      'as this attacker would (an integer program over care-team set × age band × sex), alone and with the publication before it, and draws ' +
      'again, under another salt, while any true count of 1 to 10 (or any exact care-team set\'s), or how many of the changes fall on a care ' +
      `team, an age band, a sex or a status, has only one value; after ${MAX_DRAWS} draws it withholds whole tables (listed in ` +
      '`withheldTables`) until none has. The check covers consecutive pairs: three or more publications read together are not checked.',
    'Which draw is published depends on the data (a draw that pins a count is never published), so the published values follow the ptable\'s ' +
      'odds only approximately.',
  ],
} as const;

/** The publication's salt: a digest of everything it is computed from, so equal inputs publish equal tables. */
export function publicationSaltOf(microcells: readonly Microcell[], domains: StrataDomains = {}): string {
  const canonical = microcells
    .filter((cell) => cell.count > 0)
    .map((cell) => `${microcellKey(cell)}|${cell.count}|${cell.keySum}`)
    .sort();
  return createHash('sha256').update(JSON.stringify([canonical, domains.careTeams ?? [], domains.sexes ?? [], domains.measureIds ?? []])).digest('hex');
}

/** Draw `attempt`'s salt: the input's digest for the first, a digest of it and the attempt for each redraw. */
const drawSaltOf = (salt: string, attempt: number) => (attempt === 0 ? salt : createHash('sha256').update(`${salt}:redraw:${attempt}`).digest('hex'));

/** Every number's published value in one draw, by quantity key. */
function drawValues(publication: Publication, salt: string): Map<string, number> {
  return new Map(publication.quantities.map((q) => [q.key, perturb(q.value, cellKeyOf(salt, q.keySum))]));
}

function render(tables: readonly TableLayout[], published: ReadonlyMap<string, number>, withheld: ReadonlySet<string>): PopulationCounts {
  const show = (key: string) => published.get(key) as number;
  return {
    policy: PERTURBATION_POLICY,
    tables: tables.filter((table) => !withheld.has(table.id)).map((table) => ({
      id: table.id,
      measureId: table.measureId,
      rowDimension: table.rowDimension,
      columnDimension: table.columnDimension,
      rows: table.rows,
      columns: table.columns,
      cells: table.cells.map((row) => row.map(show)),
      rowTotals: table.rowTotals.map(show),
      columnTotals: table.columnTotals ? table.columnTotals.map(show) : null,
      grandTotal: table.grandTotal === null ? null : show(table.grandTotal),
    })),
    withheldTables: tables.filter((table) => withheld.has(table.id)).map((table) => table.id),
  };
}

/**
 * One draw of the fixed tables, unchecked: draw 0 is the input's own salt, each further attempt
 * another salt from it. What an analyst gets is `publishPopulationCounts`, which checks the draw.
 */
export function drawPopulationCounts(microcells: readonly Microcell[], domains: StrataDomains = {}, attempt = 0): PopulationCounts {
  const publication = buildPublication(microcells, domains);
  return render(publication.tables, drawValues(publication, drawSaltOf(publicationSaltOf(microcells, domains), attempt)), new Set());
}

/** The values the kept tables show, by quantity key. */
function shownBy(tables: readonly TableLayout[], values: ReadonlyMap<string, number>, withheld: ReadonlySet<string>): Map<string, number> {
  const keys = tables.filter((t) => !withheld.has(t.id)).flatMap((t) => [...t.cells.flat(), ...t.rowTotals, ...(t.columnTotals ?? []), ...(t.grandTotal === null ? [] : [t.grandTotal])]);
  return new Map(keys.map((key) => [key, values.get(key) as number]));
}

/**
 * The order tables are withheld in when no draw is clean: the finest first (ten age bands), the
 * overall `measures` table last. Withholding a table only removes numbers, so it never pins a count
 * that was free; with every table withheld nothing is published.
 */
const WITHHOLD_ORDER: readonly ((id: string) => boolean)[] = [
  (id) => id.endsWith('/ageBand'), (id) => id.endsWith('/careTeam'), (id) => id.endsWith('/sex'), (id) => id.endsWith('/reasonClass'), (id) => id === 'measures',
];

/**
 * What the next publication's check needs of this one: its truth and what it showed. Kept by the
 * caller with the publication (in the database), never served.
 */
export interface PublicationRecord {
  /** The digest of the inputs: equal inputs publish equal tables. */
  salt: string;
  microcells: Microcell[];
  domains: StrataDomains;
  /** The published value of every quantity the kept tables show, by quantity key. */
  shown: Record<string, number>;
}

export interface CheckedPublication {
  counts: PopulationCounts;
  record: PublicationRecord;
}

/** The counts of 1 to 10 a draw determines, alone or with the publication before it (empty: it may be published). */
export type DrawCheck = (draw: CheckedDraw, previous: CheckedDraw | null) => Promise<DisclosureTarget[]>;

export const checkDraw: DrawCheck = determinedByDraw;

export interface PublishOptions {
  maxDraws?: number;
  /** The publication served before this one, of the same period: the draw is checked with it. */
  previous?: PublicationRecord | null;
  /** The check of a draw; replaceable only to test the fallback. */
  check?: DrawCheck;
}

/** The previous publication as the check reads it. */
function previousDraw(record: PublicationRecord): CheckedDraw {
  return { microcells: record.microcells, publication: buildPublication(record.microcells, record.domains), shown: new Map(Object.entries(record.shown)) };
}

/**
 * Builds the fixed tables from one period's microcells, perturbs every count, and checks the draw
 * before it is published: while an analyst's integer program over the tables — alone, or with the
 * previous publication's — would pin a count of 1 to 10 or what changed, it draws again under
 * another salt (up to `maxDraws`). When no draw is clean it keeps the first draw and withholds whole
 * tables, finest first, until nothing is pinned (listed in `withheldTables`). Deterministic: the
 * same inputs and the same previous publication publish the same tables.
 */
export async function publishPopulationCounts(microcells: readonly Microcell[], domains: StrataDomains = {}, options: PublishOptions = {}): Promise<CheckedPublication> {
  const { maxDraws = MAX_DRAWS, check = checkDraw } = options;
  const publication = buildPublication(microcells, domains);
  const salt = publicationSaltOf(microcells, domains);
  const previous = options.previous ? previousDraw(options.previous) : null;
  const outcome = (values: ReadonlyMap<string, number>, withheld: ReadonlySet<string>): CheckedPublication => ({
    counts: render(publication.tables, values, withheld),
    record: { salt, microcells: [...microcells], domains, shown: Object.fromEntries(shownBy(publication.tables, values, withheld)) },
  });
  const isClean = async (values: ReadonlyMap<string, number>, withheld: ReadonlySet<string>) =>
    (await check({ microcells, publication, shown: shownBy(publication.tables, values, withheld) }, previous)).length === 0;
  const none = new Set<string>();
  for (let attempt = 0; attempt < maxDraws; attempt += 1) {
    const values = drawValues(publication, drawSaltOf(salt, attempt));
    if (await isClean(values, none)) return outcome(values, none);
  }
  const values = drawValues(publication, salt);
  const withheld = new Set<string>();
  for (const isWithheldNext of WITHHOLD_ORDER) {
    for (const table of publication.tables) {
      if (!isWithheldNext(table.id) || withheld.has(table.id)) continue;
      withheld.add(table.id);
      if (await isClean(values, withheld)) return outcome(values, withheld);
    }
  }
  return outcome(values, withheld);
}
