import { performance } from 'node:perf_hooks';
import { FakeModel } from '../test/setup/fake-model';
import { AGENT_TOOLS, checkTurn, timedTurn, turnScript } from './agent-turn';
import { summarize, Summary } from './stats';

export interface AgentTurnResult {
  turns: number;
  overhead: Summary;
  turn: Summary;
  model: Summary;
  /** The same three tools over REST, one at a time, on the same patient, each call's own summary. */
  rest: Record<string, Summary>;
  /** Issue 15's figure: the overhead's median ÷ the sum of the three REST calls' medians (target ≤ 1.2). */
  overheadOverRestSum: number;
}

/** The REST route of each tool the turn calls (their defaults are the agent's `{}` arguments). */
const REST_PATH: Record<string, string> = { patient_labs: 'labs', care_gap_lookup: 'care-gaps', missing_data_check: 'missing-data' };

async function timedGet(url: string, token: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.text();
  const ms = performance.now() - start;
  if (response.status !== 200) throw new Error(`GET ${new URL(url).pathname.split('/').pop()} answered ${response.status}`);
  return ms;
}

/**
 * `bench:agent`'s measurement against the running Vigil: one turn at a time, overhead = the turn's
 * wall time − the time inside the scripted model's handler (the model answers at once). After each
 * turn the same three tools are called over REST on the same patient, one at a time, so both see the
 * same moment of a shared machine: the ratio of the two is the figure, not either alone.
 */
export async function measureAgentTurns(options: {
  /** The patient's base URL (`…/patients/{id}`): the turn posts to `agent/turns`, the tools are GETs under it. */
  patientUrl: string;
  token: string;
  model: FakeModel;
  turns: number;
  warmup: number;
  stop: () => boolean;
}): Promise<AgentTurnResult> {
  const samples: { turnMs: number; modelMs: number }[] = [];
  const rest: Record<string, number[]> = Object.fromEntries(AGENT_TOOLS.map((tool) => [tool, []]));
  for (let i = 0; i < options.warmup + options.turns; i += 1) {
    if (options.stop()) throw new Error('interrupted');
    options.model.script(turnScript());
    const busyBefore = options.model.busyMs;
    const { ms, body } = await timedTurn(`${options.patientUrl}/agent/turns`, options.token);
    checkTurn(body);
    const measured = i >= options.warmup;
    if (measured) samples.push({ turnMs: ms, modelMs: options.model.busyMs - busyBefore });
    for (const tool of AGENT_TOOLS) {
      const restMs = await timedGet(`${options.patientUrl}/${REST_PATH[tool]}`, options.token);
      if (measured) rest[tool].push(restMs);
    }
  }
  const overhead = summarize(samples.map((s) => s.turnMs - s.modelMs));
  const restSummaries = Object.fromEntries(AGENT_TOOLS.map((tool) => [tool, summarize(rest[tool])]));
  const restSum = AGENT_TOOLS.reduce((sum, tool) => sum + restSummaries[tool].median, 0);
  return {
    turns: samples.length,
    overhead,
    turn: summarize(samples.map((s) => s.turnMs)),
    model: summarize(samples.map((s) => s.modelMs)),
    rest: restSummaries,
    overheadOverRestSum: overhead.median / restSum,
  };
}
