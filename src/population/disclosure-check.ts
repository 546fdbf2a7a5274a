import { GAP_STATUSES, Microcell } from './microcells';
import { Publication } from './published-quantities';
import { AnalystModel, ModelFrame, frameOf, occupiedStrata } from './analyst-model';
import { Expression, IntegerProgram, add, textOf, valueOf } from './integer-solver';
import { DisclosureTarget, Solution, TargetSearch, isSolutionOf, pinnedTargets } from './pinned-targets';

export type { DisclosureTarget } from './pinned-targets';

/**
 * The publisher's check of its own draw (docs/population-counts.md, "The check"): could an analyst
 * who solves every published number together, as an integer program (`AnalystModel`), pin a true
 * count of 1 to 10 — from this publication alone, or from it and the one published before it?
 */

/** A drawn (or published) publication as the check sees it: its truth and the values its kept tables show. */
export interface CheckedDraw {
  microcells: readonly Microcell[];
  publication: Pick<Publication, 'quantities'>;
  /** The published value of every quantity the kept tables show, by quantity key. */
  shown: ReadonlyMap<string, number>;
}

const programOf = (rows: readonly string[], variables: readonly string[]): IntegerProgram => ({ rows: [...new Set(rows)], variables });

/** The true counts are a solution of every model of them (checked by substitution, not by a solve): else the model is wrong. */
function assertTruthSolves(program: IntegerProgram, truth: Solution): void {
  if (!isSolutionOf(program, truth)) throw new Error('disclosure check: the truth does not satisfy the model');
}

/** The counts of 1 to 10 one drawn publication determines (empty: the draw may be published). */
export async function determinedCounts(draw: CheckedDraw, search: TargetSearch = {}): Promise<DisclosureTarget[]> {
  return await determinedAlone(new AnalystModel(draw.microcells, draw.publication.quantities, draw.shown), search);
}

async function determinedAlone(model: AnalystModel, search: TargetSearch): Promise<DisclosureTarget[]> {
  if (model.targets.length === 0) return [];
  const program = programOf(model.rows, model.variables);
  assertTruthSolves(program, model.truth);
  return await pinnedTargets(program, model.targets, search);
}

/** Asks for one pinned target, not all: enough to reject a draw. */
const firstOnly = { stopAt: async () => true };

/**
 * What the publisher asks of a draw: at least one count (or change) it determines, alone or with
 * the previous publication, when it may not be published; none when it may. Exactly what
 * `determinedCounts` and `determinedAcrossPublications` answer together, for less: it stops at the
 * first pinned target, and asks the two publications first, since every solution of both together
 * is, read on the draw's own unknowns, a solution of the draw alone (each target of the draw it
 * moves is free alone too).
 */
export async function determinedByDraw(draw: CheckedDraw, previous: CheckedDraw | null): Promise<DisclosureTarget[]> {
  const alone = new AnalystModel(draw.microcells, draw.publication.quantities, draw.shown);
  if (!previous) return await determinedAlone(alone, firstOnly);
  const change = new ChangeModel(previous, draw);
  const found: Solution[] = [];
  const across = await change.determinedAll({ ...firstOnly, found });
  if (across.length > 0) return across;
  return await determinedAlone(alone, { ...firstOnly, offered: found.map((solution) => change.laterSolution(alone, solution)) });
}

/**
 * What two consecutive publications determine together about what changed between them. The
 * analyst is assumed to know, per measure, how many patients were added and removed and how many
 * results entered and left a status or a reason class (an analyst who watched an import of one
 * patient knows "one patient, one result per measure"). Asked:
 * - of the patients that changed, how many are on each care team, in each age band, of each sex —
 *   with the analyst told even how many results entered and left each status;
 * - how many results entered and left each status of each measure (without that);
 * - every count of 1 to 10 of either publication, now that two draws bound the counts that did not change.
 */
export async function determinedAcrossPublications(before: CheckedDraw, after: CheckedDraw, search: TargetSearch = {}): Promise<DisclosureTarget[]> {
  return await new ChangeModel(before, after).determinedAll(search);
}

const positive = (x: number) => Math.max(0, x);

/** Both publications modelled over one frame, and the unknowns that carry one into the other. */
class ChangeModel {
  private readonly rows: string[];
  /** The rows without the published bounds: what the analyst knows before reading a number. */
  private readonly structure: string[];
  private readonly variables: string[];
  private readonly a: AnalystModel;
  private readonly b: AnalystModel;
  private readonly frame: Omit<ModelFrame, 'prefix'>;
  /** Link unknowns with their true values: non-negative parts of each change, as the analyst would name them. */
  private readonly truth = new Map<string, number>();

