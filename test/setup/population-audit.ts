import type { Microcell } from '../../src/population/microcells';
import type { PopulationCounts, PublishedCount, PublishedTable } from '../../src/population/population-counts';

/**
 * An auditor of published population counts that shares no code with the publisher's own checks:
 * it rebuilds every number's functional from the table's labels and the microcells, and decides
 * derivability by rank over the rationals computed a different way (multi-modular: the rank over
 * Q is the largest rank modulo a set of primes whose product exceeds the Hadamard bound on the
 * matrix's minors, because a non-zero minor that large cannot be divisible by all of them).
 */

export interface AuditFinding {
  kind: 'small-count-shown' | 'wrong-count' | 'derivable' | 'spans-measures';
  where: string;
}

interface Entry {
  where: string;
  measureId: string;
  cells: number[];
  value: number;
  shown: PublishedCount;
}

type Match = (cell: Microcell) => boolean;

function matcher(dimension: string, label: string): Match {
  switch (dimension) {
    case 'careTeam':
      return (cell) => cell.careTeams.includes(label);
    case 'measure':
      return (cell) => cell.measureId === label;
    case 'ageBand':
    case 'sex':
    case 'status':
    case 'reasonClass':
      return (cell) => cell[dimension] === label;
    default:
      throw new Error(`unknown dimension ${dimension}`);
  }
}

function entriesOf(table: PublishedTable, microcells: readonly Microcell[]): Entry[] {
  const entries: Entry[] = [];
  const add = (where: string, matches: Match[], shown: PublishedCount) => {
    const cells = microcells.flatMap((cell, index) => (cell.count > 0 && matches.every((match) => match(cell)) ? [index] : []));
    const measures = new Set(cells.map((index) => microcells[index].measureId));
    entries.push({
      where: `${table.id} ${where}`,
      measureId: measures.size === 1 ? [...measures][0] : measures.size === 0 ? '' : '*',
      cells,
      value: cells.reduce((sum, index) => sum + microcells[index].count, 0),
      shown,
    });
  };
  const inMeasure: Match[] = table.measureId === null ? [] : [matcher('measure', table.measureId)];
  table.rows.forEach((row, r) => {
    table.columns.forEach((column, c) =>
      add(`[${row}, ${column}]`, [...inMeasure, matcher(table.rowDimension, row), matcher(table.columnDimension, column)], table.cells[r][c]),
    );
    add(`[${row}, total]`, [...inMeasure, matcher(table.rowDimension, row)], table.rowTotals[r]);
  });
  table.columnTotals?.forEach((shown, c) => add(`[total, ${table.columns[c]}]`, [...inMeasure, matcher(table.columnDimension, table.columns[c])], shown));
  if (table.grandTotal) add('[total]', inMeasure, table.grandTotal);
  return entries;
}

/** Counts of patients on exactly one set of care teams (per status and in all): protected, never shown. */
function teamSetEntries(microcells: readonly Microcell[]): Entry[] {
  const sets = new Map<string, { measureId: string; teams: string; status: string | null }>();
  for (const cell of microcells) {
    const teams = [...cell.careTeams].sort().join('+');
    for (const status of [cell.status, null]) sets.set(JSON.stringify([cell.measureId, teams, status]), { measureId: cell.measureId, teams, status });
  }
  return [...sets.values()].map(({ measureId, teams, status }) => {
    const cells = microcells.flatMap((cell, index) =>
      cell.count > 0 && cell.measureId === measureId && [...cell.careTeams].sort().join('+') === teams && (status === null || cell.status === status) ? [index] : [],
    );
    const value = cells.reduce((sum, index) => sum + microcells[index].count, 0);
    return { where: `team set {${teams}} ${status ?? 'all'} of ${measureId}`, measureId, cells, value, shown: { suppressed: true, rule: 'primary' } as const };
  });
}

const PRIMES_BELOW_2_26: number[] = (() => {
  const primes: number[] = [];
  for (let candidate = 2 ** 26 - 1; primes.length < 64; candidate -= 2) {
    let prime = true;
    for (let d = 3; d * d <= candidate; d += 2) if (candidate % d === 0) { prime = false; break; }
    if (prime) primes.push(candidate);
  }
  return primes;
})();

