import { GAP_STATUSES, Microcell, teamSetOf } from './microcells';
import { LARGEST_PROTECTED_COUNT, PTABLE } from './perturbation';
import { CountPredicate, Quantity } from './published-quantities';
import { Expression, add, textOf, valueOf } from './integer-solver';
import { DisclosureTarget, Solution } from './pinned-targets';

/**
 * The analyst's integer program over one drawn publication (policy.attackerModel): per stratum
 * (exact care-team set × age band × sex) how many patients, per measure how many of them have each
 * status, per measure and status how many have each reason class, all non-negative integers; every
 * published value bounds its count to the counts the ptable can publish as it; two different values
 * of a count and one of its supersets say the superset has at least one more patient. It is told
 * which strata are occupied, which is more than an analyst knows: what it cannot pin, the analyst
 * cannot either. Written apart from the tests' auditor on purpose, so that each checks the other.
 */

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

export interface Stratum { teams: string[]; ageBand: string; sex: string }

const stratumKeyOf = (cell: { careTeams: readonly string[]; ageBand: string; sex: string }) => JSON.stringify([teamSetOf(cell.careTeams), cell.ageBand, cell.sex]);

/** The occupied strata of one or more sets of microcells, in a stable order. */
export function occupiedStrata(...sets: readonly (readonly Microcell[])[]): Stratum[] {
  const strata = new Map<string, Stratum>();
  for (const cell of sets.flat()) {
    if (cell.count > 0 && !strata.has(stratumKeyOf(cell))) strata.set(stratumKeyOf(cell), { teams: teamSetOf(cell.careTeams), ageBand: cell.ageBand, sex: cell.sex });
  }
  return [...strata].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, stratum]) => stratum);
}

/**
 * What a model is built over. Two publications are modelled over the same strata, measures and
 * reason classes, each under its own prefix, so that their unknowns can be linked.
 */
export interface ModelFrame {
  prefix: string;
  strata: readonly Stratum[];
  measureIds: readonly string[];
  reasonClasses: readonly string[];
}

/** The frame of one publication on its own: its occupied strata, measures and reason classes. */
export function frameOf(microcells: readonly Microcell[], quantities: readonly Quantity[], prefix = ''): ModelFrame {
  const cells = microcells.filter((cell) => cell.count > 0);
  return {
    prefix,
    strata: occupiedStrata(cells),
    measureIds: [...new Set([...cells.map((c) => c.measureId), ...quantities.map((q) => q.predicate.measureId)])].sort(),
    reasonClasses: [...new Set([...cells.map((c) => c.reasonClass), ...quantities.flatMap((q) => q.predicate.reasonClass ?? [])])].sort(),
  };
}

/** The analyst's integer program over one drawn publication, with the true solution beside it. */
export class AnalystModel {
  /** Every row: the structure, then what the publication shows. */
  readonly rows: string[] = [];
  /** The rows that hold whatever is published (one status per result, one reason class per status): what is known before reading a number. */
  readonly structure: readonly string[];
  readonly variables: string[];
  readonly truth = new Map<string, number>();
  readonly targets: DisclosureTarget[] = [];
  readonly strata: readonly Stratum[];
  readonly measureIds: readonly string[];
  readonly reasonClasses: readonly string[];
  private readonly prefix: string;
  /** The measures that count the same patients per stratum share one stratum size (every patient has one result per measure). */
  private readonly sizeGroupOf = new Map<string, number>();

  constructor(microcells: readonly Microcell[], quantities: readonly Quantity[], published: ReadonlyMap<string, number>, frame = frameOf(microcells, quantities)) {
    ({ prefix: this.prefix, strata: this.strata, measureIds: this.measureIds, reasonClasses: this.reasonClasses } = frame);
    const cells = microcells.filter((cell) => cell.count > 0);
    const stratumIndex = new Map(this.strata.map((stratum, s) => [stratumKeyOf({ careTeams: stratum.teams, ageBand: stratum.ageBand, sex: stratum.sex }), s]));
    for (const cell of cells) {
      const s = stratumIndex.get(stratumKeyOf(cell))!;
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
    this.structure = [...this.rows];
    this.publish(quantities, published);
    this.collectTargets(quantities);
  }

  /** Unknowns: a stratum's size for a measure, its patients with a status, a status's patients with a reason class. */
  readonly n = (m: string, s: number) => `${this.prefix}n${this.sizeGroupOf.get(m) ?? `m${this.measureIds.indexOf(m)}`}_${s}`;
  readonly y = (m: string, s: number, st: string) => `${this.prefix}y${this.measureIds.indexOf(m)}_${s}_${GAP_STATUSES.indexOf(st as never)}`;
  readonly r = (m: string, st: string, rc: string) => `${this.prefix}r${this.measureIds.indexOf(m)}_${GAP_STATUSES.indexOf(st as never)}_${this.reasonClasses.indexOf(rc)}`;

  /**
   * A solution of `other` (a model of the same publication over a larger frame, under its prefix)
   * in this model's unknowns: its values of the same counts. Whether that is a solution of this model
   * is for the search to check (`TargetSearch.offered`): patients the larger frame puts in strata this
   * one does not have make it none.
   */
  solutionFrom(other: AnalystModel, solution: Solution): Map<string, number> {
    const mine = new Map<string, number>();
    const take = (name: string, from: string) => mine.set(name, solution.get(from) ?? 0);
    const strata = new Map(other.strata.map((stratum, s) => [stratumKeyOf({ careTeams: stratum.teams, ageBand: stratum.ageBand, sex: stratum.sex }), s]));
    for (const m of this.measureIds) {
      this.strata.forEach((stratum, s) => {
        const theirs = strata.get(stratumKeyOf({ careTeams: stratum.teams, ageBand: stratum.ageBand, sex: stratum.sex }));
        if (theirs === undefined) return;
        take(this.n(m, s), other.n(m, theirs));
        for (const st of GAP_STATUSES) take(this.y(m, s, st), other.y(m, theirs, st));
      });
      for (const st of GAP_STATUSES) for (const rc of this.reasonClasses) take(this.r(m, st, rc), other.r(m, st, rc));
    }
    return mine;
  }

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

