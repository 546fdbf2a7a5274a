import { FakeModel } from '../test/setup/fake-model';
import { checkTurn, timedTurn, turnScript } from './agent-turn';
import { summarize, Summary } from './stats';

export interface AgentTurnResult {
  turns: number;
  overhead: Summary;
  turn: Summary;
  model: Summary;
}

/**
 * `bench:agent`'s measurement against the running Vigil: one turn at a time, overhead = the turn's
 * wall time − the time inside the scripted model's handler (the model answers at once).
 */
export async function measureAgentTurns(options: { url: string; token: string; model: FakeModel; turns: number; warmup: number; stop: () => boolean }): Promise<AgentTurnResult> {
  const samples: { turnMs: number; modelMs: number }[] = [];
  for (let i = 0; i < options.warmup + options.turns; i += 1) {
    if (options.stop()) throw new Error('interrupted');
    options.model.script(turnScript());
    const busyBefore = options.model.busyMs;
    const { ms, body } = await timedTurn(options.url, options.token);
    checkTurn(body);
    if (i >= options.warmup) samples.push({ turnMs: ms, modelMs: options.model.busyMs - busyBefore });
  }
  return {
    turns: samples.length,
    overhead: summarize(samples.map((s) => s.turnMs - s.modelMs)),
    turn: summarize(samples.map((s) => s.turnMs)),
    model: summarize(samples.map((s) => s.modelMs)),
  };
}
