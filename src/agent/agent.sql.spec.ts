import { AGENT_STATEMENTS } from './agent.sql';

const parameterNumbers = (statement: string) => [...statement.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]));

describe('AGENT_STATEMENTS', () => {
  it('ends an answered turn and writes its audit row in one statement: the audit event’s 16 parameters, then finishTurn’s six', () => {
    const { finishTurn, finishTurnAudited } = AGENT_STATEMENTS;
    expect(finishTurnAudited).toMatch(/^WITH ended AS \(UPDATE agent_turns SET [^]*\)\nINSERT INTO audit_events\b/);
    // The same UPDATE as finishTurn, each parameter moved past the audit event's.
    const update = /^WITH ended AS \(([^]*?)\)\nINSERT INTO audit_events/.exec(finishTurnAudited)?.[1];
    expect(update).toBe(finishTurn.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + 16}`));
    expect(new Set(parameterNumbers(finishTurnAudited))).toEqual(new Set(Array.from({ length: 22 }, (_, i) => i + 1)));
    // No transaction control and no synchronous_commit off: the audit row's commit waits for its flush.
    expect(finishTurnAudited).not.toMatch(/BEGIN|COMMIT|synchronous_commit/i);
  });
});
