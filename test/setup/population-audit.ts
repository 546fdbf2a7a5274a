import highsLoader from 'highs';
import { AuditedPublication, AuditPatient, Expression, exprOf, PublicationModel, Stratum } from './population-model';

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

export type { AuditedPublication, AuditPatient } from './population-model';

export interface AuditFinding {
  kind: 'small-count-shown' | 'inconsistent' | 'determined';
  where: string;
  value?: number;
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
