import highsLoader from 'highs';

/**
 * An auditor of published population counts that models the analyst and shares no code with the
 * publisher. It reads only what an analyst reads: the tables, and the method with its public
 * parameters (`policy`). Every published number says that its true count lies in some interval
 * (the counts whose perturbation can yield it; or the count itself, or nothing, for an exact
 * method with withheld numbers). The unknowns are the patients: how many are in each stratum (care
 * team set × age band × sex, every combination the tables' labels allow) and, per measure, how
 * many of them have each status; every patient has exactly one status per measure, so each
 * measure's per-stratum totals are the same patients; care teams overlap (a patient on both teams
 * is in both rows); counts are non-negative integers. A true count is *determined* when every
 * integer solution gives it the same value, which HiGHS (an integer solver) decides exactly.
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

export interface AuditFinding {
  kind: 'small-count-shown' | 'inconsistent' | 'determined';
  where: string;
  value?: number;
}

type Interval = [number, number];
/** A linear expression: variable name → coefficient. */
type Expression = Map<string, number>;
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
function exprOf(expression: Expression): string {
  const terms = [...expression].filter(([, c]) => c !== 0).map(([name, c], i) => `${c < 0 ? '-' : i === 0 ? '' : '+'} ${Math.abs(c)} ${name}`);
  return terms.length === 0 ? '0 dummy' : terms.join('\n ');
}

const teamSetsOf = (teams: readonly string[]): string[][] =>
  teams.reduce<string[][]>((sets, team) => [...sets, ...sets.map((set) => [...set, team])], [[]]);

interface Stratum { teams: string[]; ageBand: string; sex: string }

