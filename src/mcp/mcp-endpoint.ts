import { HttpStatus, Injectable } from '@nestjs/common';
import { InitializeRequest, isInitializeRequest, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { AccessContext } from '../access/access-context';
import { AuditChannel } from '../audit';
import { Caller } from '../auth/caller';
import { ProblemException } from '../common/http/problem';
import { headerValue } from '../common/http/header-value';
import { refuseWhatTheTransportWould } from './mcp-http-refusals';
import { McpSession, McpSessions } from './mcp-sessions';
import { McpRequestContext } from './mcp-tool-calls';
import { elicitsForms } from './patient-picker';

const SESSION_HEADER = 'mcp-session-id';
const PROTOCOL_HEADER = 'mcp-protocol-version';

const sessionRequired = () =>
  new ProblemException(
    HttpStatus.BAD_REQUEST,
    'mcp_session_required',
    'Bad Request',
    'Open a session with an `initialize` request (without Mcp-Session-Id); every later request carries the Mcp-Session-Id it returned.',
    [{ field: SESSION_HEADER, reason: 'isDefined', message: `${SESSION_HEADER} is required after initialize` }],
  );

const otherProtocolVersion = (negotiated: string) =>
  new ProblemException(HttpStatus.BAD_REQUEST, 'mcp_protocol_version_mismatch', 'Bad Request', `This session speaks MCP ${negotiated}, settled at initialize; send that version or open a new session.`, [
    { field: PROTOCOL_HEADER, reason: 'equals', message: `${PROTOCOL_HEADER} must be the version initialize settled on` },
  ]);

const alreadyInitialized = () =>
  new ProblemException(HttpStatus.BAD_REQUEST, 'mcp_session_initialized', 'Bad Request', 'This session is already initialized; to start again, send initialize without Mcp-Session-Id.', [
    { field: SESSION_HEADER, reason: 'isEmpty', message: `initialize must not carry ${SESSION_HEADER}` },
  ]);

const patientRequired = () =>
  new ProblemException(
    HttpStatus.BAD_REQUEST,
    'mcp_patient_required',
    'Bad Request',
    'This client cannot show the person a form (it declared no elicitation capability), so the patient cannot be chosen in the session: open the session for one patient instead, on the URL /mcp/patients/<patient id> (the stdio bridge: --patient <patient id>).',
    [{ field: 'params.capabilities.elicitation', reason: 'isDefined', message: 'a session without a patient needs a client that shows forms (elicitation)' }],
  );

const breakGlassNeedsPatient = () =>
  new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'Break glass names its patient: open the session on /mcp/patients/<patient id> with the header.', [
    { field: 'x-break-glass-reason', reason: 'patientUrl', message: 'x-break-glass-reason is accepted only on a patient\'s URL' },
  ]);

/** The version the SDK's server answers `initialize` with (its rule, `Server._oninitialize`): the client's if supported, else the latest. */
function negotiatedVersion(initialize: InitializeRequest): string {
  const requested = initialize.params.protocolVersion;
  return SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/**
 * The Streamable HTTP endpoint of one patient's sessions: HTTP-level refusals as problem details
 * (no session, unknown session, not JSON-RPC), then the SDK's transport for everything MCP. The
 * caller comes from the global auth guard, as on every REST route.
 */
@Injectable()
export class McpEndpoint {
  constructor(private readonly sessions: McpSessions) {}

  /**
   * `initialize` opens a session after the same access check as REST (`access` carries the caller,
   * the request's correlation id and its break-glass header, validated as REST validates it), or,
   * on `/mcp` (`patientId` null), a session whose person will choose its patient; any other message
   * goes to the caller's open session on this URL, on whichever process it was opened.
   */
  async post(request: FastifyRequest, reply: FastifyReply, rest: AccessContext, patientId: string | null): Promise<void> {
    const body: unknown = request.body;
    refuseWhatTheTransportWould(request, body);
    const caller = rest.caller as Caller;
    const sessionId = headerValue(request, SESSION_HEADER);
    let session: McpSession;
    if (sessionId === undefined) {
      if (!isInitializeRequest(body)) throw sessionRequired();
      // Without a patient in the URL, the person chooses one in a form: their client must be able to show it.
      if (patientId === null && !elicitsForms(body.params.capabilities)) throw patientRequired();
      if (patientId === null && rest.breakGlassReason !== null) throw breakGlassNeedsPatient();
      const access: AccessContext = { ...rest, purpose: 'mcp.session.open', projectionRole: 'agent', channel: AuditChannel.Mcp };
      session = await this.sessions.open(access, patientId, negotiatedVersion(body));
      reply.raw.setHeader(SESSION_HEADER, session.id);
    } else {
      if (isInitializeRequest(body)) throw alreadyInitialized();
      session = await this.sessions.find(sessionId, caller, patientId);
      const version = headerValue(request, PROTOCOL_HEADER);
      if (version !== undefined && version !== session.protocolVersion) throw otherProtocolVersion(session.protocolVersion);
    }
    const context: McpRequestContext = { caller, correlationId: request.id };
    // The SDK's transport writes to the node response itself (a JSON answer, or an event stream).
    await this.sessions.serve(session, withContext(request.raw, context), reply.raw, body, context);
  }

  /** Ends the caller's session for every process (MCP's DELETE); another user's or an unknown session is a 404. */
  async delete(request: FastifyRequest, reply: FastifyReply, caller: Caller, patientId: string | null): Promise<void> {
    const sessionId = headerValue(request, SESSION_HEADER);
    if (sessionId === undefined) throw sessionRequired();
    await this.sessions.end(sessionId, caller, patientId);
    await reply.status(HttpStatus.OK).send();
  }
}

/** Hands this request's caller and correlation id to the session's handlers (the SDK passes `req.auth` through as `authInfo`). */
function withContext(request: IncomingMessage, vigil: McpRequestContext): IncomingMessage {
  const { caller } = vigil;
  const expiresAt = caller.tokenExpiresAt === undefined ? undefined : Math.floor(caller.tokenExpiresAt / 1000);
  Object.assign(request, { auth: { token: '', clientId: caller.userId, scopes: [], expiresAt, extra: { vigil } } });
  return request;
}
