import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { isUUID } from 'class-validator';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { AccessContext } from '../access/access-context';
import { Caller } from '../auth/caller';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { MeasureCatalogueService } from '../measure-packages';
import { ToolReadService } from '../tools/tool-read.service';
import { mcpTools, sessionInstructions } from './mcp-catalog';
import { McpPatientChoice } from './mcp-patient-choice';
import { MCP_RESOURCES, readResource } from './mcp-resources';
import { BoundSession, McpSession, McpSessionRepository, SessionLifetime } from './mcp-session.repository';
import { McpRequestContext, McpToolCalls } from './mcp-tool-calls';
import { sessionNotFound } from './mcp.problems';

export type { McpSession } from './mcp-session.repository';

type HandlerExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The requests whose answer depends on the session's patient: in a picker session, the first of them asks the person. */
const NEEDS_PATIENT = new Set(['tools/list', 'tools/call']);

/** The request context the transport hands each handler (`req.auth.extra`). */
function requestOf(extra: { authInfo?: { extra?: Record<string, unknown> } }): McpRequestContext {
  const context = extra.authInfo?.extra?.vigil as McpRequestContext | undefined;
  if (!context) throw new McpError(ErrorCode.InternalError, 'Request without a caller');
  return context;
}

/**
 * The MCP sessions of every API process. A session belongs to one person and one patient: the
 * patient's URL names it, after the same `patient.read` check as REST (one audited access,
 * `mcp.session.open`), or, on `/mcp`, the person chooses it in a form their client shows them
 * (`McpPatientChoice`), once for the session. It answers only that person (another person's token
 * gets the same 404 as an unknown session), with any valid token of theirs: a client that refreshes
 * its token keeps its session. It ends after MCP_SESSION_IDLE_MINUTES without a request, at the
 * latest MCP_SESSION_MAX_HOURS after it opened, or when its person DELETEs it. Sessions are rows in
 * Postgres (`mcp_sessions`), not objects in a process: each request is served by an SDK server and
 * transport built for it from the row, on whichever process receives it, and discarded when it is
 * answered.
 */
@Injectable()
export class McpSessions {
  private readonly logger = new Logger(McpSessions.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly phi: ToolReadService,
    private readonly calls: McpToolCalls,
    private readonly store: McpSessionRepository,
    private readonly choice: McpPatientChoice,
    private readonly measures: MeasureCatalogueService,
  ) {}

  /**
   * Stores a new session for every process: for `patientId` after deciding access (404 or 403
   * exactly as REST), or, with none, a picker session that reads no one until its person chooses.
   */
  async open(access: AccessContext, patientId: string | null, protocolVersion: string): Promise<McpSession> {
    const caller = access.caller as Caller;
    // The id is chosen now, so the audit row of the opening names the session it opened.
    const id = randomUUID();
    const tools = patientId === null ? [] : (await this.phi.availableTools({ ...access, sessionId: id }, patientId)).tools;
    const session = { id, userId: caller.userId, patientId, picker: patientId === null, breakGlassReason: access.breakGlassReason, protocolVersion, tools };
    const lifetime = this.lifetime();
    await this.store.create(session, this.config.mcp.maxSessionsPerUser, lifetime);
    // Ids only: never the patient's data.
    this.logger.log({ msg: 'mcp session opened', correlationId: access.correlationId, sessionId: id });
    return { ...session, expiresAt: new Date(Date.now() + lifetime.idleSeconds * 1000).toISOString() };
  }

  /** The person's live session on this URL (`patientId` null: `/mcp`), or the same 404 for an unknown, ended or someone else's session. */
  async find(sessionId: string, caller: Caller, patientId: string | null): Promise<McpSession> {
    const session = isUUID(sessionId, 4) ? await this.store.touch(sessionId, caller.userId, patientId, this.lifetime()) : undefined;
    if (!session) throw sessionNotFound();
    return session;
  }

  /** Ends the person's session on every process (MCP's DELETE); another person's or an unknown session is a 404. */
  async end(sessionId: string, caller: Caller, patientId: string | null): Promise<void> {
    const ended = isUUID(sessionId, 4) && (await this.store.delete(sessionId, caller.userId, patientId));
    if (!ended) throw sessionNotFound();
  }

  /**
   * Answers one MCP message of the session. The SDK's transport runs stateless (no session id of
   * its own): the session was found, bound to its person and URL, before this was called. A request
   * that needs a patient the person has not chosen yet is answered as an event stream, which first
   * carries the form; the client's answer to the form comes as a message of its own.
   */
  async serve(session: McpSession, request: IncomingMessage, response: ServerResponse, body: unknown, context: McpRequestContext): Promise<void> {
    if (session.picker && (isJSONRPCResultResponse(body) || isJSONRPCErrorResponse(body))) {
      await this.choice.answer(session, context, body);
      response.writeHead(HttpStatus.ACCEPTED).end();
      return;
    }
    const asksPerson = session.patientId === null && isJSONRPCRequest(body) && NEEDS_PATIENT.has(body.method);
    // One JSON answer per POST otherwise: no server-held streams, so nothing ties a session to a process.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !asksPerson });
    // A client that gives up on the request stops the wait for the person's choice.
    const hungUp = new AbortController();
    response.once('close', () => hungUp.abort());
    const bound = (extra: HandlerExtra): Promise<BoundSession> =>
      session.patientId !== null
        ? Promise.resolve(session as BoundSession)
        : this.choice.patientOf(session, requestOf(extra), (message) => transport.send(message, { relatedRequestId: extra.requestId }), hungUp.signal);
    const server = this.serverFor(session, bound);
    await server.connect(transport);
    try {
      await transport.handleRequest(request, response, body);
    } finally {
      await server.close().catch((error: unknown) => this.logger.warn({ msg: 'mcp server close failed', correlationId: context.correlationId, errorType: error instanceof Error ? error.constructor.name : typeof error }));
    }
  }

  private lifetime(): SessionLifetime {
    const { sessionIdleMinutes, sessionMaxHours, breakGlassSessionMinutes } = this.config.mcp;
    return { idleSeconds: sessionIdleMinutes * 60, maxSeconds: sessionMaxHours * 3600, breakGlassMaxSeconds: breakGlassSessionMinutes * 60 };
  }

  private serverFor(session: McpSession, bound: (extra: HandlerExtra) => Promise<BoundSession>): Server {
    const catalog = this.calls.catalog();
    const server = new Server(
      { name: 'vigil', version: '0.1.0' },
      { capabilities: { tools: {}, resources: {} }, instructions: sessionInstructions(catalog, session.patientId === null ? null : session.tools) },
    );
    server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => ({ tools: mcpTools(catalog, (await bound(extra)).tools) }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
      this.calls.call(await bound(extra), requestOf(extra), request.params.name, request.params.arguments),
    );
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: MCP_RESOURCES }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      const result = await readResource(request.params.uri, this.measures);
      if (!result) throw new McpError(ErrorCode.InvalidParams, 'No such resource; resources/list names every one.');
      return result;
    });
    return server;
  }
}
