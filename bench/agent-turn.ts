import { performance } from 'node:perf_hooks';
import { ChatRequest, finalAnswer, Step, toolResultsIn } from '../test/setup/fake-model';

/**
 * One scripted agent turn, shared by `npm run bench:agent` and `npm run bench`: the tests' model
 * calls three tools in one reply, then answers with one statement citing the first numeric lab.
 */

export const AGENT_PATIENT = 'complete-record';
export const AGENT_TOOLS = ['patient_labs', 'care_gap_lookup', 'missing_data_check'];

/** Three tools in one reply, then a statement citing the first numeric lab the model was shown. */
export function turnScript(): Step[] {
  return [
    { toolCalls: AGENT_TOOLS.map((tool) => ({ name: tool, arguments: '{}' })) },
    (request: ChatRequest) => {
      const rows = toolResultsIn(request).flatMap((result) =>
        ((result.rows as Record<string, unknown>[] | undefined) ?? []).map((row) => ({ ...(result.sameInEveryRow as object), ...row }) as Record<string, unknown>),
      );
      const lab = rows.find((row) => typeof row.value === 'number' && String(row.citation).startsWith('obs:'));
      if (!lab) throw new Error('the scripted model saw no numeric lab');
      return finalAnswer('answered', [{ kind: 'lab_value', citations: [String(lab.citation)] }]);
    },
  ];
}

/** A benchmark of the wrong turn measures nothing: every turn must be the grounded three-tool one. */
export function checkTurn(body: string): void {
  const turn = JSON.parse(body) as { status?: string; toolCalls?: { status: string }[]; statements?: unknown[] };
  const ok = turn.status === 'answered' && turn.statements?.length === 1 && turn.toolCalls?.length === 3;
  if (!ok) throw new Error(`unexpected turn: status ${turn.status}, ${turn.toolCalls?.length ?? 0} tool calls, ${turn.statements?.length ?? 0} statements`);
}

/** One turn, timed from sending to the last byte of the body, on the global keep-alive agent. */
export async function timedTurn(url: string, token: string): Promise<{ ms: number; body: string }> {
  const start = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ question: 'What are the latest labs, open care gaps and missing data?' }),
  });
  const body = await response.text();
  const ms = performance.now() - start;
  if (response.status !== 200) throw new Error(`turn answered ${response.status}`);
  return { ms, body };
}
