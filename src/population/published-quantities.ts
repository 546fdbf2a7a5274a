import { AGE_BANDS, GAP_STATUSES, KNOWN_REASON_CLASSES, Microcell, isAgeBand, isGapStatus, microcellKey, teamSetOf } from './microcells';

/**
 * The fixed publication: which tables exist, which numbers they hold, and for each number the
 * microcells it sums (its functional). Numbers that are the same sum (a measure's status totals
 * appear in four tables) are one quantity, so they are shown or suppressed together.
 */

export type Stratifier = 'careTeam' | 'ageBand' | 'sex';
export const STRATIFIERS: readonly Stratifier[] = ['careTeam', 'ageBand', 'sex'];

/** What a number counts: the patients of one measure matching every field given. */
export interface CountPredicate {
  measureId: string;
  careTeam?: string;
  /** The exact team set (protected, never published): the patients on exactly these teams. */
  careTeamSet?: readonly string[];
  ageBand?: string;
  sex?: string;
  status?: string;
  reasonClass?: string;
}

export interface Quantity {
  key: string;
  predicate: CountPredicate;
  /** Indices of the microcells it sums. */
  support: number[];
  value: number;
  /** False for protected counts that no table shows (exact care-team sets). */
  published: boolean;
  /** A row total, column total or grand total somewhere (preferred last as a complementary suppression). */
  margin: boolean;
  /** The table rows and columns it lies on, `table|row|label` or `table|column|label` (label `total` for the margins). */
  lines: Set<string>;
}

export type TableRowDimension = Stratifier | 'status' | 'measure';
export type TableColumnDimension = 'status' | 'reasonClass';

/** A table as quantity keys; the publisher turns each key into a shown count or a suppression. */
export interface TableLayout {
  id: string;
  measureId: string | null;
  rowDimension: TableRowDimension;
  columnDimension: TableColumnDimension;
  rows: string[];
  columns: string[];
  cells: string[][];
  rowTotals: string[];
  columnTotals: string[] | null;
  grandTotal: string | null;
}

export interface StrataDomains {
  /** Care teams listed even when no patient of a measure is on them (observed teams are always added). */
  careTeams?: readonly string[];
  /** Sexes listed even when empty (default: FHIR administrative gender); observed values are always added. */
  sexes?: readonly string[];
  /** Measures published even when they have no results. */
  measureIds?: readonly string[];
}

export const DEFAULT_SEXES = ['female', 'male', 'other', 'unknown'] as const;

export interface Publication {
  quantities: Quantity[];
  tables: TableLayout[];
}

function predicateKey(predicate: CountPredicate): string {
  const { measureId, careTeam, careTeamSet, ageBand, sex, status, reasonClass } = predicate;
  return JSON.stringify([measureId, careTeam ?? null, careTeamSet ?? null, ageBand ?? null, sex ?? null, status ?? null, reasonClass ?? null]);
}

type Field = 'careTeam' | 'careTeamSet' | 'ageBand' | 'sex' | 'status' | 'reasonClass';

/**
 * The kinds of count, by the fields they fix besides the measure: every one the tables show, and
 * the exact care-team sets they protect. A microcell is in one count of each kind (one per team
 * for `careTeam`).
 */
const COUNT_KINDS: readonly (readonly Field[])[] = [
  [], ['status'], ['reasonClass'], ['status', 'reasonClass'], ['ageBand'], ['ageBand', 'status'], ['sex'], ['sex', 'status'],
  ['careTeam'], ['careTeam', 'status'], ['careTeamSet'], ['careTeamSet', 'status'],
];

/** Nested maps measure → field values → quantity, one per kind: a lookup per microcell without building a key. */
class KindIndex {
  private readonly root = new Map<string, unknown>();

