import { SMALLEST_SHOWN_COUNT, SuppressionRule, suppressCells } from './cell-suppression';
import { Microcell } from './microcells';
import { StrataDomains, TableColumnDimension, TableRowDimension, buildPublication } from './published-quantities';

/**
 * The de-identified counts an analyst may read for one period: every fixed table over the stored
 * care-gap results, with small cells and their complements suppressed. Pure: the caller supplies
 * the microcells of one period and publishes the whole result (or parts of this one result), never
 * a recomputation over a different selection (docs/population-counts.md, "Differencing").
 */

export type PublishedCount = { count: number } | { suppressed: true; rule: SuppressionRule };

export interface PublishedTable {
  /** `measures`, or `<measure>/<careTeam|ageBand|sex|reasonClass>`. */
  id: string;
  measureId: string | null;
  rowDimension: TableRowDimension;
  columnDimension: TableColumnDimension;
  rows: string[];
  columns: string[];
  cells: PublishedCount[][];
  rowTotals: PublishedCount[];
  /** Null in the `measures` table: a sum over measures counts evaluations, not patients. */
  columnTotals: PublishedCount[] | null;
  grandTotal: PublishedCount | null;
}

export interface PopulationCounts {
  policy: typeof SUPPRESSION_POLICY;
  tables: PublishedTable[];
}

export const SUPPRESSION_POLICY = {
  smallestShownCount: SMALLEST_SHOWN_COUNT,
  suppressedCounts: '1 to 10 (CMS cell-size suppression policy)',
  zeroShown: true,
  published:
    'Per measure: care team × status, 10-year age band (90+ as one band) × status and sex × status, each with row, column and grand totals; ' +
    'status × reason class with totals; and measure × status with a total per measure. A patient on several care teams counts in each of their ' +
    "teams' rows, so care-team rows may add up to more than the column totals, which count patients.",
  primary: 'Every published count from 1 to 10 is suppressed.',
  complementary:
    'While any suppressed count (or any count of 1 to 10 of patients on one exact set of care teams) equals a linear combination of the shown counts of ' +
    'the same measure, more shown counts are suppressed: for each such count, one its derivation uses, preferring inner cells to totals, its own row ' +
    'or column, then its table, the count shown in fewest places, the smallest count. Afterwards any complement that is no longer needed is shown again.',
  zeroReason: 'CMS suppresses counts of 1 to 10; many zeros are structural, and what a zero discloses is listed under limits.',
  attackerModel:
    'Knows every shown count, that counts are non-negative integers, and which combinations are empty (more than an analyst knows: conservative).',
  derivability:
    'Exact: the count\'s vector over the finest cross-classification (care-team set × age band × sex × status × reason class) is tested for ' +
    'membership in the rational span of the shown counts\' vectors, by fraction-free integer elimination.',
  limits: [
    'Bounds are not protected: a suppressed count is never determined, but non-negativity can narrow it to an interval (sometimes a short one).',
    'Only published counts and exact care-team-set counts are protected; the sum of two or more suppressed counts may be derivable.',
    'A zero is shown, and a shown count can equal its row or column total: that every patient of a group shares a status is disclosed.',
    'Protection holds within one publication (one period, one set of stored results). Tables of other periods, or of the same period after its ' +
      'results were recomputed, are other publications; their differences are not protected.',
  ],
} as const;

/** Builds the fixed tables from one period's microcells and applies primary and complementary suppression. */
export function publishPopulationCounts(
  microcells: readonly Microcell[],
  domains: StrataDomains = {},
  arithmetic?: Parameters<typeof suppressCells>[1],
): PopulationCounts {
  const { quantities, tables } = buildPublication(microcells, domains);
  const suppressed = suppressCells(quantities, arithmetic);
  const value = new Map(quantities.map((q) => [q.key, q.value]));
  const show = (key: string): PublishedCount => {
    const rule = suppressed.get(key);
    return rule ? { suppressed: true, rule } : { count: value.get(key) as number };
  };
  return {
    policy: SUPPRESSION_POLICY,
    tables: tables.map((table) => ({
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
  };
}
