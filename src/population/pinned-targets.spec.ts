import { Expression, IntegerProgram, solve, textOf, valueOf } from './integer-solver';
import { DisclosureTarget, isSolutionOf, pinnedTargets } from './pinned-targets';

/**
 * The search's shortcuts (offered solutions, unknowns the rows set to 0, "below 0" never asked, the
 * early stop) answer exactly what asking the solver about every target up and down answers: that
 * plain search is kept here as the reference.
 */
async function plainPinned(program: IntegerProgram, targets: readonly DisclosureTarget[]): Promise<DisclosureTarget[]> {
  const pinned: DisclosureTarget[] = [];
  for (const t of targets) {
    const up = await solve(program, [`${textOf(t.expression)} >= ${t.truth + 1}`]);
    const down = await solve(program, [`${textOf(t.expression)} <= ${t.truth - 1}`]);
    if (!up && !down) pinned.push(t);
  }
  return pinned;
}

const e = (...names: string[]): Expression => new Map(names.map((name) => [name, 1]));
const target = (where: string, expression: Expression, truth: Map<string, number>): DisclosureTarget => ({ where, expression, truth: valueOf(truth, expression) });

describe(pinnedTargets.name, () => {
  // x + y = 3 with x <= 1 shown; a change d told to be 0 (d + f = 0); z free; w between 2 and 2.
  const truth = new Map([['x', 1], ['y', 2], ['z', 4], ['w', 2], ['d', 0], ['f', 0]]);
  const program: IntegerProgram = {
    rows: ['1 x\n + 1 y = 3', '1 x <= 1', '1 d\n + 1 f = 0', '1 w >= 2', '1 w <= 2', '1 z <= 9'],
    variables: ['x', 'y', 'z', 'w', 'd', 'f'],
  };
  const targets = [
    target('x', e('x'), truth), target('y', e('y'), truth), target('z', e('z'), truth), target('w', e('w'), truth),
    target('d', e('d'), truth), target('d+f', e('d', 'f'), truth), target('x+y', e('x', 'y'), truth),
  ];

  it('pins exactly what the plain search pins', async () => {
    const plain = await plainPinned(program, targets);
    expect(plain.map((t) => t.where)).toEqual(['w', 'd', 'd+f', 'x+y']);
    expect(await pinnedTargets(program, targets)).toEqual(plain);
  });

  it('takes an offered solution only when it satisfies every row: a wrong offer changes no answer', async () => {
    const wrong = new Map([['x', 0], ['y', 3], ['z', 4], ['w', 3], ['d', 1], ['f', 0]]); // w = 3 and d = 1 break rows
    const found: Map<string, number>[] = [];
    expect(isSolutionOf(program, wrong)).toBe(false);
    expect((await pinnedTargets(program, targets, { offered: [wrong], found })).map((t) => t.where)).toEqual(['w', 'd', 'd+f', 'x+y']);
    expect(found).not.toContain(wrong);
    const right = new Map([['x', 0], ['y', 3], ['z', 5], ['w', 2], ['d', 0], ['f', 0]]);
    const accepted: Map<string, number>[] = [];
    await pinnedTargets(program, targets, { offered: [right], found: accepted });
    expect(accepted[0]).toBe(right);
  });

  it('stops at the pinned target the caller says is enough, and only there', async () => {
    const asked: string[] = [];
    const pinned = await pinnedTargets(program, targets, { stopAt: async (t) => (asked.push(t.where), t.where === 'x+y') });
    expect(pinned.map((t) => t.where)).toEqual(['w', 'd', 'd+f', 'x+y']);
    expect(asked).toEqual(['d', 'd+f', 'w', 'x+y']);
    expect((await pinnedTargets(program, targets, { stopAt: async () => true })).length).toBe(1);
  });

  it('the truth is a solution, by substitution', () => {
    expect(isSolutionOf(program, truth)).toBe(true);
    expect(isSolutionOf(program, new Map([...truth, ['x', 2], ['y', 1]]))).toBe(false);
  });
});
