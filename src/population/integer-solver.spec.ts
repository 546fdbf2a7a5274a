import { solve } from './integer-solver';

/** The worker and its message port, as the event loop counts what keeps a process alive. */
const solverHandles = () => process.getActiveResourcesInfo().filter((type) => type === 'Worker' || type === 'MessagePort').length;

describe('the solver thread', () => {
  it('holds the process open while a program is in flight, and not once it is idle', async () => {
    const first = solve({ rows: ['1 x >= 2'], variables: ['x'] });
    expect(solverHandles()).toBeGreaterThan(0);
    expect((await first)?.get('x')).toBeGreaterThanOrEqual(2);
    expect(solverHandles()).toBe(0);
    // Again, on the thread kept from the first program.
    const second = solve({ rows: ['1 x <= 3', '1 x >= 3'], variables: ['x'] });
    expect(solverHandles()).toBeGreaterThan(0);
    expect((await second)?.get('x')).toBe(3);
    expect(solverHandles()).toBe(0);
  });
});

describe('a program in flight', () => {
  /**
   * 5,000 integers in a chain (each at least one more than the last): a few hundred milliseconds of
   * HiGHS. Solved on the request thread, no turn of the event loop would come while it runs. The
   * program is long, not tiny, so that the worker cannot answer before the loop's first turn: a
   * tiny one was answered within the same turn on a loaded machine, and the order then said nothing.
   */
  const chain = (n: number) => {
    const variables = Array.from({ length: n }, (_, i) => `x${i}`);
    return { variables, rows: [...variables.slice(1).map((v, i) => `1 ${v} - 1 x${i} >= 1`), `1 x${n - 1} <= ${n + 5}`] };
  };

  it('leaves the event loop free: what waits is served while the program is solved', async () => {
    await solve({ rows: ['1 x >= 1'], variables: ['x'] }); // the solver is loaded: what follows is only solving
    let turns = 0;
    let solving = true;
    const turn = () => {
      if (!solving) return;
      turns += 1;
      setImmediate(turn);
    };
    setImmediate(turn);
    const solution = await solve(chain(5000));
    solving = false;
    expect(solution?.get('x4999')).toBeGreaterThanOrEqual(4999);
    // Many turns, not one: a solve on this thread that first yields once would give one or two.
    expect(turns).toBeGreaterThan(10);
  });
});
