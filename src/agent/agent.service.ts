import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { AuditService } from '../audit';
import { Caller } from '../auth/caller';
import { PatientAccessService } from '../auth/patient-access.service';
import { ProposalsService } from '../approvals/proposals.service';
import { ProblemException } from '../common/http/problem';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { auditOutcomeOf } from '../tools/tool-audit';
import { ToolsService } from '../tools/tools.service';
import { groundAnswer, parseFinalAnswer, Statement, TurnStatus } from './grounding';
import { asksForClinicalAdvice, SYSTEM_PROMPT } from './system-prompt';
import { agentTools, asModelTools } from './tool-catalog';
import { refusal, renderForModel } from './tool-result';
import { ToolCallRecord, ToolRunner, TurnContext } from './tool-runner';

export interface AgentTurn {
  turnId: string;
  status: TurnStatus;
  statements: Statement[];
  proposals: string[];
  toolCalls: ToolCallRecord[];
  usage: { modelCalls: number; toolCalls: number; promptTokens: number; completionTokens: number; droppedStatements: string[] };
}

export const agentNotConfigured = () =>
  new ProblemException(
    HttpStatus.SERVICE_UNAVAILABLE,
    'agent_not_configured',
    'Service Unavailable',
    'No model is configured for the agent: set AGENT_MODEL_BASE_URL (an OpenAI-compatible endpoint) and AGENT_MODEL_NAME, and AGENT_MODEL_API_KEY if the server needs one.',
  );

/**
 * One agent turn: access first, then a bounded loop of model calls whose tool calls run through the
 * governed ToolRunner, then the server's grounding of the final answer. A model that errors, times
 * out or answers garbage makes a `failure` turn, never a 500. Turns are not persisted in this slice;
 * proposals carry the turn id and every read is audited under `agent-turn:<id>`.
 */
@Injectable()
export class AgentService {
  private readonly logger = new Logger(AgentService.name);
  private readonly runner: ToolRunner;
  private client?: OpenAI;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly access: PatientAccessService,
    private readonly tools: ToolsService,
    proposals: ProposalsService,
    private readonly audit: AuditService,
  ) {
    this.runner = new ToolRunner(tools, proposals, audit);
  }

  private model(): { client: OpenAI; name: string } {
    const { baseUrl, apiKey, model } = this.config.agent;
    if (!baseUrl || !model) throw agentNotConfigured();
    // Retries are the loop's business (budgets), not the client's; the key may be empty for local servers.
    this.client ??= new OpenAI({ baseURL: baseUrl, apiKey: apiKey ?? 'not-needed', maxRetries: 0, timeout: this.config.agent.timeoutMs });
    return { client: this.client, name: model };
  }

  async turn(caller: Caller, patientId: string, question: string): Promise<AgentTurn> {
    const model = this.model();
    // The same 404 as the tools for a patient that is not the caller's (or does not exist), audited like theirs.
    try {
      await this.access.grant(caller, patientId);
    } catch (error) {
      await this.audit.record({ actorId: caller.userId, actorRole: caller.role, patientId, action: 'agent_turn', fields: [], rowCount: 0, outcome: auditOutcomeOf(error) });
      throw error;
    }
    const catalog = agentTools(this.tools);
    const context: TurnContext = {
      turnId: randomUUID(), caller, patientId, catalog,
      cited: new Map(), failedCalls: new Set(), callsPerTool: new Map(), proposals: [], toolCalls: [],
    };
    const usage = { modelCalls: 0, toolCalls: 0, promptTokens: 0, completionTokens: 0, droppedStatements: [] as string[] };
    const finish = (status: TurnStatus, statements: Statement[] = []): AgentTurn => {
      // Only ids and counts are logged: never the question, a statement or a tool result.
      this.logger.log({ msg: 'agent turn', turnId: context.turnId, status, ...usage, proposals: context.proposals.length });
      return { turnId: context.turnId, status, statements, proposals: context.proposals, toolCalls: context.toolCalls, usage };
    };
    if (asksForClinicalAdvice(question)) return finish('refused');

    const { maxModelCalls, maxToolCalls, timeoutMs } = this.config.agent;
    const deadline = Date.now() + timeoutMs;
    const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: question }];
    const modelTools = asModelTools(catalog);
    while (usage.modelCalls < maxModelCalls) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      const toolsLeft = usage.toolCalls < maxToolCalls;
      let completion: ChatCompletion;
      try {
        usage.modelCalls += 1;
        completion = await model.client.chat.completions.create(
          { model: model.name, messages, ...(toolsLeft ? { tools: modelTools } : {}) },
          { timeout: remaining },
        );
      } catch (error) {
        this.logger.warn({ msg: 'agent model call failed', turnId: context.turnId, errorType: error instanceof Error ? error.constructor.name : typeof error });
        return finish('failure');
      }
      usage.promptTokens += completion?.usage?.prompt_tokens ?? 0;
      usage.completionTokens += completion?.usage?.completion_tokens ?? 0;
      const message = completion?.choices?.[0]?.message;
      if (!message || typeof message !== 'object') return finish('failure');
      const calls = (message.tool_calls ?? []).filter((call) => call.type === 'function');
      if (calls.length === 0) {
        const answer = parseFinalAnswer(message.content);
        if (!answer) return finish('failure');
        const grounded = groundAnswer(answer, context.cited);
        usage.droppedStatements.push(...grounded.dropped);
        return finish(grounded.status, grounded.statements);
      }
      messages.push({ role: 'assistant', content: message.content ?? null, tool_calls: calls });
      for (const call of calls) {
        let content: string;
        if (!toolsLeft || usage.toolCalls >= maxToolCalls) {
          context.toolCalls.push({ name: call.function.name, arguments: null, status: 'tool_budget_exhausted' });
          content = renderForModel(refusal(call.function.name, 'tool_budget_exhausted', false, 'No more tool calls in this turn; answer from what you have.'));
        } else {
          usage.toolCalls += 1;
          content = renderForModel(await this.runner.run(context, call.function.name, call.function.arguments));
        }
        messages.push({ role: 'tool', tool_call_id: call.id, content });
      }
    }
    // Model budget or wall time spent without a final answer: nothing grounded to stand behind.
    return finish('insufficient_data');
  }
}
