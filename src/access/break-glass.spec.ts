import { attemptedBreakGlassReason, BREAK_GLASS_HEADER, breakGlassHeaderProblem, isBreakGlassReason } from './break-glass';

const reasonOf = (length: number) => 'r'.repeat(length);

describe(breakGlassHeaderProblem.name, () => {
  // Length × what the edge does with it, and what the trail may keep: a reason outside 10–500 is refused whole, never cut.
  it.each([
    [9, 'length', null],
    [10, null, reasonOf(10)],
    [500, null, reasonOf(500)],
    [501, 'length', null],
    [600, 'length', null],
    [2000, 'length', null],
    [10_800, 'length', null],
  ])('a reason of %i characters: problem %s, kept as given or not at all', (length, problem, kept) => {
    const header = reasonOf(length);
    expect(breakGlassHeaderProblem(header)?.reason ?? null).toBe(problem);
    expect(attemptedBreakGlassReason(header)).toBe(kept);
    expect(isBreakGlassReason(header)).toBe(problem === null);
  });

  it('counts characters, not UTF-16 units, after trimming', () => {
    expect(breakGlassHeaderProblem(`  ${'🚑'.repeat(500)}  `)).toBeNull();
    expect(breakGlassHeaderProblem('🚑'.repeat(501))?.reason).toBe('length');
    expect(attemptedBreakGlassReason(`  ${reasonOf(10)} `)).toBe(reasonOf(10));
  });

  it('names the header and the rule, never the value', () => {
    const problem = breakGlassHeaderProblem(`secret MRN VGL-000123 ${reasonOf(600)}`);
    expect(problem).toEqual({ field: BREAK_GLASS_HEADER, reason: 'length', message: `${BREAK_GLASS_HEADER} must give a reason of 10 to 500 characters` });
  });

  it.each([['a tab', 'reason\twith a tab'], ['NEL', 'reason\u0085here, long'], ['NUL', 'reason\u0000here, long']])('refuses %s as a control character', (_kind, header) => {
    expect(breakGlassHeaderProblem(header)?.reason).toBe('isSingleLineText');
    expect(attemptedBreakGlassReason(header)).toBeNull();
  });

  it('reads an absent or empty header as no reason at all, not as a malformed one', () => {
    for (const header of [undefined, '', '   ']) {
      expect(breakGlassHeaderProblem(header)).toBeNull();
      expect(attemptedBreakGlassReason(header)).toBeNull();
    }
    expect(isBreakGlassReason('')).toBe(false);
  });
});
