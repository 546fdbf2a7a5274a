import { estimateTokens, TurnBudget } from './turn-budget';

const limits = { maxModelCalls: 3, maxToolCalls: 2, maxTokens: 1000, timeoutMs: 5000 };

describe('TurnBudget', () => {
  let clock: number;
  const budget = () => new TurnBudget(limits, () => clock);
  beforeEach(() => (clock = 1_000_000));

  it('allows model calls until the model-call budget is spent', () => {
    const turn = budget();
    for (let call = 0; call < 3; call += 1) {
      expect(turn.stop()).toBeNull();
      turn.startModelCall();
    }
    expect(turn.stop()).toBe('model_calls');
  });

  it('stops on tokens as reported, and estimates them when the endpoint reports none', () => {
    const reported = budget();
    reported.recordTokens({ prompt_tokens: 900, completion_tokens: 99 }, () => '', () => '');
    expect(reported.stop()).toBeNull();
    reported.recordTokens({ prompt_tokens: 1, completion_tokens: 0 }, () => '', () => '');
    expect(reported.stop()).toBe('tokens');

    const estimated = budget();
    estimated.recordTokens(undefined, () => 'x'.repeat(3600), () => 'y'.repeat(400));
    expect({ prompt: estimated.promptTokens, completion: estimated.completionTokens }).toEqual({ prompt: 900, completion: 100 });
    expect(estimated.stop()).toBe('tokens');
  });

  it('stops on wall time, and reports what is left of it', () => {
    const turn = budget();
    clock += 4000;
    expect(turn.remainingMs()).toBe(1000);
    clock += 1000;
    expect(turn.stop()).toBe('wall_time');
  });

  it('hands out tool calls until the tool budget is spent, then withdraws the tools', () => {
    const turn = budget();
    expect([turn.takeToolCall(), turn.takeToolCall(), turn.takeToolCall()]).toEqual([true, true, false]);
    expect(turn.toolsLeft()).toBe(false);
    expect(turn.toolCalls).toBe(2);
  });

  it('estimates about four characters per token, rounding up', () => {
    expect([estimateTokens(''), estimateTokens('abc'), estimateTokens('abcde')]).toEqual([0, 1, 2]);
  });
});
