import { Injectable } from '@nestjs/common';
import { ErrorCode, JSONRPCErrorResponse, JSONRPCRequest, JSONRPCResultResponse, McpError } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AccessContext } from '../access/access-context';
import { auditOutcomeOf, AuditedAccess, wasAudited } from '../access/audited-access.service';
import { AuditChannel, AuditOutcome } from '../audit';
import { PatientSearchService } from '../patients/patient-search.service';
import { ToolName } from '../tools/tool-names';
import { ToolReadService } from '../tools/tool-read.service';
import { BoundSession, McpSession, McpSessionRepository } from './mcp-session.repository';
import { McpRequestContext } from './mcp-tool-calls';
import { sessionNotFound } from './mcp.problems';
import { ELICITATION_METHOD, notChosenMessage, PICKER_MAX_PATIENTS, pickerAnswer, patientForm } from './patient-picker';

/** How often a request waiting for the person's choice looks at the session row (the answer may reach any process). */
const POLL_MS = 200;
/** How long a form is waited for; clients usually give up on the request sooner. */
const ANSWER_WAIT_MS = 5 * 60_000;

/** Sends one request to the client on the stream of the request being answered. */
export type SendToClient = (message: JSONRPCRequest) => Promise<void>;

/**
 * The patient of a session opened without one, chosen by its person: a form (MCP elicitation) the
 * client shows them, listing their care teams' patients as their own role's projection shows them.
 * The request that needs the patient sends the form and waits; the answer is a separate POST that
 * may reach any API process, so it is read there (`answer`) and meets the waiting request in the
 * session row. Only an answer to a form the session sent can bind the patient, and only while none
 * is bound: a tool call has no way to name or change it. Every step is audited: the list shown
 * (`mcp.patient_picker`, one row per patient), a form that chose no one (the same action, `empty`),
 * and the choice (`mcp.session.open`, with the access check of opening a session on that patient).
 */
@Injectable()
export class McpPatientChoice {
  constructor(
    private readonly store: McpSessionRepository,
    private readonly search: PatientSearchService,
    private readonly phi: ToolReadService,
    private readonly audited: AuditedAccess,
  ) {}

  /**
   * The session's patient: bound already, or chosen now by the person through a form sent with
   * `send`. Rejects (a JSON-RPC error the client shows) when the form chose no one; the session
   * stays open without a patient, and the next request that needs one asks again.
   */
  async patientOf(session: McpSession, request: McpRequestContext, send: SendToClient, signal: AbortSignal): Promise<BoundSession> {
    const now = await this.store.patientOffer(session.id, '');
    if (!now) throw sessionNotFound();
    if (now.patientId) return { ...session, patientId: now.patientId, tools: now.tools };
    const listed = await this.search.teamPatients(this.accessOf(session, request, 'mcp.patient_picker'), PICKER_MAX_PATIENTS);
    if (listed.ids.length === 0) throw new McpError(ErrorCode.InvalidRequest, 'None of your care teams has a patient to choose; this session reads no one.');
    const requestId = `vigil-patient-${randomUUID()}`;
    if (!(await this.store.offerPatients(session.id, requestId, listed.ids))) return this.settled(session, requestId);
    await send({ jsonrpc: '2.0', id: requestId, method: ELICITATION_METHOD, params: patientForm(listed.patients, listed.truncated, session.protocolVersion) });
    const deadline = Date.now() + ANSWER_WAIT_MS;
    while (Date.now() < deadline) {
      await sleep(POLL_MS, undefined, { signal });
      const state = await this.store.patientOffer(session.id, requestId);
      if (!state) throw sessionNotFound();
      if (state.patientId) return { ...session, patientId: state.patientId, tools: state.tools };
      if (state.offer?.answer) throw new McpError(ErrorCode.InvalidRequest, notChosenMessage(state.offer.answer));
    }
    await this.store.answerOffer(session.id, requestId, 'timeout');
    throw new McpError(ErrorCode.InvalidRequest, notChosenMessage('timeout'));
  }

  /**
   * A client's answer to a form (a JSON-RPC response), on whichever process it arrives. Anything
   * but the answer to an open form of this session changes nothing: an unknown id, a form already
   * answered, a session whose patient is bound.
   */
  async answer(session: McpSession, request: McpRequestContext, message: JSONRPCResultResponse | JSONRPCErrorResponse): Promise<void> {
    const requestId = String(message.id);
    const state = await this.store.patientOffer(session.id, requestId);
    if (!state?.offer || state.patientId || state.offer.answer) return;
    const answer = pickerAnswer(message, state.offer.patientIds.length);
    if ('ended' in answer) {
      await this.store.answerOffer(session.id, requestId, answer.ended);
      const outcome = answer.ended === 'invalid' ? AuditOutcome.Invalid : AuditOutcome.Empty;
      await this.audited.audited(this.accessOf(session, request, 'mcp.patient_picker'), null, async () => ({ value: null, fields: [`answer:${answer.ended}`], rowCount: 0, outcome }));
      return;
    }
    const patientId = state.offer.patientIds[answer.index];
    // The check of opening a session on this patient's URL, now: the patient may have left the person's teams since the list.
    const opening = { ...this.accessOf(session, request, 'mcp.session.open'), projectionRole: 'agent' as const };
    let tools: ToolName[];
    try {
      ({ tools } = await this.phi.availableTools(opening, patientId));
    } catch (error) {
      const outcome = auditOutcomeOf(error);
      await this.store.answerOffer(session.id, requestId, outcome === AuditOutcome.NotFound || outcome === AuditOutcome.Denied ? 'refused' : 'failed');
      // Audited as the opening's refusal; the request waiting on the form tells the person why.
      if (wasAudited(error)) return;
      throw error;
    }
    // False when another answer bound the patient first: the first choice stands.
    await this.store.bindPatient(session.id, requestId, patientId, tools);
  }

  /** A form that could not be recorded: the session got its patient meanwhile, or ended. */
  private async settled(session: McpSession, requestId: string): Promise<BoundSession> {
    const state = await this.store.patientOffer(session.id, requestId);
    if (!state?.patientId) throw sessionNotFound();
    return { ...session, patientId: state.patientId, tools: state.tools };
  }

  /** The picker's reads are the person's own (their role's projection), on the MCP channel, in the session. */
  private accessOf(session: McpSession, request: McpRequestContext, purpose: string): AccessContext {
    return {
      caller: request.caller,
      actorName: null,
      purpose,
      projectionRole: request.caller.role,
      breakGlassReason: null,
      channel: AuditChannel.Mcp,
      correlationId: request.correlationId,
      sessionId: session.id,
    };
  }
}