  find(path: readonly string[], create: () => Quantity): Quantity {
    let node = this.root;
    for (let i = 0; i < path.length - 1; i += 1) {
      let child = node.get(path[i]) as Map<string, unknown> | undefined;
      if (!child) node.set(path[i], (child = new Map()));
      node = child;
    }
    let found = node.get(path[path.length - 1]) as Quantity | undefined;
    if (!found) node.set(path[path.length - 1], (found = create()));
    return found;
  }
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const union = (fixed: readonly string[], observed: Iterable<string>) => [...new Set([...fixed, ...observed])].sort(byCodePoint);

function validate(cells: readonly Microcell[]): void {
  for (const cell of cells) {
    if (!Number.isSafeInteger(cell.count) || cell.count < 0) throw new RangeError('microcell count must be a non-negative integer');
    if (!isGapStatus(cell.status)) throw new RangeError('unknown care-gap status');
    if (!isAgeBand(cell.ageBand)) throw new RangeError('unknown age band');
  }
}

/** Lays out the fixed tables over the given microcells and computes every number's functional and value. */
export function buildPublication(input: readonly Microcell[], domains: StrataDomains = {}): Publication {
  validate(input);
  // A combination nobody has adds nothing to any sum; leaving it out keeps every support non-redundant.
  // Sorted, so the choice of complements does not depend on the order the caller listed them in.
  const cells = input
    .filter((cell) => cell.count > 0)
    .map((cell) => ({ cell, key: microcellKey(cell) }))
    .sort((a, b) => byCodePoint(a.key, b.key))
    .map(({ cell }) => cell);
  const quantities = new Map<string, Quantity>();
  const quantity = (predicate: CountPredicate, published: boolean): Quantity => {
    const key = predicateKey(predicate);
    let found = quantities.get(key);
    if (!found) {
      found = { key, predicate, support: [], value: 0, published, margin: false, lines: new Set() };
      quantities.set(key, found);
    }
    found.published ||= published;
    return found;
  };

  const measureIds = union(domains.measureIds ?? [], cells.map((cell) => cell.measureId));
  const careTeams = union(domains.careTeams ?? [], cells.flatMap((cell) => cell.careTeams));
  const sexes = union(domains.sexes ?? DEFAULT_SEXES, cells.map((cell) => cell.sex));
  const observedClasses = new Set(cells.map((cell) => cell.reasonClass));
  const reasonClasses = [
    ...KNOWN_REASON_CLASSES,
    ...[...observedClasses].filter((c) => !(KNOWN_REASON_CLASSES as readonly string[]).includes(c)).sort(byCodePoint),
  ];
  const strata: Record<Stratifier, readonly string[]> = { careTeam: careTeams, ageBand: AGE_BANDS, sex: sexes };

  const tables: TableLayout[] = [];
  const addTable = (
    id: string,
    measureId: string | null,
    rowDimension: TableRowDimension,
    columnDimension: TableColumnDimension,
    rows: readonly string[],
    columns: readonly string[],
    predicate: (row: string | null, column: string | null) => CountPredicate | null,
  ) => {
    const place = (row: string | null, column: string | null, margin: boolean): string | null => {
      const wanted = predicate(row, column);
      if (!wanted) return null;
      const found = quantity(wanted, true);
      found.margin ||= margin;
      // Totals lie on the table's total row and total column, as they are printed.
      found.lines.add(`${id}|row|${row ?? 'total'}`);
      found.lines.add(`${id}|column|${column ?? 'total'}`);
      return found.key;
    };
    const columnTotals = columns.map((column) => place(null, column, true));
    const grandTotal = place(null, null, true);
    tables.push({
      id,
      measureId,
      rowDimension,
      columnDimension,
      rows: [...rows],
      columns: [...columns],
      cells: rows.map((row) => columns.map((column) => place(row, column, false) as string)),
      rowTotals: rows.map((row) => place(row, null, true) as string),
      columnTotals: columnTotals.every((key) => key !== null) ? (columnTotals as string[]) : null,
      grandTotal,
    });
  };

  addTable('measures', null, 'measure', 'status', measureIds, GAP_STATUSES, (measureId, status) =>
    // A sum over measures would count evaluations, not patients, and would tie every measure's
    // tables into one system; the overall table has no column totals or grand total.
    measureId === null ? null : { measureId, ...(status === null ? {} : { status }) },
  );
  for (const measureId of measureIds) {
    for (const stratifier of STRATIFIERS) {
      addTable(`${measureId}/${stratifier}`, measureId, stratifier, 'status', strata[stratifier], GAP_STATUSES, (row, status) => ({
        measureId,
        ...(row === null ? {} : { [stratifier]: row }),
        ...(status === null ? {} : { status }),
      }));
    }
    addTable(`${measureId}/reasonClass`, measureId, 'status', 'reasonClass', GAP_STATUSES, reasonClasses, (status, reasonClass) => ({
      measureId,
      ...(status === null ? {} : { status }),
      ...(reasonClass === null ? {} : { reasonClass }),
    }));
  }

  const indexes = COUNT_KINDS.map(() => new KindIndex());
  cells.forEach((cell, index) => {
    const careTeamSet = teamSetOf(cell.careTeams);
    const setLabel = JSON.stringify(careTeamSet);
    COUNT_KINDS.forEach((kind, k) => {
      for (const careTeam of kind.includes('careTeam') ? careTeamSet : ['']) {
        const value = (field: Field) => (field === 'careTeam' ? careTeam : field === 'careTeamSet' ? setLabel : cell[field]);
        const found = indexes[k].find([cell.measureId, ...kind.map(value)], () =>
          quantity({ measureId: cell.measureId, ...Object.fromEntries(kind.map((field) => [field, field === 'careTeamSet' ? careTeamSet : value(field)])) }, false),
        );
        found.support.push(index);
        found.value += cell.count;
      }
    });
  });
  return { quantities: [...quantities.values()], tables };
}
