/**
 * The analyst's model of one publication, for the auditor (population-audit.ts): the unknowns (how
 * many patients are in each stratum, and per measure with each status and reason class) and every
 * published number as a linear expression of them with the interval its value allows, written as
 * the rows of an integer program in the LP file format. Like the auditor it reads only what an
 * analyst reads and shares no code with the publisher.
 */

export interface AuditPatient {
  careTeams: readonly string[];
  ageBand: string;
  sex: string;
  /** measure id → status and reason class. */
  results: Readonly<Record<string, { status: string; reasonClass: string }>>;
}

/** The parts of a publication the analyst reads, typed here rather than imported from the publisher. */
export interface AuditedPublication {
  policy: Record<string, unknown>;
  tables: {
    id: string;
    measureId: string | null;
    rowDimension: string;
    columnDimension: string;
    rows: string[];
    columns: string[];
    cells: unknown[][];
    rowTotals: unknown[];
    columnTotals: unknown[] | null;
    grandTotal: unknown;
  }[];
}

type Interval = [number, number];
/** A linear expression: variable name → coefficient. */
export type Expression = Map<string, number>;
interface Published {
  where: string;
  expression: Expression;
  truth: number;
  interval: Interval;
  shown: unknown;
  /** The fields it fixes, for "A is a subset of B" between numbers of one measure. */
  fixed: Record<string, string>;
  measureId: string;
}

const INFINITE = Number.POSITIVE_INFINITY;

/** What a published value says about its true count, read from the publication's policy. */
function intervalReader(policy: Record<string, unknown>): (shown: unknown) => Interval {
  if (policy.method === 'cell-key-perturbation') {
    const ptable = policy.ptable as { rows: { count: number; outcomes: { value: number; weight: number }[] }[]; beyond: { fromCount: number; changes: { change: number; weight: number }[] } };
    const outcomes = (count: number): number[] =>
      count < ptable.beyond.fromCount
        ? ptable.rows.find((row) => row.count === count)!.outcomes.filter((o) => o.weight > 0).map((o) => o.value)
        : ptable.beyond.changes.filter((c) => c.weight > 0).map((c) => count + c.change);
    const widest = Math.max(...ptable.beyond.changes.map((c) => Math.abs(c.change)));
    return (shown) => {
      const value = shown as number;
      const counts: number[] = [];
      for (let count = 0; count <= Math.max(value + widest, ptable.beyond.fromCount); count += 1) if (outcomes(count).includes(value)) counts.push(count);
      if (counts.length === 0) throw new Error(`published ${value} is no outcome of the ptable`);
      // The model below needs an interval; a gap in it would have to be modelled, not papered over.
      if (counts[counts.length - 1] - counts[0] + 1 !== counts.length) throw new Error(`the counts that can publish ${value} are not an interval`);
      return [counts[0], counts[counts.length - 1]];
    };
  }
  // An exact method: a count is itself; a withheld number (whatever its label says) could be anything.
  return (shown) => (typeof shown === 'object' && shown !== null && 'count' in shown ? [(shown as { count: number }).count, (shown as { count: number }).count] : [0, INFINITE]);
}

/** An expression in the LP file format, a term a line (the format limits line length). */
export function exprOf(expression: Expression): string {
  const terms = [...expression].filter(([, c]) => c !== 0).map(([name, c], i) => `${c < 0 ? '-' : i === 0 ? '' : '+'} ${Math.abs(c)} ${name}`);
  return terms.length === 0 ? '0 dummy' : terms.join('\n ');
}

const teamSetsOf = (teams: readonly string[]): string[][] =>
  teams.reduce<string[][]>((sets, team) => [...sets, ...sets.map((set) => [...set, team])], [[]]);

export interface Stratum { teams: string[]; ageBand: string; sex: string }

/** The unknowns and the numbers of one publication, with variable names prefixed by `tag`. */
export class PublicationModel {
  readonly strata: Stratum[];
  readonly measures: string[];
  readonly statuses: string[];
  readonly reasons: Map<string, string[]>;
  readonly published: Published[] = [];
  readonly rows: string[] = [];

  constructor(readonly tag: string, publication: AuditedPublication, readonly patients: readonly AuditPatient[], occupied: readonly AuditPatient[]) {
    const table = (id: string) => publication.tables.find((t) => t.id === id)!;
    const measuresTable = table('measures');
    this.measures = measuresTable.rows;
    this.statuses = measuresTable.columns;
    const first = this.measures[0];
    const teams = table(`${first}/careTeam`).rows;
    // Conservative (the analyst knows more than the tables): the strata nobody is in, in either
    // publication, are known to be empty. It keeps the integer programs small; a real analyst has
    // every combination the labels allow as an unknown, so finds at most what this one finds.
    const held = new Set(occupied.map((p) => JSON.stringify([[...p.careTeams].sort(), p.ageBand, p.sex])));
    this.strata = teamSetsOf(teams)
      .flatMap((set) => table(`${first}/ageBand`).rows.flatMap((ageBand) => table(`${first}/sex`).rows.map((sex) => ({ teams: set, ageBand, sex }))))
      .filter((stratum) => held.has(JSON.stringify([stratum.teams, stratum.ageBand, stratum.sex])));
    this.reasons = new Map(this.measures.map((m) => [m, table(`${m}/reasonClass`).columns]));
    for (const [s] of this.strata.entries()) {
      for (const m of this.measures) this.rows.push(`${this.expr(new Map([...this.statuses.map((st) => [this.y(m, s, st), 1] as [string, number]), [this.n(s), -1]]))} = 0`);
    }
    for (const m of this.measures) {
      for (const st of this.statuses) {
        const terms: [string, number][] = [...this.reasons.get(m)!.map((rc) => [this.r(m, st, rc), 1] as [string, number]), ...this.strata.map((_, s) => [this.y(m, s, st), -1] as [string, number])];
        this.rows.push(`${this.expr(new Map(terms))} = 0`);
      }
    }
    const interval = intervalReader(publication.policy);
    for (const t of publication.tables) this.readTable(t, interval);
  }