  constructor(before: CheckedDraw, after: CheckedDraw) {
    const frames = [frameOf(before.microcells, before.publication.quantities), frameOf(after.microcells, after.publication.quantities)];
    const union = (pick: (frame: ModelFrame) => readonly string[]) => [...new Set(frames.flatMap(pick))].sort();
    this.frame = { strata: occupiedStrata(before.microcells, after.microcells), measureIds: union((f) => f.measureIds), reasonClasses: union((f) => f.reasonClasses) };
    this.a = new AnalystModel(before.microcells, before.publication.quantities, before.shown, { prefix: 'a', ...this.frame });
    this.b = new AnalystModel(after.microcells, after.publication.quantities, after.shown, { prefix: 'b', ...this.frame });
    const links: string[] = [];
    const link = (later: string, earlier: string, up: string, down: string) => {
      const change = (this.b.truth.get(later) ?? 0) - (this.a.truth.get(earlier) ?? 0);
      this.truth.set(up, positive(change)).set(down, positive(-change));
      links.push(`${textOf(new Map([[later, 1], [earlier, -1], [up, -1], [down, 1]]))} = 0`);
    };
    const { strata, measureIds, reasonClasses } = this.frame;
    for (const m of measureIds) {
      strata.forEach((_, s) => {
        link(this.b.n(m, s), this.a.n(m, s), this.added(m, s), this.removed(m, s));
        for (const st of GAP_STATUSES) link(this.b.y(m, s, st), this.a.y(m, s, st), this.entered(m, s, st), this.left(m, s, st));
      });
      for (const st of GAP_STATUSES) for (const rc of reasonClasses) link(this.b.r(m, st, rc), this.a.r(m, st, rc), this.classEntered(m, st, rc), this.classLeft(m, st, rc));
      links.push(
        this.known(strata.map((_, s) => this.added(m, s))), this.known(strata.map((_, s) => this.removed(m, s))),
        this.known(GAP_STATUSES.flatMap((st) => reasonClasses.map((rc) => this.classEntered(m, st, rc)))),
        this.known(GAP_STATUSES.flatMap((st) => reasonClasses.map((rc) => this.classLeft(m, st, rc)))),
      );
    }
    this.rows = [...this.a.rows, ...this.b.rows, ...links];
    this.structure = [...this.a.structure, ...this.b.structure, ...links];
    this.variables = [...new Set([...this.a.variables, ...this.b.variables, ...this.truth.keys()])];
  }

  /** Every question of `determinedAcrossPublications`; with `stopAt`, until the first pinned. */
  async determinedAll(search: TargetSearch): Promise<DisclosureTarget[]> {
    const pinned = await this.determined(this.statusMoveTotals(), [...this.attributeTargets(), ...this.countTargets()], search);
    if (pinned.length > 0 && search.stopAt) return pinned;
    return [...pinned, ...(await this.determined(this.measureMoveTotals(), this.statusTargets(), search))];
  }

  /** A solution of both publications, read on the later one's own model (`AnalystModel.solutionFrom`). */
  laterSolution(later: AnalystModel, solution: Solution): Map<string, number> {
    return later.solutionFrom(this.b, solution);
  }

  /**
   * The targets the two publications pin, with the analyst told `knownTotals`, that were not
   * known before a number was read (a change on the only care team is all changes, whatever is
   * published): only what the numbers give away is a disclosure. With `stopAt`, the search ends at
   * the first pinned target that was not known before.
   */
  private async determined(knownTotals: readonly string[], targets: readonly DisclosureTarget[], search: TargetSearch): Promise<DisclosureTarget[]> {
    const published = programOf([...this.rows, ...knownTotals], this.variables);
    assertTruthSolves(published, new Map([...this.a.truth, ...this.b.truth, ...this.truth]));
    const before = programOf([...this.structure, ...knownTotals], this.variables);
    const knownBefore = async (target: DisclosureTarget) => (await pinnedTargets(before, [target])).length > 0;
    const stopAt = search.stopAt && (async (target: DisclosureTarget) => !(await knownBefore(target)) && (await search.stopAt!(target)));
    const pinned = await pinnedTargets(published, targets, { ...search, stopAt });
    if (pinned.length === 0) return [];
    const knownBeforeAll = new Set(await pinnedTargets(before, pinned));
    return pinned.filter((target) => !knownBeforeAll.has(target));
  }

