import { AccessContext, withPurpose } from '../access/access-context';
import { Caller } from '../auth/caller';
import { CreateProposalDto } from '../approvals/dto/proposal-requests.dto';
import { ProposalRow } from '../approvals/approvals.sql';
import { ProposalKind, ProposalStatus } from '../approvals/enum';
import { ProblemException } from '../common/http/problem';
import { IdentifierFinderMemo } from '../phi/identifier-scrub';
import { ToolEnvelope } from '../tools/envelope';
import { ToolReadService } from '../tools/tool-read.service';
import { wasAudited } from '../access/audited-access.service';
import { AuditBatchMember } from '../access/audit-batch';
import { ToolName } from '../tools/tool-names';
import { CitationIndex } from './citation-index';
import { treatmentAdviceIn } from './clinical-advice';
import { AgentTool, AgentToolName, PROPOSE_ACTION } from './tool-catalog';
import { callKey, parseArguments, validateArguments } from './tool-arguments';
import { refusal, ToolRefusal } from './tool-result';

export function isRefusal(result: object): result is ToolRefusal {
  return 'error' in result && typeof (result as ToolRefusal).error?.kind === 'string';
}

/**
 * The words of a proposal the model wrote that a person will read (its rationale, and every text of
 * its content: an order's reason, a note's text), by field name, where they advise treatment.
 */
function fieldsAdvisingTreatment(dto: CreateProposalDto): string[] {
  const texts: [string, unknown][] = [['rationale', dto.rationale], ...Object.entries(dto.content ?? {}).map(([key, value]): [string, unknown] => [`content.${key}`, value])];
  return texts.filter(([, value]) => typeof value === 'string' && treatmentAdviceIn(value)).map(([field]) => field);
}

/** A further call of the same tool past this, in one turn, is refused (a loop, not research). */
export const PER_TOOL_LIMIT = 4;

/** A draft filed in a turn, as the clinician sees it in the turn's answer. */
export interface DraftSummary {
  id: string;
  kind: ProposalKind;
  status: ProposalStatus;
  expiresAt: string;
}

/**
 * Where `propose_action` files: the clinician's draft (`ProposalsService.createDraft`), for the agent
 * and the MCP surface alike (MCP passes its own function, with no agent turn).
 */
export interface ProposalFiler {
  createDraft(access: AccessContext, patientId: string, dto: CreateProposalDto, turnId: string | null): Promise<Pick<ProposalRow, 'id' | 'kind' | 'status' | 'expiresAt'>>;
}

/** A governed call's result, and whether the one PHI path audited it (a call refused before it ran was not). */
export interface GovernedCall {
  result: ToolEnvelope | ToolRefusal | Record<string, unknown>;
  audited: boolean;
}

export interface ToolCallRecord {
  name: string;
  arguments: unknown;
  /** The envelope status (`ok`, `empty`, `partial`), `filed` for a proposal, or the refusal kind. */
  status: string;
}

export interface TurnContext {
  turnId: string;
  caller: Caller;
  /** The clinician's access as the agent: `agent` projection and channel, the request's correlation id. */
  access: AccessContext;
  patientId: string;
  catalog: Map<AgentToolName, AgentTool>;
  /** The rows the tools returned in this turn, by citation id: what an answer or a proposal may cite. */
  citations: CitationIndex;
  failedCalls: Set<string>;
  callsPerTool: Map<string, number>;
  proposals: string[];
  /** The drafts filed in this turn, for the clinician to submit or discard (absent until the first). */
  drafts?: DraftSummary[];
  toolCalls: ToolCallRecord[];
  /** Rows the tools returned in this turn, for the turn's own audit event. */
  rowsRead: number;
  /** The patient's identifier finder, built once for the turn's reads (absent: each read builds its own). */
  identifierFinders?: IdentifierFinderMemo;
}

/**
 * Runs one tool call of the model under governance (outermost first): a fault is contained as an
 * error result (tool name, kind, exception type; never the message); an identical call that
 * already failed is refused before it runs; arguments that are not JSON reach no tool; arguments
 * are validated by the tool's DTO. Every result is data for the model, never an exception.
 */
export class ToolRunner {
  constructor(
    private readonly phi: ToolReadService,
    private readonly proposalsService: ProposalFiler,
    /** What one context is (an agent `turn`, an MCP `session`) and how many calls of one tool it allows. */
    private readonly limits: { scope: string; perToolLimit: number } = { scope: 'turn', perToolLimit: PER_TOOL_LIMIT },
  ) {}

  /** `audit`: a read's audit row goes into that shared write (the reply's, `AuditBatch`); the caller says when the call has ended. */
  async run(context: TurnContext, name: string, argumentText: string, audit?: AuditBatchMember): Promise<ToolEnvelope | ToolRefusal | Record<string, unknown>> {
    return (await this.runParsed(context, name, parseArguments(argumentText), audit)).result;
  }

  /**
   * What "the same call" is for the repeated-failure rule: the tool and its parsed arguments in a
   * normal form (arguments that do not parse count as none, as `run` records them).
   */
  keyOf(name: string, argumentText: string): string {
    const parsed = parseArguments(argumentText);
    return callKey(name, parsed.ok ? parsed.value : null);
  }

