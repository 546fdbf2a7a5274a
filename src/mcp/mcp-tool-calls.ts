import { Inject, Injectable, Logger } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AccessContext, withPurpose } from '../access/access-context';
import { AgentTool, agentTools, AgentToolName, PROPOSE_ACTION } from '../model-tools/tool-catalog';
import { refusal, renderForModel, ToolRefusal } from '../model-tools/tool-result';
import { isRefusal, ProposalFiler, ToolRunner, TurnContext } from '../model-tools/tool-runner';
import { CreateProposalDto } from '../approvals/dto/proposal-requests.dto';
import { ProposalsService } from '../approvals/proposals.service';
import { AuditChannel, AuditOutcome } from '../audit';
import { Caller } from '../auth/caller';
import { ProblemException } from '../common/http/problem';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AuditedAccess } from '../access/audited-access.service';
import { ToolReadService } from '../tools/tool-read.service';
import { TOOL_NAMES, ToolName } from '../tools/tool-names';
import { BoundSession, McpSessionRepository } from './mcp-session.repository';
import { governanceChanges, restoreGovernance } from './session-governance';
import { sessionNotFound } from './mcp.problems';

/** What a call needs of its session (its patient known); the governance the agent keeps per turn is stored with it and restored per call. */
export type SessionState = Pick<BoundSession, 'id' | 'patientId' | 'breakGlassReason'>;

/** Who is calling, per HTTP request: the guard's caller and the request's correlation id. */
export interface McpRequestContext {
  caller: Caller;
  correlationId: string | null;
}

/** Tool names that may be echoed back (a client's own unknown name is not). */
const KNOWN = new Set<string>([...TOOL_NAMES, PROPOSE_ACTION]);

/** Refusals that stop a call before any data is read: the caller is told no, the audit says `denied`. */
const LIMIT_KINDS = new Set(['per_tool_limit', 'repeated_failing_call', 'session_call_limit']);

/**
 * One `tools/call` of a session: the agent's governance (`ToolRunner`: unknown tools, unknown and
 * prototype arguments refused by name, repeated failing calls, per-tool limits, faults contained as
 * kind + exception type), the one PHI path (`ToolReadService`: access, the agent projection, audit
 * on the `mcp` channel), and exactly one audit row per call: written by the PHI path when the call
 * reached it, here when governance refused it first.
 */
@Injectable()
export class McpToolCalls {
  private readonly logger = new Logger(McpToolCalls.name);
  private readonly runner: ToolRunner;
  private agentCatalog?: Map<AgentToolName, AgentTool>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly phi: ToolReadService,
    private readonly audited: AuditedAccess,
    private readonly proposals: ProposalsService,
    private readonly store: McpSessionRepository,
  ) {
    const filer: ProposalFiler = { createDraft: (access, patientId, dto) => this.fileProposal(access, patientId, dto) };
    this.runner = new ToolRunner(phi, filer, { scope: 'session', perToolLimit: config.mcp.maxCallsPerTool });
  }

  /** The agent's catalogue: the same for every session (the tools a patient lacks data for are left out of what a session lists). */
  catalog(): Map<AgentToolName, AgentTool> {
    return (this.agentCatalog ??= agentTools((name) => this.phi.describeTool(name)));
  }

  /** The access of one call: the caller of this request, the model's projection, the session's patient and reason. */
  accessOf(session: SessionState, request: McpRequestContext, purpose: string): AccessContext {
    return {
      caller: request.caller,
      actorName: null,
      purpose,
      projectionRole: 'agent',
      breakGlassReason: session.breakGlassReason,
      channel: AuditChannel.Mcp,
      correlationId: request.correlationId,
      sessionId: session.id,
    };
  }

  /**
   * Never throws: the SDK would send a thrown error's message to the client, and a message can carry
   * a driver's text. Whatever escapes governance (an audit row that cannot be written, say) becomes
   * an error result with a kind and the exception's type; no data left, since nothing leaves unaudited.
   */
  async call(session: SessionState, request: McpRequestContext, name: string, args: unknown): Promise<CallToolResult> {
    try {
      return await this.governedCall(session, request, name, args);
    } catch (error) {
      const exceptionType = error instanceof Error ? error.constructor.name : typeof error;
      this.logger.warn({ msg: 'mcp tool call failed', correlationId: request.correlationId, sessionId: session.id, exceptionType });
      const kind = error instanceof ProblemException ? error.code : 'tool_fault';
      return asToolResult(refusal(KNOWN.has(name) ? name : 'unknown', kind, false, 'Vigil could not complete this call; nothing was read. Try again later.', undefined, exceptionType));
    }
  }

  private async governedCall(session: SessionState, request: McpRequestContext, name: string, args: unknown): Promise<CallToolResult> {
    const access = this.accessOf(session, request, name);
    // Counted before anything runs, in the statement that reads the stored governance (whichever process stored it).
    const stored = await this.store.claimCall(session.id);
    if (!stored) throw sessionNotFound();
    const governance = restoreGovernance(stored, this.catalog(), session.patientId);
    const context: TurnContext = { ...governance, caller: request.caller, access };
    const { result, audited } =
      stored.calls > this.config.mcp.maxCallsPerSession
        ? { result: sessionLimit(name, this.config.mcp.maxCallsPerSession), audited: false }
        : await this.runner.runArguments(context, name, args);
    await this.store.recordCall(session.id, governanceChanges(stored, governance, name));
    if (!audited && isRefusal(result)) await this.auditRefusal(access, session, name, result);
    return asToolResult(result);
  }

  /**
   * The one place MCP files a proposal: the clinician's draft, as the agent's (they submit or discard
   * it over REST). `agentTurnId` is null: an MCP call is not an agent turn (the audit row's channel and
   * correlation id say where it came from).
   */
  private fileProposal(access: AccessContext, patientId: string, dto: CreateProposalDto) {
    return this.proposals.createDraft(access, patientId, dto, null);
  }

  /** The row of a call governance refused before it reached the PHI path (never the client's tool name unless it is one of ours). */
  private async auditRefusal(access: AccessContext, session: SessionState, name: string, result: ToolRefusal): Promise<void> {
    const known = this.catalog().has(name as AgentToolName);
    const purpose = !known ? 'mcp.unknown_tool' : name === PROPOSE_ACTION ? 'proposal.draft' : (name as ToolName);
    const outcome = LIMIT_KINDS.has(result.error.kind) ? AuditOutcome.Denied : AuditOutcome.Invalid;
    await this.audited.audited(withPurpose(access, purpose), session.patientId, async () => ({ value: null, fields: [], rowCount: 0, outcome }));
  }
}

function sessionLimit(name: string, max: number): ToolRefusal {
  return refusal(name, 'session_call_limit', false, `At most ${max} tool calls per session; open a new session to go on.`);
}

/**
 * The MCP result: `structuredContent` is the envelope (or the refusal) as it is; the text is the
 * model's compact rendering (constant columns said once, inside a data boundary). A refusal is
 * `isError` with a kind, and for a fault the exception's type: never its message.
 */
export function asToolResult(result: object): CallToolResult {
  return {
    content: [{ type: 'text', text: renderForModel(result as Parameters<typeof renderForModel>[0]) }],
    structuredContent: result as Record<string, unknown>,
    ...(isRefusal(result) ? { isError: true } : {}),
  };
}