  /** The analyst knows how many results entered and left each status of each measure. */
  statusMoveTotals(): string[] {
    const { strata, measureIds } = this.frame;
    return measureIds.flatMap((m) => GAP_STATUSES.flatMap((st) => [
      this.known(strata.map((_, s) => this.entered(m, s, st))), this.known(strata.map((_, s) => this.left(m, s, st))),
    ]));
  }

  /** The analyst knows only how many results of each measure changed status. */
  measureMoveTotals(): string[] {
    const { strata, measureIds } = this.frame;
    return measureIds.flatMap((m) => [
      this.known(strata.flatMap((_, s) => GAP_STATUSES.map((st) => this.entered(m, s, st)))), this.known(strata.flatMap((_, s) => GAP_STATUSES.map((st) => this.left(m, s, st)))),
    ]);
  }

  /** Of the changes, how many fall on each care team, age band and sex (0 included: "not on this team" is an answer too). */
  attributeTargets(): DisclosureTarget[] {
    const { strata, measureIds } = this.frame;
    const changesIn = (keep: (s: number) => boolean): Expression => {
      const expression: Expression = new Map();
      strata.forEach((_, s) => {
        if (!keep(s)) return;
        for (const m of measureIds) {
          for (const name of [this.added(m, s), this.removed(m, s), ...GAP_STATUSES.flatMap((st) => [this.entered(m, s, st), this.left(m, s, st)])]) add(expression, name, 1);
        }
      });
      return expression;
    };
    const values = (pick: (s: (typeof strata)[number]) => string[]) => [...new Set(strata.flatMap(pick))].sort();
    return [
      ...values((s) => s.teams).map((team) => this.target(`changes on care team ${team}`, changesIn((s) => strata[s].teams.includes(team)))),
      ...values((s) => [s.ageBand]).map((band) => this.target(`changes in age band ${band}`, changesIn((s) => strata[s].ageBand === band))),
      ...values((s) => [s.sex]).map((sex) => this.target(`changes of sex ${sex}`, changesIn((s) => strata[s].sex === sex))),
    ];
  }

  /** How many results entered and left each status of each measure. */
  statusTargets(): DisclosureTarget[] {
    const { strata, measureIds } = this.frame;
    return measureIds.flatMap((m) => GAP_STATUSES.flatMap((st) => [
      this.target(`${m} results entering ${st}`, new Map(strata.map((_, s) => [this.entered(m, s, st), 1]))),
      this.target(`${m} results leaving ${st}`, new Map(strata.map((_, s) => [this.left(m, s, st), 1]))),
    ]));
  }

  /** Each publication's own counts of 1 to 10, now bounded by both draws. */
  countTargets(): DisclosureTarget[] {
    return [...this.a.targets.map((t) => ({ ...t, where: `earlier: ${t.where}` })), ...this.b.targets];
  }

  private target(where: string, expression: Expression): DisclosureTarget {
    return { where, expression, truth: valueOf(this.truth, expression) };
  }

  /** A sum of link unknowns fixed at its true value. */
  private known(names: readonly string[]): string {
    const expression: Expression = new Map();
    for (const name of names) add(expression, name, 1);
    return `${textOf(expression)} = ${valueOf(this.truth, expression)}`;
  }

  /** Link unknowns' names, by index into the frame (LP names allow no `-`). */
  private m = (measureId: string) => this.frame.measureIds.indexOf(measureId);
  private rc = (reasonClass: string) => this.frame.reasonClasses.indexOf(reasonClass);
  private added = (m: string, s: number) => `add${this.m(m)}_${s}`;
  private removed = (m: string, s: number) => `del${this.m(m)}_${s}`;
  private entered = (m: string, s: number, status: string) => `in${this.m(m)}_${s}_${statusIndex(status)}`;
  private left = (m: string, s: number, status: string) => `out${this.m(m)}_${s}_${statusIndex(status)}`;
  private classEntered = (m: string, status: string, rc: string) => `rin${this.m(m)}_${statusIndex(status)}_${this.rc(rc)}`;
  private classLeft = (m: string, status: string, rc: string) => `rout${this.m(m)}_${statusIndex(status)}_${this.rc(rc)}`;
}

const statusIndex = (status: string) => GAP_STATUSES.indexOf(status as never);