  /** A call whose arguments arrived already parsed (an MCP `tools/call`): the same governance. */
  runArguments(context: TurnContext, name: string, args: unknown): Promise<GovernedCall> {
    return this.runParsed(context, name, { ok: true, value: args ?? {}, repaired: false });
  }

  private async runParsed(context: TurnContext, name: string, parsed: ReturnType<typeof parseArguments>, audit?: AuditBatchMember): Promise<GovernedCall> {
    const args = parsed.ok ? parsed.value : null;
    const record: ToolCallRecord = { name, arguments: args, status: 'ok' };
    // Before the first wait: calls started together (one model reply's) keep the model's order.
    context.toolCalls.push(record);
    const call = await this.governed(context, name, parsed, args, audit);
    const { result } = call;
    if (isRefusal(result)) {
      record.status = result.error.kind;
      if (result.error.kind !== 'per_tool_limit') context.failedCalls.add(callKey(name, args));
    } else {
      record.status = String(result.status);
    }
    return call;
  }

  private async governed(context: TurnContext, name: string, parsed: ReturnType<typeof parseArguments>, args: unknown, audit?: AuditBatchMember): Promise<GovernedCall> {
    const refused = (result: ToolRefusal): GovernedCall => ({ result, audited: false });
    const tool = context.catalog.get(name as AgentToolName);
    if (!tool) {
      return refused(refusal(name, 'unknown_tool', true, `No such tool. Available: ${[...context.catalog.keys()].join(', ')}.`));
    }
    if (!parsed.ok) return refused(refusal(name, 'invalid_json_arguments', true, 'Send the arguments as one JSON object.'));
    if (context.failedCalls.has(callKey(name, args))) {
      return refused(refusal(name, 'repeated_failing_call', false, `This exact call already failed in this ${this.limits.scope}; change the arguments or answer.`));
    }
    const count = (context.callsPerTool.get(name) ?? 0) + 1;
    context.callsPerTool.set(name, count);
    if (count > this.limits.perToolLimit) {
      return refused(refusal(name, 'per_tool_limit', false, `At most ${this.limits.perToolLimit} calls of one tool per ${this.limits.scope}; answer from what you have.`));
    }
    const validated = await validateArguments(tool, args);
    if (!validated.ok) return refused(validated.refusal);
    try {
      return name === PROPOSE_ACTION ? await this.propose(context, validated.dto as CreateProposalDto) : { result: await this.read(context, name as ToolName, validated.dto, audit), audited: true };
    } catch (error) {
      // Contained: the turn goes on. The message is never forwarded (it could hold data or SQL).
      const kind = error instanceof ProblemException ? error.code : 'tool_fault';
      const exceptionType = error instanceof Error ? error.constructor.name : typeof error;
      return { result: refusal(name, kind, false, 'The tool failed; do not repeat this call.', undefined, exceptionType), audited: wasAudited(error) };
    }
  }

  /** Through the one PHI path, like any other caller: audited there, success or failure (its row committed before the rows are cited). */
  private async read(context: TurnContext, name: ToolName, query: object, audit?: AuditBatchMember): Promise<ToolEnvelope> {
    const access = withPurpose(context.access, name, audit ? { auditBatch: audit } : {});
    const envelope = await this.phi.readTool(access, name, context.patientId, query, context.identifierFinders);
    context.citations.addResult(name, envelope);
    return envelope;
  }

  /**
   * Files a draft for the route's patient, citing only rows seen in this turn: the clinician's to
   * submit into review or discard. Nothing the model does moves it further.
   */
  private async propose(context: TurnContext, dto: CreateProposalDto): Promise<GovernedCall> {
    const unseen = dto.citations.filter((citation) => !context.citations.citable.has(citation));
    if (unseen.length > 0) {
      return { result: refusal(PROPOSE_ACTION, 'unknown_citation', true, `Cite only ids returned by the tools in this ${this.limits.scope}.`, [{ field: 'citations', reason: 'not_returned_in_turn' }]), audited: false };
    }
    const advising = fieldsAdvisingTreatment(dto);
    if (advising.length > 0) {
      const nextSteps = 'A proposal asks for an action on evidence; it never advises treatment. Leave the advice out.';
      return { result: refusal(PROPOSE_ACTION, 'treatment_advice', true, nextSteps, advising.map((field) => ({ field, reason: 'treatment_advice' }))), audited: false };
    }
    try {
      const draft = await this.proposalsService.createDraft(context.access, context.patientId, dto, context.turnId);
      context.proposals.push(draft.id);
      (context.drafts ??= []).push({ id: draft.id, kind: draft.kind as ProposalKind, status: draft.status as ProposalStatus, expiresAt: draft.expiresAt });
      return {
        result: {
          tool: PROPOSE_ACTION, status: 'filed', proposalId: draft.id, proposalStatus: draft.status,
          note: 'A draft for the clinician: it is not in review until they submit it, and nothing has been executed.',
        },
        audited: true,
      };
    } catch (error) {
      if (!(error instanceof ProblemException)) throw error;
      const fields = (error.errors ?? []).map((problem) => ({ field: problem.field, reason: problem.reason }));
      // The content is validated inside `createDraft` by the kind's DTO: the same refusal kind as the arguments.
      const kind = error.code === 'validation_failed' ? 'invalid_arguments' : error.code;
      return { result: refusal(PROPOSE_ACTION, kind, true, error.detail ?? 'The proposal was refused.', fields), audited: wasAudited(error) };
    }
  }
}
