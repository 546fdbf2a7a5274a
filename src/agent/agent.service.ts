import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { AccessContext, withPurpose } from '../access/access-context';
import { AccessService } from '../access/access.service';
import { AuditChannel, AuditOutcome } from '../audit';
import { Caller } from '../auth/caller';
import { ProposalsService } from '../approvals/proposals.service';
import { ProblemException } from '../common/http/problem';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AuditedAccess, AuditScope } from '../access/audited-access.service';
import { IdentifierFinderMemo, IdentifierKind } from '../phi/identifier-scrub';
import { ToolReadService } from '../tools/tool-read.service';
import { CitationIndex } from '../model-tools/citation-index';
import { groundAnswer, parseFinalAnswer, Statement, TurnStatus } from './answer/final-answer';
import { reasonForAnswer, TurnReason, turnReason, TurnReasonCode } from './answer/turn-reasons';
import { ModelToolCall, readModelReply } from './model-reply';
import { modelTransport } from './model-transport';
import { clinicalAdviceRequested } from '../model-tools/clinical-advice';
import { SYSTEM_PROMPT } from './system-prompt';
import { AgentTool, AgentToolName, agentTools, asModelTools, PROPOSE_ACTION } from '../model-tools/tool-catalog';
import { dataTextOf, refusal, renderForModel } from '../model-tools/tool-result';
import { DraftSummary, ToolCallRecord, ToolRunner, TurnContext } from '../model-tools/tool-runner';
import { BudgetStop, TurnBudget } from './turn-budget';
import { announceTurnFinished } from './turn-events';
import { PendingWrites } from './pending-writes';
import { AuditedEnd, StoredTurn, ToolCallToStore, TurnRepository } from './turn.repository';

/** What one tool call gives the model: a tool's envelope, a refusal, or a proposal's receipt. */
type ModelToolResult = Parameters<typeof renderForModel>[0];

export interface TurnUsage {
  modelCalls: number;
  toolCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Why each fact the model asked for was not stated (unknown_citation, wrong_tool, …). */
  droppedStatements: string[];
  /** The model's final reply carried words of its own; they are never shown. */
  modelTextDiscarded: boolean;
  /** The budget that ended the turn before a final answer, or null. */
  budgetExhausted: BudgetStop | null;
  /** The kinds of the patient's identifiers replaced in the question before it went to the model (never their values). */
  identifiersReplaced: IdentifierKind[];
}

/** How a turn ends: statements when it answered, else a reason code the server chose (never the model's words). */
type TurnEnd = { status: 'answered'; statements: Statement[] } | { status: Exclude<TurnStatus, 'answered'>; reason: TurnReasonCode };

/** A turn as it ended: the answer, and what its closing audit event records. */
interface FinishedTurn {
  result: AgentTurn;
  status: TurnStatus;
  rowsRead: number;
}

export interface AgentTurn {
  turnId: string;
  status: TurnStatus;
  statements: Statement[];
  /** Why there are no statements (every status but `answered`), in the server's words; null when answered. */
  reason: TurnReason | null;
  /** Ids of the drafts filed in this turn (as `drafts`). */
  proposals: string[];
  drafts: DraftSummary[];
  toolCalls: ToolCallRecord[];
  usage: TurnUsage;
}

const turnRateLimited = (retryAfterSeconds: number, perHour: number) =>
  new ProblemException(
    HttpStatus.TOO_MANY_REQUESTS,
    'agent_turn_rate_limited',
    'Too Many Requests',
    `At most ${perHour} agent turns per clinician in any hour; try again in ${retryAfterSeconds} s.`,
    undefined,
    { 'retry-after': String(retryAfterSeconds) },
  );

export const agentNotConfigured = () =>
  new ProblemException(
    HttpStatus.SERVICE_UNAVAILABLE,
    'agent_not_configured',
    'Service Unavailable',
    'No model is configured for the agent: set AGENT_MODEL_BASE_URL (an OpenAI-compatible endpoint) and AGENT_MODEL_NAME, and AGENT_MODEL_API_KEY if the server needs one.',
  );

/** What the model sent, for the token estimate when it reports no usage (never throws). */
function receivedText(completion: unknown): string {
  try {
    return JSON.stringify((completion as { choices?: { message?: unknown }[] } | null)?.choices?.[0]?.message ?? '') ?? '';
  } catch {
    return '';
  }
}

