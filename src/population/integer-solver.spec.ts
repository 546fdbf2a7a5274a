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
