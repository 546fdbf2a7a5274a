import highsLoader from 'highs';
import { GAP_STATUSES, Microcell, teamSetOf } from './microcells';
import { LARGEST_PROTECTED_COUNT, PTABLE } from './perturbation';
import { CountPredicate, Publication, Quantity } from './published-quantities';

/**
 * The publisher's check of its own draw (docs/population-counts.md, "The check"): could an analyst
 * who solves every published number together, as an integer program, pin a true count of 1 to 10?
 * The model is the attacker's (policy.attackerModel): per stratum (exact care-team set × age band ×
 * sex) how many patients, per measure how many of them have each status, per measure and status
 * how many have each reason class, all non-negative integers; every published value bounds its
 * count to the counts the ptable can publish as it; two different values of a count and one of its
 * supersets say the superset has at least one more patient. It is told which strata are occupied,
 * which is more than an analyst knows: what it cannot pin, the analyst cannot either. Written apart
 * from the tests' auditor on purpose, so that each checks the other.
 */

/** A linear expression: variable → coefficient. */
type Expression = Map<string, number>;

export interface DisclosureTarget {
  /** Names the count, never a patient: `CMS125 sex=female status=not-applicable`. */
  where: string;
  expression: Expression;
  truth: number;
}

type Highs = Awaited<ReturnType<typeof highsLoader>>;
let solver: Promise<Highs> | null = null;
/** HiGHS is WebAssembly: loaded once per process, on the first check. */
const loadSolver = () => (solver ??= highsLoader());

/** The true counts an analyst must not pin: 1 to 10 (0 is published as itself; above 10 is published near itself). */
const isProtected = (count: number) => count >= 1 && count <= LARGEST_PROTECTED_COUNT;

/** The counts the ptable can publish as `value`: an interval, as the ptable is built. */
export function countsPublishableAs(value: number): [number, number] {
  const { rows, beyond } = PTABLE;
  const widest = Math.max(...beyond.changes.map((c) => Math.abs(c.change)));
  const counts: number[] = [];
  for (let count = 0; count <= Math.max(value + widest, beyond.fromCount); count += 1) {
    const values = count < beyond.fromCount
      ? rows[count].outcomes.filter((o) => o.weight > 0).map((o) => o.value)
      : beyond.changes.filter((c) => c.weight > 0).map((c) => count + c.change);
    if (values.includes(value)) counts.push(count);
  }
  if (counts.length === 0 || counts[counts.length - 1] - counts[0] + 1 !== counts.length) throw new Error('the ptable does not publish this value from an interval of counts');
  return [counts[0], counts[counts.length - 1]];
}

const textOf = (expression: Expression): string => {
  // One term a line: the LP format limits the length of a line.
  const terms = [...expression].filter(([, c]) => c !== 0).map(([name, c], i) => `${c < 0 ? '-' : i === 0 ? '' : '+'} ${Math.abs(c)} ${name}`);
  return terms.length === 0 ? '0 zero' : terms.join('\n ');
};
const valueOf = (assignment: ReadonlyMap<string, number>, expression: Expression) =>
  [...expression].reduce((sum, [name, c]) => sum + c * (assignment.get(name) ?? 0), 0);
const add = (expression: Expression, name: string, c: number) => expression.set(name, (expression.get(name) ?? 0) + c);

/** The analyst's integer program over one drawn publication, with the true solution beside it. */
class AnalystModel {
  readonly rows: string[] = [];
  readonly variables: string[];
  readonly truth = new Map<string, number>();
  readonly targets: DisclosureTarget[] = [];
  private readonly strata: { teams: string[]; ageBand: string; sex: string }[] = [];
  private readonly measureIds: string[];
  private readonly reasonClasses: string[];
  /** The measures that count the same patients per stratum share one stratum size (every patient has one result per measure). */
  private readonly sizeGroupOf = new Map<string, number>();