/** The unknowns and the numbers of one publication, with variable names prefixed by `tag`. */
class PublicationModel {
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

type Highs = Awaited<ReturnType<typeof highsLoader>>;
let solver: Promise<Highs> | null = null;

type Solution = Map<string, number> | null;

/**
 * An integer solution of the rows, or null when there is none. HiGHS runs on this thread; each
 * program first lets the event loop turn, so that the publisher's solver thread, whose programs
 * are dispatched from here, keeps working while the auditor solves.
 */
async function solve(highs: Highs, rows: readonly string[], integers: readonly string[], binaries: readonly string[] = []): Promise<Solution> {
  await new Promise(setImmediate);
  const lp = ['Minimize', ' obj: 0 dummy', 'Subject To', ' d: 1 dummy = 0', ...[...new Set(rows)].map((row, i) => ` c${i}: ${row}`), 'General', ...integers.map((v) => ` ${v}`),
    ...(binaries.length ? ['Binary', ...binaries.map((v) => ` ${v}`)] : []), 'End'].join('\n');
  const result = highs.solve(lp, { mip_rel_gap: 0, output_flag: false } as never);
  if (result.Status === 'Infeasible') return null;
  if (result.Status !== 'Optimal') throw new Error(`solver status ${result.Status}`);
  return new Map(Object.entries(result.Columns).map(([name, column]) => [name, Math.round((column as { Primal: number }).Primal)]));
}

const feasible = async (...args: Parameters<typeof solve>) => (await solve(...args)) !== null;
const valueIn = (solution: Map<string, number>, expression: Expression) => [...expression].reduce((sum, [name, c]) => sum + c * (solution.get(name) ?? 0), 0);

const perturbedOf = (publication: AuditedPublication) => publication.policy.method === 'cell-key-perturbation';

/** The true counts of 1 to 10 an analyst must not pin down: every published one, and each exact care-team set's. */
function smallTargets(model: PublicationModel): { where: string; expression: Expression; truth: number }[] {
  const targets: { where: string; expression: Expression; truth: number }[] = model.published.filter((p) => p.truth >= 1 && p.truth <= 10);
  const teams = [...new Set(model.strata.map((s) => s.teams.join('+')))];
  for (const m of model.measures) {
    for (const teamSet of teams) {
      for (const status of [undefined, ...model.statuses]) {
        const counted = model.count(m, { teamSet, ...(status ? { status } : {}) });
        if (counted.truth >= 1 && counted.truth <= 10) targets.push({ where: `${m} team set {${teamSet}} ${status ?? 'all'}`, ...counted });
      }
    }
  }
  const seen = new Set<string>();
  return targets.filter((t) => {
    const key = `${[...t.expression.keys()].sort().join(',')}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** Every way one publication breaks the rule: a count of 1–10 shown as itself, a value its count cannot yield, a small count determined. */
export async function auditPublication(publication: AuditedPublication, patients: readonly AuditPatient[]): Promise<AuditFinding[]> {
  const highs = await (solver ??= highsLoader());
  const model = new PublicationModel('', publication, patients, patients);
  const findings: AuditFinding[] = [];
  for (const p of model.published) {
    const shown = typeof p.shown === 'number' ? p.shown : (p.shown as { count?: number }).count;
    if (shown !== undefined && shown >= 1 && shown <= 10) findings.push({ kind: 'small-count-shown', where: p.where });
    if (p.truth < p.interval[0] || p.truth > p.interval[1]) findings.push({ kind: 'inconsistent', where: p.where });
  }
  if (findings.length > 0) return findings;
  const base = [...model.rows, ...model.constraints(perturbedOf(publication))];
  const integers = model.variables();
  if (!(await feasible(highs, base, integers))) throw new Error('the publication contradicts its own method: no counts yield it');
  for (const target of await undetermined(highs, base, integers, smallTargets(model))) findings.push({ kind: 'determined', where: target.where, value: target.truth });
  return findings;
}

/**
 * The targets whose value is the same in every integer solution. The truth is one solution, so a
 * target is undetermined as soon as any solution gives it another value: ask first for solutions
 * that move the sum of the open targets up (or down), which settles many at once, then ask about
 * each target that is left on its own.
 */
async function undetermined<T extends { expression: Expression; truth: number }>(highs: Highs, base: readonly string[], integers: readonly string[], targets: readonly T[]): Promise<T[]> {
  let open = [...targets];
  const settle = (solution: Map<string, number>) => (open = open.filter((t) => valueIn(solution, t.expression) === t.truth));
  for (const direction of [1, -1]) {
    for (;;) {
      if (open.length === 0) return [];
      const sum = new Map<string, number>();
      for (const t of open) for (const [name, c] of t.expression) sum.set(name, (sum.get(name) ?? 0) + c);
      const truth = open.reduce((total, t) => total + t.truth, 0);
      const solution = await solve(highs, [...base, `${exprOf(sum)} ${direction > 0 ? `>= ${truth + 1}` : `<= ${truth - 1}`}`], integers);
      if (!solution) break;
      const before = open.length;
      settle(solution);
      if (open.length === before) break;
    }
  }
  const left: T[] = [];
  for (const t of open) {
    if (!open.includes(t)) continue; // moved by a solution found for an earlier target
    let moved = false;
    for (const bound of [`>= ${t.truth + 1}`, `<= ${t.truth - 1}`]) {
      if (moved) break;
      const solution: Solution = await solve(highs, [...base, `${exprOf(t.expression)} ${bound}`], integers);
      if (solution) moved = (settle(solution), true);
    }
    if (!moved) left.push(t);
  }
  return left;
}

/** What happened between two consecutive publications, as the analyst is (generously) told it. */
export type PublicationChange = { kind: 'patient-added' } | { kind: 'status-changed'; measureId: string; from: string; to: string };

/**
 * Two consecutive publications and the change between them: can the analyst tell the changed
 * patient's care teams, age band, sex or (for an added patient) any measure's status? Each is
 * determined when only one value of it admits an integer solution of both publications together.
 */
export async function auditChange(before: AuditedPublication, after: AuditedPublication, patients: { before: readonly AuditPatient[]; after: readonly AuditPatient[] }, change: PublicationChange): Promise<AuditFinding[]> {
  const highs = await (solver ??= highsLoader());
  const occupied = [...patients.before, ...patients.after];
  const a = new PublicationModel('a', before, patients.before, occupied);
  const b = new PublicationModel('b', after, patients.after, occupied);
  const z = (s: number) => `z${s}`;
  const u = (m: string, s: number, st: string) => `u_${m}_${s}_${a.statuses.indexOf(st)}`;
  const v = (m: string, st: string, rc: string) => `v_${m}_${a.statuses.indexOf(st)}_${a.reasons.get(m)!.indexOf(rc)}`;
  const binaries = a.strata.map((_, s) => z(s));
  const rows = [...a.rows, ...b.rows, ...a.constraints(perturbedOf(before)), ...b.constraints(perturbedOf(after)), `${a.expr(new Map(binaries.map((name) => [name, 1])))} = 1`];
  const statusChange = change.kind === 'status-changed' ? change : null;
  a.strata.forEach((_, s) => {
    rows.push(`${a.expr(new Map([[b.n(s), 1], [a.n(s), -1], ...(statusChange ? [] : [[z(s), -1] as [string, number]])]))} = 0`);
    for (const m of a.measures) {
      for (const st of a.statuses) {
        const delta: [string, number][] = statusChange
          ? m === statusChange.measureId && (st === statusChange.from || st === statusChange.to) ? [[z(s), st === statusChange.from ? 1 : -1]] : []
          : [[u(m, s, st), -1]];
        rows.push(`${a.expr(new Map([[b.y(m, s, st), 1], [a.y(m, s, st), -1], ...delta]))} = 0`);
      }
      if (!statusChange) {
        binaries.push(...a.statuses.map((st) => u(m, s, st)));
        rows.push(`${a.expr(new Map([...a.statuses.map((st) => [u(m, s, st), 1] as [string, number]), [z(s), -1]]))} = 0`);
      }
    }
  });
  // Reason classes move with the patient: one class per status it left or entered.
  for (const m of a.measures) {
    for (const st of a.statuses) {
      const moves = statusChange ? (m === statusChange.measureId && (st === statusChange.from || st === statusChange.to) ? (st === statusChange.to ? 1 : -1) : 0) : 1;
      for (const rc of a.reasons.get(m)!) {
        rows.push(`${a.expr(new Map([[b.r(m, st, rc), 1], [a.r(m, st, rc), -1], ...(moves === 0 ? [] : [[v(m, st, rc), -moves] as [string, number]])]))} = 0`);
        if (moves !== 0) binaries.push(v(m, st, rc));
      }
      if (moves === 0) continue;
      // The one patient left (or entered) one reason class of a status it left or entered.
      const entered = statusChange ? [] : a.strata.map((_, s) => [u(m, s, st), -1] as [string, number]);
      rows.push(`${a.expr(new Map([...a.reasons.get(m)!.map((rc) => [v(m, st, rc), 1] as [string, number]), ...entered]))} = ${statusChange ? 1 : 0}`);
    }
  }
  const integers = [...a.variables(), ...b.variables()];
  const changed = changedPatient(patients, change);
  type Option = { value: string; expression: Expression; rhs: number };
  const questions: { where: string; truth: string; options: Option[] }[] = [];
  const zOf = (keep: (stratum: Stratum) => boolean): Expression => new Map(a.strata.flatMap((stratum, s) => (keep(stratum) ? [[z(s), 1] as [string, number]] : [])));
  for (const team of [...new Set(a.strata.flatMap((s) => s.teams))]) {
    const on = zOf((s) => s.teams.includes(team));
    questions.push({ where: `care team ${team}`, truth: String(changed.careTeams.includes(team)), options: [{ value: 'true', expression: on, rhs: 1 }, { value: 'false', expression: on, rhs: 0 }] });
  }
  for (const key of ['ageBand', 'sex'] as const) {
    const values = [...new Set(a.strata.map((s) => s[key]))];
    questions.push({ where: key, truth: changed[key], options: values.map((value) => ({ value, expression: zOf((s) => s[key] === value), rhs: 1 })) });
  }
  if (!statusChange) {
    for (const m of a.measures) {
      questions.push({ where: `${m} status`, truth: changed.results[m].status, options: a.statuses.map((st) => ({ value: st, expression: new Map(a.strata.map((_, s) => [u(m, s, st), 1])), rhs: 1 })) });
    }
  }
  // Every solution found answers every question at once; ask for the values not seen yet until each question has two.
  const seen = questions.map(() => new Set<string>());
  const record = (solution: Map<string, number>) =>
    questions.forEach((q, i) => q.options.forEach((o) => valueIn(solution, o.expression) === o.rhs && seen[i].add(o.value)));
  const any = await solve(highs, rows, integers, binaries);
  if (!any) throw new Error('the two publications and the change admit no solution: the model is wrong');
  record(any);
  const findings: AuditFinding[] = [];
  for (const [i, question] of questions.entries()) {
    for (const option of question.options) {
      if (seen[i].size >= 2) break;
      if (seen[i].has(option.value)) continue;
      const solution = await solve(highs, [...rows, `${exprOf(option.expression)} = ${option.rhs}`], integers, binaries);
      if (solution) record(solution);
    }
    if (seen[i].size < 2) findings.push({ kind: 'determined', where: `the changed patient's ${question.where} (${question.truth})` });
  }
  return findings;
}

/** The patient the change is about: the one added, or the one whose status changed. */
function changedPatient(patients: { before: readonly AuditPatient[]; after: readonly AuditPatient[] }, change: PublicationChange): AuditPatient {
  const key = (p: AuditPatient) => JSON.stringify(p);
  if (change.kind === 'patient-added') {
    const remaining = [...patients.before.map(key)];
    const added = patients.after.filter((p) => {
      const i = remaining.indexOf(key(p));
      return i < 0 ? true : (remaining.splice(i, 1), false);
    });
    if (added.length !== 1 || patients.after.length !== patients.before.length + 1) throw new Error('exactly one patient must be added');
    return added[0];
  }
  const moved = patients.after.filter((p, i) => key(p) !== key(patients.before[i]));
  if (moved.length !== 1 || moved[0].results[change.measureId].status !== change.to) throw new Error('exactly one patient must change, in the order given');
  return moved[0];
}
