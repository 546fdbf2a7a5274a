import { HttpStatus, Injectable } from '@nestjs/common';
import { InitializeRequest, isInitializeRequest, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { AccessContext } from '../access/access-context';
import { AuditChannel } from '../audit';
import { Caller } from '../auth/caller';
import { ProblemException } from '../common/http/problem';
import { refuseWhatTheTransportWould } from './mcp-http-refusals';
import { McpSession, McpSessions } from './mcp-sessions';
import { McpRequestContext } from './mcp-tool-calls';

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
   * the request's correlation id and its break-glass header, validated as REST validates it); any
   * other message goes to the caller's open session, on whichever process it was opened.
   */
  async post(request: Request, response: Response, rest: AccessContext, patientId: string): Promise<void> {
    const body: unknown = request.body;
    refuseWhatTheTransportWould(request, body);
    const caller = rest.caller as Caller;
    const sessionId = request.get(SESSION_HEADER);
    let session: McpSession;
    if (sessionId === undefined) {
      if (!isInitializeRequest(body)) throw sessionRequired();
      const access: AccessContext = { ...rest, purpose: 'mcp.session.open', projectionRole: 'agent', channel: AuditChannel.Mcp };
      session = await this.sessions.open(access, patientId, negotiatedVersion(body));
      response.setHeader(SESSION_HEADER, session.id);
    } else {
      if (isInitializeRequest(body)) throw alreadyInitialized();
      session = await this.sessions.find(sessionId, caller, patientId);
      const version = request.get(PROTOCOL_HEADER);
      if (version !== undefined && version !== session.protocolVersion) throw otherProtocolVersion(session.protocolVersion);
    }
    await this.sessions.serve(session, withCaller(request, caller), response, body);
  }

  /** Ends the caller's session for every process (MCP's DELETE); another user's or an unknown session is a 404. */
  async delete(request: Request, response: Response, caller: Caller, patientId: string): Promise<void> {
    const sessionId = request.get(SESSION_HEADER);
    if (sessionId === undefined) throw sessionRequired();
    await this.sessions.end(sessionId, caller, patientId);
    response.status(HttpStatus.OK).end();
  }
}

/** Hands this request's caller and correlation id to the session's handlers (the SDK passes `req.auth` through as `authInfo`). */
function withCaller(request: Request, caller: Caller): Request {
  const vigil: McpRequestContext = { caller, correlationId: (request as Request & { id?: string }).id ?? null };
  const expiresAt = caller.tokenExpiresAt === undefined ? undefined : Math.floor(caller.tokenExpiresAt / 1000);
  Object.assign(request, { auth: { token: '', clientId: caller.userId, scopes: [], expiresAt, extra: { vigil } } });
  return request;
}