  constructor(microcells: readonly Microcell[], quantities: readonly Quantity[], published: ReadonlyMap<string, number>) {
    const cells = microcells.filter((cell) => cell.count > 0);
    const stratumIndex = new Map<string, number>();
    for (const cell of cells) {
      const key = JSON.stringify([teamSetOf(cell.careTeams), cell.ageBand, cell.sex]);
      if (!stratumIndex.has(key)) {
        stratumIndex.set(key, this.strata.length);
        this.strata.push({ teams: teamSetOf(cell.careTeams), ageBand: cell.ageBand, sex: cell.sex });
      }
    }
    this.measureIds = [...new Set([...cells.map((c) => c.measureId), ...quantities.map((q) => q.predicate.measureId)])].sort();
    this.reasonClasses = [...new Set([...cells.map((c) => c.reasonClass), ...quantities.flatMap((q) => q.predicate.reasonClass ?? [])])].sort();
    for (const cell of cells) {
      const s = stratumIndex.get(JSON.stringify([teamSetOf(cell.careTeams), cell.ageBand, cell.sex]))!;
      add(this.truth as Expression, this.y(cell.measureId, s, cell.status), cell.count);
      add(this.truth as Expression, this.r(cell.measureId, cell.status, cell.reasonClass), cell.count);
    }
    const groups = new Map<string, number>();
    for (const m of this.measureIds) {
      const sizes = this.strata.map((_, s) => GAP_STATUSES.reduce((sum, st) => sum + (this.truth.get(this.y(m, s, st)) ?? 0), 0));
      const key = JSON.stringify(sizes);
      if (!groups.has(key)) groups.set(key, groups.size);
      this.sizeGroupOf.set(m, groups.get(key)!);
      sizes.forEach((size, s) => this.truth.set(this.n(m, s), size));
    }
    this.variables = [...new Set([
      ...this.measureIds.flatMap((m) => this.strata.map((_, s) => this.n(m, s))),
      ...this.measureIds.flatMap((m) => this.strata.flatMap((_, s) => GAP_STATUSES.map((st) => this.y(m, s, st)))),
      ...this.measureIds.flatMap((m) => GAP_STATUSES.flatMap((st) => this.reasonClasses.map((rc) => this.r(m, st, rc)))),
    ])];
    for (const m of this.measureIds) {
      this.strata.forEach((_, s) => {
        const statuses: Expression = new Map(GAP_STATUSES.map((st) => [this.y(m, s, st), 1]));
        this.rows.push(`${textOf(add(statuses, this.n(m, s), -1))} = 0`);
      });
      for (const st of GAP_STATUSES) {
        const classes: Expression = new Map(this.reasonClasses.map((rc) => [this.r(m, st, rc), 1]));
        this.strata.forEach((_, s) => add(classes, this.y(m, s, st), -1));
        this.rows.push(`${textOf(classes)} = 0`);
      }
    }
    this.publish(quantities, published);
    this.collectTargets(quantities);
  }

  private n = (m: string, s: number) => `n${this.sizeGroupOf.get(m) ?? `m${this.measureIds.indexOf(m)}`}_${s}`;
  private y = (m: string, s: number, st: string) => `y${this.measureIds.indexOf(m)}_${s}_${GAP_STATUSES.indexOf(st as never)}`;
  private r = (m: string, st: string, rc: string) => `r${this.measureIds.indexOf(m)}_${GAP_STATUSES.indexOf(st as never)}_${this.reasonClasses.indexOf(rc)}`;

  /** The patients a predicate counts, in the model's unknowns. */
  expressionOf(p: CountPredicate & { teamSet?: string }): Expression {
    const expression: Expression = new Map();
    if (p.reasonClass !== undefined) {
      for (const st of p.status === undefined ? GAP_STATUSES : [p.status]) add(expression, this.r(p.measureId, st, p.reasonClass), 1);
      return expression;
    }
    this.strata.forEach((stratum, s) => {
      if (p.careTeam !== undefined && !stratum.teams.includes(p.careTeam)) return;
      if (p.teamSet !== undefined && stratum.teams.join('+') !== p.teamSet) return;
      if ((p.ageBand ?? stratum.ageBand) !== stratum.ageBand || (p.sex ?? stratum.sex) !== stratum.sex) return;
      add(expression, p.status === undefined ? this.n(p.measureId, s) : this.y(p.measureId, s, p.status), 1);
    });
    return expression;
  }

  private publish(quantities: readonly Quantity[], published: ReadonlyMap<string, number>): void {
    const shown = quantities.filter((q) => published.has(q.key));
    const expressions = new Map(shown.map((q) => [q.key, this.expressionOf(q.predicate)]));
    for (const q of shown) {
      const expression = expressions.get(q.key)!;
      if (valueOf(this.truth, expression) !== q.value) throw new Error('the disclosure model does not reproduce a published count');
      const [low, high] = countsPublishableAs(published.get(q.key)!);
      this.rows.push(`${textOf(expression)} >= ${low}`, `${textOf(expression)} <= ${high}`);
    }
    // The same patients always publish alike: a count and one of its supersets published differently
    // differ by at least one patient.
    const fieldsOf = (q: Quantity) => Object.entries(q.predicate).filter(([field, value]) => field !== 'measureId' && value !== undefined);
    for (const larger of shown) {
      const wider = fieldsOf(larger);
      for (const smaller of shown) {
        if (smaller.predicate.measureId !== larger.predicate.measureId || published.get(smaller.key) === published.get(larger.key)) continue;
        const narrower = fieldsOf(smaller);
        if (narrower.length <= wider.length || !wider.every(([field, value]) => (smaller.predicate as unknown as Record<string, unknown>)[field] === value)) continue;
        const difference = new Map(expressions.get(larger.key)!);
        for (const [name, c] of expressions.get(smaller.key)!) add(difference, name, -c);
        this.rows.push(`${textOf(difference)} >= 1`);
      }
    }
  }