/**
 * A completion whose body is not JSON: the model answered, malformed (the transport's parse error,
 * node-fetch's `invalid-json`, or the SDK's own). Every other error of the call is the model not answering.
 */
function bodyNotJson(error: unknown): boolean {
  return error instanceof SyntaxError || (error instanceof Error && (error as { type?: unknown }).type === 'invalid-json');
}

/**
 * One agent turn: access first, then a bounded loop of model calls whose tool calls run through the
 * governed ToolRunner, then the server's grounding of the final answer. A model that errors, times
 * out or answers garbage makes a `failure` turn, never a 500. The turn is stored as it runs
 * (TurnRepository: `running` at the start, the tool calls of each model reply once they have ended,
 * the outcome at the end, after the calls, with a successful turn's audit row in the same statement);
 * proposals carry the turn id (`agent_turn_id`). The turn is one audited `agent_turn` access whose
 * fields name it (`agent_turn:<id>`); each of its tool reads and proposals is an event of its own on
 * the `agent` channel; all of them carry the request's correlation id (see `turn`).
 */
@Injectable()
export class AgentService {
  private readonly logger = new Logger(AgentService.name);
  private readonly runner: ToolRunner;
  private client?: OpenAI;
  /** The six tools and their definitions as the model reads them: the same for every caller and turn, so built once. */
  private tools?: { catalog: Map<AgentToolName, AgentTool>; forModel: ReturnType<typeof asModelTools> };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly access: AccessService,
    private readonly phi: ToolReadService,
    private readonly audited: AuditedAccess,
    proposals: ProposalsService,
    private readonly store: TurnRepository,
  ) {
    this.runner = new ToolRunner(phi, proposals);
  }

  private model(): { client: OpenAI; name: string } {
    const { baseUrl, apiKey, model } = this.config.agent;
    if (!baseUrl || !model) throw agentNotConfigured();
    // Retries are the loop's business (budgets), not the client's; the key may be empty for local servers.
    this.client ??= new OpenAI({ baseURL: baseUrl, apiKey: apiKey ?? 'not-needed', maxRetries: 0, timeout: this.config.agent.timeoutMs, ...modelTransport() });
    return { client: this.client, name: model };
  }

  private catalog(): NonNullable<AgentService['tools']> {
    if (!this.tools) {
      const catalog = agentTools((name) => this.phi.describeTool(name));
      this.tools = { catalog, forModel: asModelTools(catalog) };
    }
    return this.tools;
  }

  /**
   * The turn is one audited access (`agent_turn`: its id, the rows its tools read in all; `error` for
   * a failure turn), refusals included; each tool read and proposal inside it is audited on the
   * `agent` channel with the same correlation id.
   */
  turn(access: AccessContext, patientId: string, question: string): Promise<AgentTurn> {
    return this.audited.audited(withPurpose(access, 'agent_turn'), patientId, async (scope) => {
      const turn = await this.runTurn(access, patientId, question, scope);
      return { value: turn.result, fields: turnFields(turn.result.turnId), rowCount: turn.rowsRead, outcome: turnOutcome(turn.status, turn.rowsRead) };
    });
  }

  /**
   * `scope`: the turn's audited access. A turn that ends in success writes its audit row in the
   * statement of its end (`AuditScope.recordWith`): one round trip and one commit on the clinician's
   * wait, where a transaction took four round trips and a separate row two commits.
   */
  private async runTurn(access: AccessContext, patientId: string, question: string, scope: AuditScope): Promise<FinishedTurn> {
    const caller = requireCaller(access);
    const model = this.model();
    // The same 404 as the tools for a patient that is not the caller's (or does not exist); no break glass for a model.
    // One read with the request's identity lookup (`IdentityInRead` on the route), ended before the turn writes anything.
    // The model reads the question with the patient's identifiers replaced: the route fixes the patient, the model needs none.
    // The patient's identifier finder is built once for the question and every tool result of the turn.
    const identifierFinders = new IdentifierFinderMemo();
    const forModel = await this.phi.questionForModel({ ...access, projectionRole: 'agent', breakGlassReason: null }, patientId, question, identifierFinders);
    const { catalog, forModel: modelTools } = this.catalog();
    // Every read and proposal of the turn: the agent's projection, the agent channel, the request's correlation id.
    const agentAccess: AccessContext = { ...access, projectionRole: 'agent', breakGlassReason: null, channel: AuditChannel.Agent };
    const context: TurnContext = {
      turnId: randomUUID(), caller, access: agentAccess, patientId, catalog, identifierFinders,
      citations: new CitationIndex(), failedCalls: new Set(), callsPerTool: new Map(), proposals: [], toolCalls: [], rowsRead: 0,
    };
    const { maxTurnsPerHour } = this.config.agent;
    // Stored before anything runs, so a turn that dies half-way is still on record as `running`.
    const started = await this.store.start(context.turnId, patientId, caller.userId, question, maxTurnsPerHour);
    // A refused turn is on the audit trail too (as `denied`, by `turn`): who was stopped, for which patient, when.
    if (!started.started) throw turnRateLimited(started.retryAfterSeconds, maxTurnsPerHour);

    const budget = new TurnBudget(this.config.agent);
    const writes = new PendingWrites();
    const droppedStatements: string[] = [];
    let budgetExhausted: BudgetStop | null = null;
    let modelTextDiscarded = false;
    let identifiersReplaced: IdentifierKind[] = [];
    // Set once the turn's audit row is written in the end's statement (see the catch below).
    let recordedInEnd = false;
    const auditedEnd: AuditedEnd = (session, statement, parameters) =>
      scope.recordWith(session, statement, parameters, turnFields(context.turnId), context.rowsRead).then(() => {
        recordedInEnd = true;
      });
    const finish = async (end: TurnEnd) => {
      const { status } = end;
      const statements = end.status === 'answered' ? end.statements : [];
      const reasonCode = end.status === 'answered' ? null : end.reason;
      const { modelCalls, toolCalls, promptTokens, completionTokens } = budget;
      const usage: TurnUsage = { modelCalls, toolCalls, promptTokens, completionTokens, droppedStatements, modelTextDiscarded, budgetExhausted, identifiersReplaced };
      // Only a success row can be written in the end's statement (`recordWith`); every other outcome is written after it, by `turn`.
      const recordEnd = turnOutcome(status, context.rowsRead) === AuditOutcome.Success ? auditedEnd : undefined;
      // Every tool call is stored before the turn ends (`writes`); one that could not be makes the turn a failure (the catch below).
      await this.store.finish(context.turnId, { status, reasonCode, statements, proposals: context.proposals, usage }, () => writes.settle(), recordEnd);
      // Only ids, codes and counts are logged: never the question, a statement or a tool result.
      this.logger.log({ msg: 'agent turn', correlationId: access.correlationId, turnId: context.turnId, status, reason: reasonCode, ...usage, droppedStatements: droppedStatements.length, identifiersReplaced: identifiersReplaced.length, proposals: context.proposals.length });
      announceTurnFinished(status);
      const reason = reasonCode === null ? null : turnReason(reasonCode);
      const result: AgentTurn = { turnId: context.turnId, status, statements, reason, proposals: context.proposals, drafts: context.drafts ?? [], toolCalls: context.toolCalls, usage };
      return { result, status, rowsRead: context.rowsRead };
    };
    if (clinicalAdviceRequested(question)) return finish({ status: 'refused', reason: 'treatment_advice_not_given' });

    // Said only for a question that goes to the model: a refused one left nothing for it.
    identifiersReplaced = forModel.replaced;
    const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: forModel.text }];
    try {
      return await this.loop(model, context, budget, writes, messages, modelTools, finish, {
        dropped: (reasons) => droppedStatements.push(...reasons),
        discardedText: () => (modelTextDiscarded = true),
        exhausted: (stop) => (budgetExhausted = stop),
      });
    } catch (error) {
      // The turn ended with its success row and something failed after: the turn is stored as a failure
      // if it still can be, and the error leaves the work, so `AuditedAccess` writes the failure's row (it
      // writes none for work that returns after its row was written with its change). An end statement
      // that failed wrote nothing, neither the end nor the row: that turn ends as any failure below.
      if (recordedInEnd) {
        await finish({ status: 'failure', reason: 'turn_failed' }).catch(() => undefined);
        throw error;
      }
      // Whatever goes wrong inside the loop, the turn ends stored and audited as a failure, never a 500
      // with the turn left `running`. Only the error's type is logged (a message could quote the record).
      this.logger.warn({ msg: 'agent turn failed', correlationId: access.correlationId, turnId: context.turnId, errorType: error instanceof Error ? error.constructor.name : typeof error });
      return finish({ status: 'failure', reason: 'turn_failed' });
    }
  }

  /** The bounded model loop of one turn (see `turn`): model calls, governed tool calls, the grounded answer. */
  private async loop(
    model: { client: OpenAI; name: string },
    context: TurnContext,
    budget: TurnBudget,
    writes: PendingWrites,
    messages: ChatCompletionMessageParam[],
    modelTools: ReturnType<typeof asModelTools>,
    finish: (end: TurnEnd) => Promise<FinishedTurn>,
    report: { dropped(reasons: string[]): void; discardedText(): void; exhausted(stop: BudgetStop | null): void },
  ): Promise<FinishedTurn> {
    let stop: BudgetStop | null;
    while ((stop = budget.stop()) === null) {
      const offerTools = budget.toolsLeft();
      let completion: ChatCompletion;
      try {
        budget.startModelCall();
        completion = await model.client.chat.completions.create(
          { model: model.name, messages, ...(offerTools ? { tools: modelTools } : {}) },
          { timeout: budget.remainingMs() },
        );
      } catch (error) {
        this.logger.warn({ msg: 'agent model call failed', correlationId: context.access.correlationId, turnId: context.turnId, errorType: error instanceof Error ? error.constructor.name : typeof error });
        return finish({ status: 'failure', reason: bodyNotJson(error) ? 'model_reply_malformed' : 'model_unavailable' });
      }
      const reply = readModelReply(completion);
      budget.recordTokens((completion as { usage?: unknown } | null)?.usage, () => JSON.stringify(messages), () => receivedText(completion));
      if (reply.kind === 'malformed') {
        this.logger.warn({ msg: 'agent model reply malformed', correlationId: context.access.correlationId, turnId: context.turnId, reason: reply.reason });
        return finish({ status: 'failure', reason: 'model_reply_malformed' });
      }
      if (reply.kind === 'answer') {
        // A final answer is judged even when it spent the last of a budget: its tokens are already paid.
        const answer = parseFinalAnswer(reply.content);
        if (!answer) return finish({ status: 'failure', reason: 'model_reply_malformed' });
        if (answer.modelTextDiscarded) report.discardedText();
        const grounded = groundAnswer(answer, context.citations);
        report.dropped(grounded.dropped);
        if (grounded.status === 'answered') return finish({ status: 'answered', statements: grounded.statements });
        const chosen = { status: answer.status, reason: answer.reason, factsChosen: answer.facts.length };
        return finish({ status: grounded.status, reason: reasonForAnswer(chosen, grounded.status, context.toolCalls.map((call) => call.status)) });
      }
      // The model is shown its calls as the server read them (unusable arguments as `{}`, refused below).
      const echoed = reply.calls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments ?? '{}' } }));
      messages.push({ role: 'assistant', content: reply.content, tool_calls: echoed });
      const contents = await this.runCalls(context, budget, writes, offerTools, reply.calls);
      reply.calls.forEach((call, i) => messages.push({ role: 'tool', tool_call_id: call.id, content: contents[i] }));
    }
    // A budget ran out before a final answer: nothing grounded to stand behind.
    report.exhausted(stop);
    return finish({ status: 'insufficient_data', reason: 'budget_exhausted' });
  }

  /**
   * Runs one model reply's tool calls; returns each result as the model will read it, in the
   * model's order. The reads of one reply run together: the model asked for them at once, they are
   * independent, and the clinician then waits for the slowest instead of their sum (three tools one
   * after another were most of a turn's server time, `bench:agent`). Two kinds of call wait for
   * every call before them: a proposal (it may cite only rows the turn has already returned) and a
   * call identical to an earlier one of the reply (a call that failed is refused when repeated,
   * never run twice). The budget, the per-tool counts and the records are taken in the model's
   * order, whichever call finishes first. The reads' audit rows are written in one commit, once
   * the last of them has its row (`AuditBatch`), and each read's rows reach nothing (the model, the
   * turn's citations) before that commit; a proposal, or a repeated call, waits for that write. The
   * reply's records are stored together, in one statement, while the model reads the results
   * (`writes`): the turn's end waits for them.
   */
  private async runCalls(context: TurnContext, budget: TurnBudget, writes: PendingWrites, offerTools: boolean, calls: ModelToolCall[]): Promise<string[]> {
    const running: Promise<ToolCallToStore & { content: string }>[] = [];
    const seen = new Set<string>();
    // The reply's reads write their audit rows together, once every one has its row or has ended (see `AuditBatch`).
    const audit = this.audited.batch();
    for (const call of calls) {
      let result: ModelToolResult | Promise<ModelToolResult>;
      if (!offerTools || !budget.takeToolCall()) {
        context.toolCalls.push({ name: call.name, arguments: null, status: 'tool_budget_exhausted' });
        result = refusal(call.name, 'tool_budget_exhausted', false, 'No more tool calls in this turn; answer from what you have.');
      } else if (call.problem || call.arguments === null) {
        const problem = call.problem ?? { kind: 'invalid_arguments' as const, nextSteps: 'Send the arguments as one JSON object.' };
        context.toolCalls.push({ name: call.name, arguments: null, status: problem.kind });
        result = refusal(call.name, problem.kind, true, problem.nextSteps);
      } else {
        const key = this.runner.keyOf(call.name, call.arguments);
        if (call.name === PROPOSE_ACTION || seen.has(key)) await Promise.allSettled(running);
        seen.add(key);
        // `run` takes the call's record before it first waits, so records stay in the model's order.
        // A read joins the reply's audit write after the waits above, so the calls it waits for never wait for it.
        const member = call.name === PROPOSE_ACTION ? undefined : audit.join();
        result = this.runner.run(context, call.name, call.arguments, member);
        if (member) result = result.finally(() => member.leave());
      }
      const seq = context.toolCalls.length - 1;
      running.push(Promise.resolve(result).then((done) => this.callRecord(context, seq, done)));
    }
    // Every call ends before the turn goes on, or ends as a failure: none is left running behind it.
    const ended = await Promise.allSettled(running);
    const records = ended.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    writes.add(this.store.toolCalls(context.turnId, records));
    const failed = ended.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return records.map((record) => record.content);
  }

  /** Call `seq` of the turn as stored, with the result exactly as the model will read it. */
  private callRecord(context: TurnContext, seq: number, result: object): ToolCallToStore & { content: string } {
    const { name, arguments: args, status } = context.toolCalls[seq];
    const content = renderForModel(result as ModelToolResult);
    const rowCount = 'rowCount' in result && typeof result.rowCount === 'number' ? result.rowCount : null;
    context.rowsRead += rowCount ?? 0;
    return { seq, name, arguments: args, status, rowCount, envelopeJson: dataTextOf(content), content };
  }

  /**
   * A stored turn, for any clinician who may see the patient (not only its author: the care team
   * shares the record). The same 404 as everywhere for a patient not theirs, or a turn of another
   * patient; reading it is a PHI read (the envelopes) and audited as one.
   */
  stored(access: AccessContext, patientId: string, turnId: string): Promise<StoredTurn> {
    return this.audited.audited(withPurpose(access, 'agent_turn.read'), patientId, async () => {
      await this.access.patientRead({ ...access, breakGlassReason: null }, patientId);
      const turn = await this.store.find(turnId, patientId);
      if (!turn) throw new ProblemException(HttpStatus.NOT_FOUND, 'turn_not_found', 'Not Found', 'No such agent turn for this patient.');
      const rowCount = turn.toolCalls.reduce((sum, call) => sum + (call.rowCount ?? 0), 0);
      return { value: turn, fields: [`agent_turn:${turnId}`], rowCount, outcome: AuditOutcome.Success };
    });
  }
}

/** What the turn's audit row names: the turn. */
const turnFields = (turnId: string) => [`agent_turn:${turnId}`];

/** The turn's audit outcome: `error` for a failure turn, else `success` when its tools read rows, `empty` when not. */
function turnOutcome(status: TurnStatus, rowsRead: number): AuditOutcome {
  return status === 'failure' ? AuditOutcome.Error : rowsRead > 0 ? AuditOutcome.Success : AuditOutcome.Empty;
}

function requireCaller(access: AccessContext): Caller {
  if (!access.caller) throw new Error('an agent turn is a clinician\'s');
  return access.caller;
}
