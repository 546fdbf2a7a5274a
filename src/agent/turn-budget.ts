/** Which budget ended a turn that had no final answer yet. */
export type BudgetStop = 'model_calls' | 'tokens' | 'wall_time';

export interface TurnLimits {
  maxModelCalls: number;
  maxToolCalls: number;
  /** Prompt + completion tokens over the whole turn. */
  maxTokens: number;
  timeoutMs: number;
}

/** Tokens reported by the endpoint for one completion; absent when the server does not count. Unchecked: see `reportedCount`. */
export interface ReportedUsage {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
}

/** A count the endpoint reported, if it is one (a non-negative safe integer); else undefined, and the text is estimated instead. */
export function reportedCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * Rough token count of text sent or received, for endpoints that report no usage (some local
 * servers): about four characters per token for English and JSON, the usual rule of thumb. It
 * only has to keep a turn from running unbounded, not to bill.
 */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/**
 * The per-turn budgets of the agent loop: model calls, tool calls, tokens and wall time. The loop
 * asks `stop()` before each model call and `takeToolCall()` before each tool call; the counters
 * are the turn's reported usage.
 */
export class TurnBudget {
  modelCalls = 0;
  toolCalls = 0;
  promptTokens = 0;
  completionTokens = 0;
  private readonly deadline: number;

  constructor(
    private readonly limits: TurnLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.deadline = now() + limits.timeoutMs;
  }

  /** The budget that forbids another model call, or null while one may be made. */
  stop(): BudgetStop | null {
    if (this.modelCalls >= this.limits.maxModelCalls) return 'model_calls';
    if (this.promptTokens + this.completionTokens >= this.limits.maxTokens) return 'tokens';
    if (this.remainingMs() <= 0) return 'wall_time';
    return null;
  }

  remainingMs(): number {
    return this.deadline - this.now();
  }

  /** Whether the tools are still offered to the model (withdrawn once the tool budget is spent). */
  toolsLeft(): boolean {
    return this.toolCalls < this.limits.maxToolCalls;
  }

  /** Counts a tool call when the budget allows one; false means refuse it. */
  takeToolCall(): boolean {
    if (!this.toolsLeft()) return false;
    this.toolCalls += 1;
    return true;
  }

  /** Counts a model call as it is made, so a call that fails still used the budget. */
  startModelCall(): void {
    this.modelCalls += 1;
  }

  /** Counts one completion's tokens: as reported, or estimated from the text when not. */
  recordTokens(reported: unknown, sentText: () => string, receivedText: () => string): void {
    // A negative, fractional or non-numeric report (`-1e12`, `"lots"`) would switch the budget off: estimate instead.
    const usage = (typeof reported === 'object' && reported !== null ? reported : {}) as ReportedUsage;
    this.promptTokens += reportedCount(usage.prompt_tokens) ?? estimateTokens(sentText());
    this.completionTokens += reportedCount(usage.completion_tokens) ?? estimateTokens(receivedText());
  }
}