  /** Every published count of 1 to 10, and every exact care-team set's count (overall and per status) of 1 to 10, once per set of patients. */
  private collectTargets(quantities: readonly Quantity[]): void {
    const seen = new Set<string>();
    const consider = (where: string, expression: Expression) => {
      const truth = valueOf(this.truth, expression);
      const key = JSON.stringify([...expression].sort());
      if (!isProtected(truth) || seen.has(key)) return;
      seen.add(key);
      this.targets.push({ where, expression, truth });
    };
    for (const q of quantities) consider(Object.values(q.predicate).join(' '), this.expressionOf(q.predicate));
    const teamSets = [...new Set(this.strata.map((s) => s.teams.join('+')))];
    for (const measureId of this.measureIds) {
      for (const teamSet of teamSets) {
        for (const status of [undefined, ...GAP_STATUSES]) consider(`${measureId} team set {${teamSet}} ${status ?? 'all'}`, this.expressionOf({ measureId, teamSet, status }));
      }
    }
  }
}

/** An integer solution of the rows, or null when there is none. */
function solve(highs: Highs, rows: readonly string[], variables: readonly string[]): Map<string, number> | null {
  const lp = ['Minimize', ' obj: 0 zero', 'Subject To', ' z: 1 zero = 0', ...rows.map((row, i) => ` c${i}: ${row}`), 'General', ...variables.map((v) => ` ${v}`), 'End'].join('\n');
  const result = highs.solve(lp, { mip_rel_gap: 0, output_flag: false } as never);
  if (result.Status === 'Infeasible') return null;
  if (result.Status !== 'Optimal') throw new Error(`disclosure check: solver status ${result.Status}`);
  return new Map(Object.entries(result.Columns).map(([name, column]) => [name, Math.round((column as { Primal: number }).Primal)]));
}

/**
 * The targets every integer solution gives their true value. The truth is a solution, so a target
 * is free as soon as one solution moves it: first ask for solutions that move the sum of the open
 * targets (each settles many), then ask about each one left, up and down.
 */
async function pinned(highs: Highs, rows: readonly string[], variables: readonly string[], targets: readonly DisclosureTarget[]): Promise<DisclosureTarget[]> {
  let open = [...targets];
  const settle = (solution: Map<string, number>) => (open = open.filter((t) => valueOf(solution, t.expression) === t.truth));
  for (const up of [true, false]) {
    while (open.length > 0) {
      const sum: Expression = new Map();
      for (const t of open) for (const [name, c] of t.expression) add(sum, name, c);
      const truth = open.reduce((total, t) => total + t.truth, 0);
      await betweenSolves();
      const solution = solve(highs, [...rows, `${textOf(sum)} ${up ? `>= ${truth + 1}` : `<= ${truth - 1}`}`], variables);
      const before = open.length;
      if (solution) settle(solution);
      if (!solution || open.length === before) break;
    }
  }
  const left: DisclosureTarget[] = [];
  for (const t of open) {
    if (!open.includes(t)) continue; // moved by a solution found for an earlier target: free
    let free = false;
    for (const bound of [`>= ${t.truth + 1}`, `<= ${t.truth - 1}`]) {
      await betweenSolves();
      const solution = solve(highs, [...rows, `${textOf(t.expression)} ${bound}`], variables);
      if (solution) {
        settle(solution);
        free = true;
        break;
      }
    }
    if (!free) left.push(t);
  }
  return left;
}

/**
 * Each integer program runs synchronously (HiGHS in WebAssembly) for up to seconds; between two, the
 * process's event loop serves what is waiting (health checks, other requests), so a check of tens of
 * seconds never holds the API for longer than its longest single program.
 */
const betweenSolves = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The counts of 1 to 10 one drawn publication determines (empty: the draw may be published).
 * `published` holds the value of every quantity the kept tables show.
 */
export async function determinedCounts(microcells: readonly Microcell[], publication: Pick<Publication, 'quantities'>, published: ReadonlyMap<string, number>): Promise<DisclosureTarget[]> {
  const highs = await loadSolver();
  const model = new AnalystModel(microcells, publication.quantities, published);
  if (model.targets.length === 0) return [];
  const rows = [...new Set(model.rows)];
  if (!solve(highs, rows, model.variables)) throw new Error('disclosure check: the truth does not satisfy the model');
  return await pinned(highs, rows, model.variables, model.targets);
}