  n = (s: number) => `${this.tag}n${s}`;
  y = (m: string, s: number, st: string) => `${this.tag}y_${m}_${s}_${this.statuses.indexOf(st)}`;
  r = (m: string, st: string, rc: string) => `${this.tag}r_${m}_${this.statuses.indexOf(st)}_${this.reasons.get(m)!.indexOf(rc)}`;

  variables(): string[] {
    return [
      ...this.strata.map((_, s) => this.n(s)),
      ...this.measures.flatMap((m) => this.strata.flatMap((_, s) => this.statuses.map((st) => this.y(m, s, st)))),
      ...this.measures.flatMap((m) => this.statuses.flatMap((st) => this.reasons.get(m)!.map((rc) => this.r(m, st, rc)))),
    ];
  }

  expr(expression: Expression): string {
    return exprOf(expression);
  }

  /** The count of `fixed` (measure, and any of careTeam, ageBand, sex, status, reasonClass) as an expression, and its true value. */
  count(m: string, fixed: Record<string, string>): { expression: Expression; truth: number } {
    const expression: Expression = new Map();
    if (fixed.reasonClass !== undefined) {
      for (const st of fixed.status === undefined ? this.statuses : [fixed.status]) expression.set(this.r(m, st, fixed.reasonClass), 1);
    } else {
      this.strata.forEach((stratum, s) => {
        if (fixed.careTeam !== undefined && !stratum.teams.includes(fixed.careTeam)) return;
        if (fixed.teamSet !== undefined && stratum.teams.join('+') !== fixed.teamSet) return;
        if ((fixed.ageBand ?? stratum.ageBand) !== stratum.ageBand || (fixed.sex ?? stratum.sex) !== stratum.sex) return;
        if (fixed.status === undefined) expression.set(this.n(s), 1);
        else expression.set(this.y(m, s, fixed.status), 1);
      });
    }
    const truth = this.patients.filter((p) => {
      const result = p.results[m];
      if (!result) throw new Error('every patient has a result for every measure (the linking the model assumes)');
      return (fixed.careTeam === undefined || p.careTeams.includes(fixed.careTeam)) && (fixed.teamSet === undefined || [...p.careTeams].sort().join('+') === fixed.teamSet) &&
        (fixed.ageBand ?? p.ageBand) === p.ageBand && (fixed.sex ?? p.sex) === p.sex && (fixed.status ?? result.status) === result.status && (fixed.reasonClass ?? result.reasonClass) === result.reasonClass;
    }).length;
    return { expression, truth };
  }

  private readTable(t: AuditedPublication['tables'][number], interval: (shown: unknown) => Interval): void {
    const add = (label: string, measureId: string, fixed: Record<string, string>, shown: unknown) => {
      const { expression, truth } = this.count(measureId, fixed);
      this.published.push({ where: `${t.id} [${label}]`, expression, truth, interval: interval(shown), shown, fixed, measureId });
    };
    const field = (dimension: string) => dimension;
    t.rows.forEach((row, i) => {
      const measureId = t.measureId ?? row;
      const rowField = t.rowDimension === 'measure' ? {} : { [field(t.rowDimension)]: row };
      t.columns.forEach((column, j) => add(`${row}, ${column}`, measureId, { ...rowField, [t.columnDimension]: column }, t.cells[i][j]));
      add(`${row}, total`, measureId, rowField, t.rowTotals[i]);
    });
    if (t.measureId === null) return;
    t.columnTotals?.forEach((shown, j) => add(`total, ${t.columns[j]}`, t.measureId!, { [t.columnDimension]: t.columns[j] }, shown));
    if (t.grandTotal !== null) add('total', t.measureId, {}, t.grandTotal);
  }

  /** The published numbers as constraints; for a perturbation, also what differing outputs say (the sets differ). */
  constraints(perturbed: boolean): string[] {
    const out = this.published.flatMap((p) => [
      `${this.expr(p.expression)} >= ${p.interval[0]}`,
      ...(p.interval[1] === INFINITE ? [] : [`${this.expr(p.expression)} <= ${p.interval[1]}`]),
    ]);
    if (!perturbed) return out;
    // The same patients always publish the same value, so two different values of a count and one
    // of its subsets say the larger set has at least one more patient.
    for (const a of this.published) {
      for (const b of this.published) {
        if (a.measureId !== b.measureId || a.shown === b.shown || Object.keys(b.fixed).length >= Object.keys(a.fixed).length) continue;
        if (!Object.entries(b.fixed).every(([k, v]) => a.fixed[k] === v)) continue;
        const difference = new Map(b.expression);
        for (const [name, c] of a.expression) difference.set(name, (difference.get(name) ?? 0) - c);
        out.push(`${this.expr(difference)} >= 1`);
      }
    }
    return out;
  }
}
