import { AGE_BANDS, GAP_STATUSES, KNOWN_REASON_CLASSES, Microcell, isAgeBand, isGapStatus, microcellKey, teamSetOf } from './microcells';
import { KEY_MODULUS, addKeys } from './perturbation';

/**
 * The fixed publication: which tables exist, which numbers they hold, and for each number how many
 * patients it counts and the sum of their record keys. Numbers with the same predicate (a
 * measure's status totals appear in four tables) are one quantity.
 */

export type Stratifier = 'careTeam' | 'ageBand' | 'sex';
export const STRATIFIERS: readonly Stratifier[] = ['careTeam', 'ageBand', 'sex'];

/** What a number counts: the patients of one measure matching every field given. */
export interface CountPredicate {
  measureId: string;
  careTeam?: string;
  ageBand?: string;
  sex?: string;
  status?: string;
  reasonClass?: string;
}

export interface Quantity {
  key: string;
  predicate: CountPredicate;
  /** Patients counted. */
  value: number;
  /** The sum of their record keys modulo `KEY_MODULUS`. */
  keySum: number;
}

export type TableRowDimension = Stratifier | 'status' | 'measure';
export type TableColumnDimension = 'status' | 'reasonClass';

/** A table as quantity keys; the publisher turns each key into a published (perturbed) count. */
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
  const { measureId, careTeam, ageBand, sex, status, reasonClass } = predicate;
  return JSON.stringify([measureId, careTeam ?? null, ageBand ?? null, sex ?? null, status ?? null, reasonClass ?? null]);
}

type Field = 'careTeam' | 'ageBand' | 'sex' | 'status' | 'reasonClass';

/**
 * The kinds of count the tables show, by the fields they fix besides the measure. A microcell is
 * in one count of each kind (one per team for `careTeam`).
 */
const COUNT_KINDS: readonly (readonly Field[])[] = [
  [], ['status'], ['reasonClass'], ['status', 'reasonClass'], ['ageBand'], ['ageBand', 'status'], ['sex'], ['sex', 'status'],
  ['careTeam'], ['careTeam', 'status'],
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
    if (!Number.isSafeInteger(cell.keySum) || cell.keySum < 0 || cell.keySum >= KEY_MODULUS) throw new RangeError('microcell key sum must be an integer below the key modulus');
    if (!isGapStatus(cell.status)) throw new RangeError('unknown care-gap status');
    if (!isAgeBand(cell.ageBand)) throw new RangeError('unknown age band');
  }
}

/** Lays out the fixed tables over the given microcells and computes every number's count and key sum. */
export function buildPublication(input: readonly Microcell[], domains: StrataDomains = {}): Publication {
  validate(input);
  // A combination nobody has adds nothing to any count. Sorted, so the publication's salt does not
  // depend on the order the caller listed them in.
  const cells = input
    .filter((cell) => cell.count > 0)
    .map((cell) => ({ cell, key: microcellKey(cell) }))
    .sort((a, b) => byCodePoint(a.key, b.key))
    .map(({ cell }) => cell);
  const quantities = new Map<string, Quantity>();
  const quantity = (predicate: CountPredicate): Quantity => {
    const key = predicateKey(predicate);
    let found = quantities.get(key);
    if (!found) {
      found = { key, predicate, value: 0, keySum: 0 };
      quantities.set(key, found);
    }
    return found;
  };

  const measureIds = union(domains.measureIds ?? [], cells.map((cell) => cell.measureId));
  const careTeams = union(domains.careTeams ?? [], cells.flatMap((cell) => cell.careTeams));
  const sexes = union(domains.sexes ?? DEFAULT_SEXES, cells.map((cell) => cell.sex));
  const observedClasses = new Set(cells.map((cell) => cell.reasonClass));
  const reasonClasses = [
    ...KNOWN_REASON_CLASSES,
    ...[...observedClasses].filter((c) => !KNOWN_REASON_CLASSES.includes(c)).sort(byCodePoint),
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
    const place = (row: string | null, column: string | null): string | null => {
      const wanted = predicate(row, column);
      return wanted ? quantity(wanted).key : null;
    };
    const columnTotals = columns.map((column) => place(null, column));
    const grandTotal = place(null, null);
    tables.push({
      id,
      measureId,
      rowDimension,
      columnDimension,
      rows: [...rows],
      columns: [...columns],
      cells: rows.map((row) => columns.map((column) => place(row, column) as string)),
      rowTotals: rows.map((row) => place(row, null) as string),
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
  for (const cell of cells) {
    const careTeamSet = teamSetOf(cell.careTeams);
    COUNT_KINDS.forEach((kind, k) => {
      for (const careTeam of kind.includes('careTeam') ? careTeamSet : ['']) {
        const value = (field: Field) => (field === 'careTeam' ? careTeam : cell[field]);
        const found = indexes[k].find([cell.measureId, ...kind.map(value)], () =>
          quantity({ measureId: cell.measureId, ...Object.fromEntries(kind.map((field) => [field, value(field)])) }),
        );
        found.value += cell.count;
        found.keySum = addKeys(found.keySum, cell.keySum);
      }
    });
  }
  return { quantities: [...quantities.values()], tables };
}
