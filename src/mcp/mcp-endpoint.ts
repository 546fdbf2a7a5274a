import { HttpStatus, Injectable } from '@nestjs/common';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { AccessContext } from '../access/access-context';
import { AuditChannel } from '../audit';
import { Caller } from '../auth/caller';
import { ProblemException } from '../common/http/problem';
import { McpSession, McpSessions } from './mcp-sessions';
import { McpRequestContext } from './mcp-tool-calls';

const SESSION_HEADER = 'mcp-session-id';

const sessionRequired = () =>
  new ProblemException(
    HttpStatus.BAD_REQUEST,
    'mcp_session_required',
    'Bad Request',
    'Open a session with an `initialize` request (without Mcp-Session-Id); every later request carries the Mcp-Session-Id it returned.',
    [{ field: SESSION_HEADER, reason: 'isDefined', message: `${SESSION_HEADER} is required after initialize` }],
  );

const notJsonRpc = () =>
  new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'The body must be one MCP JSON-RPC message.', [
    { field: 'body', reason: 'isJsonRpc', message: 'body must be a JSON-RPC 2.0 message' },
  ]);

function isJsonRpcMessage(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && (body as { jsonrpc?: unknown }).jsonrpc === '2.0';
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
   * other message goes to the caller's open session.
   */
  async post(request: Request, response: Response, rest: AccessContext, patientId: string): Promise<void> {
    const body: unknown = request.body;
    if (!isJsonRpcMessage(body)) throw notJsonRpc();
    const caller = rest.caller as Caller;
    const sessionId = request.get(SESSION_HEADER);
    let session: McpSession;
    if (sessionId === undefined) {
      if (!isInitializeRequest(body)) throw sessionRequired();
      const access: AccessContext = { ...rest, purpose: 'mcp.session.open', projectionRole: 'agent', channel: AuditChannel.Mcp };
      session = await this.sessions.open(access, patientId);
    } else {
      session = this.sessions.find(sessionId, caller, patientId);
    }
    await session.transport.handleRequest(withCaller(request, caller), response, body);
  }

  /** Ends the caller's session (MCP's DELETE); another user's or an unknown session is a 404. */
  async delete(request: Request, response: Response, caller: Caller, patientId: string): Promise<void> {
    const sessionId = request.get(SESSION_HEADER);
    if (sessionId === undefined) throw sessionRequired();
    const session = this.sessions.find(sessionId, caller, patientId);
    await session.transport.handleRequest(withCaller(request, caller), response);
    await this.sessions.close(session);
  }
}

/** Hands this request's caller and correlation id to the session's handlers (the SDK passes `req.auth` through as `authInfo`). */
function withCaller(request: Request, caller: Caller): Request {
  const vigil: McpRequestContext = { caller, correlationId: (request as Request & { id?: string }).id ?? null };
  const expiresAt = caller.tokenExpiresAt === undefined ? undefined : Math.floor(caller.tokenExpiresAt / 1000);
  Object.assign(request, { auth: { token: '', clientId: caller.userId, scopes: [], expiresAt, extra: { vigil } } });
  return request;
}
