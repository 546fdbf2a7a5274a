import { Expression, IntegerProgram, add, solve, textOf, valueOf } from './integer-solver';

/**
 * Which targets every integer solution of a program gives their true value: the search the
 * disclosure check runs over each of its programs. Only an integer solution proves a target free,
 * only the solver's "infeasible" (or a row that allows nothing else, read here) proves it pinned;
 * nothing is ever guessed, so a faster search answers exactly what a slower one would.
 */

/** A number the analyst must not be able to solve for. */
export interface DisclosureTarget {
  /** Names the count, never a patient: `CMS125 sex=female status=not-applicable`. */
  where: string;
  expression: Expression;
  truth: number;
}

export type Solution = ReadonlyMap<string, number>;

export interface TargetSearch {
  /**
   * Solutions of other programs (a program this one relaxes, the same unknowns under other names):
   * each that satisfies every row of this program is a solution of it, checked here, so a wrong
   * offer costs a solve, never a verdict.
   */
  offered?: readonly Solution[];
  /** Receives every solution the search finds or accepts. */
  found?: Solution[];
  /** Called on each target proven pinned; `true` ends the search (the caller asks only whether any is). */
  stopAt?: (target: DisclosureTarget) => Promise<boolean>;
}

interface Row { expression: Expression; sense: '>=' | '<=' | '='; rhs: number }

/** Reads back a row written as `textOf(expression) <sense> <rhs>`. */
function parseRow(row: string): Row {
  const tokens = row.trim().split(/\s+/);
  const rhs = Number(tokens.pop());
  const sense = tokens.pop() as Row['sense'];
  const expression: Expression = new Map();
  for (let i = 0; i < tokens.length;) {
    const sign = tokens[i] === '-' ? -1 : 1;
    if (tokens[i] === '-' || tokens[i] === '+') i += 1;
    add(expression, tokens[i + 1], sign * Number(tokens[i]));
    i += 2;
  }
  if (!['>=', '<=', '='].includes(sense) || !Number.isFinite(rhs) || [...expression.values()].some((c) => !Number.isFinite(c))) throw new Error('disclosure check: a row it cannot read');
  return { expression, sense, rhs };
}

const holds = (row: Row, solution: Solution) => {
  const value = valueOf(solution, row.expression);
  return row.sense === '=' ? value === row.rhs : row.sense === '>=' ? value >= row.rhs : value <= row.rhs;
};

/** Whether an assignment (unknowns it leaves out are 0) satisfies every row of the program. */
export const isSolutionOf = (program: IntegerProgram, solution: Solution) => program.rows.every((row) => holds(parseRow(row), solution));

/**
 * The unknowns every solution sets to 0, read from the rows: every unknown is non-negative, so a
 * row that says a sum of them with positive coefficients is at most 0 (a change the analyst is told
 * is 0) sets each of them to 0.
 */
function zeroUnknowns(rows: readonly Row[]): Set<string> {
  const zero = new Set<string>();
  for (const { expression, sense, rhs } of rows) {
    const terms = [...expression].filter(([, c]) => c !== 0);
    const positive = terms.every(([, c]) => c > 0);
    const negative = terms.every(([, c]) => c < 0);
    if (rhs === 0 && ((positive && sense !== '>=') || (negative && sense !== '<='))) for (const [name] of terms) zero.add(name);
  }
  return zero;
}

/** No solution puts a sum of non-negative unknowns below 0: `expression <= value - 1` needs no solver to be refused. */
const cannotGoBelow = (expression: Expression, value: number) => value <= 0 && [...expression.values()].every((c) => c >= 0);

/**
 * The targets every integer solution gives their true value. The truth is a solution, so a target
 * is free as soon as one solution moves it: first the offered solutions, then solutions that move
 * the sum of the open targets (each settles many), then each target left, up and down. A target
 * whose unknowns the rows set to 0 is pinned without a solve, and "below 0" is never asked.
 */
export async function pinnedTargets(program: IntegerProgram, targets: readonly DisclosureTarget[], search: TargetSearch = {}): Promise<DisclosureTarget[]> {
  const rows = program.rows.map(parseRow);
  let open = [...targets];
  const settle = (solution: Solution) => {
    search.found?.push(solution);
    open = open.filter((t) => valueOf(solution, t.expression) === t.truth);
  };
  for (const solution of search.offered ?? []) if (rows.every((row) => holds(row, solution))) settle(solution);
  const pinned: DisclosureTarget[] = [];
  const inOrder = () => targets.filter((t) => pinned.includes(t));
  /** Records a pinned target; true when the search should end there. */
  const pin = async (t: DisclosureTarget) => {
    pinned.push(t);
    open = open.filter((o) => o !== t);
    return (await search.stopAt?.(t)) ?? false;
  };
  const zero = zeroUnknowns(rows);
  for (const t of [...open]) {
    if ([...t.expression].every(([name, c]) => c === 0 || zero.has(name)) && (await pin(t))) return inOrder();
  }
  for (const up of [true, false]) {
    while (open.length > 0) {
      const sum: Expression = new Map();
      for (const t of open) for (const [name, c] of t.expression) add(sum, name, c);
      const truth = open.reduce((total, t) => total + t.truth, 0);
      if (!up && cannotGoBelow(sum, truth)) break;
      const solution = await solve(program, [`${textOf(sum)} ${up ? `>= ${truth + 1}` : `<= ${truth - 1}`}`]);
      const before = open.length;
      if (solution) settle(solution);
      if (!solution || open.length === before) break;
    }
  }
  for (const t of [...open]) {
    if (!open.includes(t)) continue; // moved by a solution found for an earlier target: free
    let free = false;
    for (const up of [true, false]) {
      if (!up && cannotGoBelow(t.expression, t.truth)) continue;
      const solution = await solve(program, [`${textOf(t.expression)} ${up ? `>= ${t.truth + 1}` : `<= ${t.truth - 1}`}`]);
      if (solution) {
        settle(solution);
        free = true;
        break;
      }
    }
    if (!free && (await pin(t))) return inOrder();
  }
  return inOrder();
}