/** Echelon mod p of the rows; returns its rank and a test "is v in the span mod p". */
function modularSpan(rows: readonly number[][], width: number, p: number) {
  const basis: { pivot: number; row: number[] }[] = [];
  const reduce = (input: readonly number[]) => {
    const v = [...input];
    for (const { pivot, row } of basis) {
      const f = v[pivot];
      if (f !== 0) for (let j = 0; j < width; j += 1) v[j] = (((v[j] - f * row[j]) % p) + p) % p;
    }
    return v;
  };
  const power = (base: number, exponent: number): number => {
    let [result, b, e] = [1n, BigInt(base), BigInt(exponent)];
    const m = BigInt(p);
    for (; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) result = (result * b) % m;
    return Number(result);
  };
  for (const row of rows) {
    const v = reduce(row);
    const pivot = v.findIndex((x) => x !== 0);
    if (pivot < 0) continue;
    const inverse = power(v[pivot], p - 2);
    basis.push({ pivot, row: v.map((x) => (x * inverse) % p) });
  }
  return { rank: basis.length, contains: (v: readonly number[]) => reduce(v).every((x) => x === 0) };
}

/** Which of the `targets` lie in the rational span of `known` (0/1 rows of length `width`). */
export function derivableOver(known: readonly number[][], targets: readonly number[][], width: number): boolean[] {
  const rows = [...known, ...targets];
  const sizes = rows.map((row) => row.filter((x) => x !== 0).length).sort((a, b) => b - a);
  const k = Math.min(rows.length, width);
  // Hadamard: |minor| ≤ Π ‖row‖₂ over its rows; log₂ of the largest possible, plus one bit of margin.
  const bits = sizes.slice(0, k).reduce((sum, size) => sum + 0.5 * Math.log2(Math.max(size, 1)), 1);
  const primes: number[] = [];
  for (let total = 0; total <= bits; total += Math.log2(primes[primes.length - 1])) {
    if (primes.length === PRIMES_BELOW_2_26.length) throw new Error('matrix too large for the audit');
    primes.push(PRIMES_BELOW_2_26[primes.length]);
  }
  const spans = primes.map((p) => modularSpan(known, width, p));
  const rank = Math.max(...spans.map((span) => span.rank));
  // Rank of known + target is the largest modular rank too; it equals `rank` iff every prime that
  // reaches the true rank of `known` already spans the target.
  return targets.map((target) => spans.every((span) => span.rank < rank || span.contains(target)));
}

/** Every way the publication breaks the rule: small counts shown, wrong counts, derivable withheld counts. */
export function auditPublication(publication: PopulationCounts, microcells: readonly Microcell[]): AuditFinding[] {
  const findings: AuditFinding[] = [];
  const entries = publication.tables.flatMap((table) => entriesOf(table, microcells));
  for (const entry of entries) {
    if (entry.measureId === '*') findings.push({ kind: 'spans-measures', where: entry.where });
    if ('count' in entry.shown && entry.shown.count >= 1 && entry.shown.count <= 10) findings.push({ kind: 'small-count-shown', where: entry.where });
    if ('count' in entry.shown && entry.shown.count !== entry.value) findings.push({ kind: 'wrong-count', where: entry.where });
  }
  const withheld = [
    ...entries.filter((entry) => 'suppressed' in entry.shown),
    ...teamSetEntries(microcells).filter((entry) => entry.value >= 1 && entry.value <= 10),
  ];
  // No number spans measures (checked above) and measures share no microcell, so each measure's
  // span is solved on its own.
  for (const measureId of new Set(microcells.map((cell) => cell.measureId))) {
    const columns = microcells.flatMap((cell, index) => (cell.measureId === measureId && cell.count > 0 ? [index] : []));
    const position = new Map(columns.map((cell, index) => [cell, index]));
    const vector = (entry: Entry) => {
      const v = new Array<number>(columns.length).fill(0);
      for (const cell of entry.cells) v[position.get(cell) as number] = 1;
      return v;
    };
    const known = entries.filter((entry) => entry.measureId === measureId && 'count' in entry.shown).map(vector);
    const targets = withheld.filter((entry) => entry.measureId === measureId);
    derivableOver(known, targets.map(vector), columns.length).forEach((derivable, i) => {
      if (derivable) findings.push({ kind: 'derivable', where: targets[i].where });
    });
  }
  return findings;
}
