import { HttpStatus, Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { AccessContext } from '../access/access-context';
import { CitationIndex } from '../model-tools/citation-index';
import { agentTools } from '../model-tools/tool-catalog';
import { Caller } from '../auth/caller';
import { ProblemException } from '../common/http/problem';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ToolReadService } from '../tools/tool-read.service';
import { mcpTools, sessionInstructions } from './mcp-catalog';
import { MCP_RESOURCES, readResource } from './mcp-resources';
import { McpRequestContext, McpToolCalls, SessionState } from './mcp-tool-calls';

/** A live session: its state, who opened it, until when, and the SDK's server and transport for it. */
export interface McpSession extends SessionState {
  userId: string;
  /** When the token that opened the session expires (ms since the epoch): the session ends then. */
  expiresAt: number;
  transport: StreamableHTTPServerTransport;
  server: Server;
  timer?: NodeJS.Timeout;
}

export const sessionNotFound = () =>
  new ProblemException(HttpStatus.NOT_FOUND, 'mcp_session_not_found', 'Not Found', 'No such MCP session for you and this patient (it may have ended); open a new one.');

/** The request context the transport hands each handler (`req.auth.extra`). */
function requestOf(extra: { authInfo?: { extra?: Record<string, unknown> } }): McpRequestContext {
  const context = extra.authInfo?.extra?.vigil as McpRequestContext | undefined;
  if (!context) throw new McpError(ErrorCode.InternalError, 'Request without a caller');
  return context;
}

/**
 * The MCP sessions of this process. A session is opened for one patient by one user, after the same
 * `patient.read` check as REST (one audited access, `mcp.session.open`); it answers only that user
 * (another user's token gets the same 404 as an unknown session) and ends when the token that opened
 * it expires. Sessions live in this process's memory: behind several API processes a client must be
 * routed back to the process that opened its session (or reopen one after a 404, as MCP asks).
 */
@Injectable()
export class McpSessions implements OnModuleDestroy {
  private readonly logger = new Logger(McpSessions.name);
  private readonly sessions = new Map<string, McpSession>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly phi: ToolReadService,
    private readonly calls: McpToolCalls,
  ) {}

  /**
   * Decides access for a new session (404 or 403 exactly as REST) and prepares its server; the
   * session exists once the transport has answered `initialize` (then `register` runs).
   */
  async open(access: AccessContext, patientId: string): Promise<McpSession> {
    const caller = access.caller as Caller;
    // The id is chosen now, so the audit row of the opening names the session it opened.
    const id = randomUUID();
    const { tools: available } = await this.phi.availableTools({ ...access, sessionId: id }, patientId);
    const catalog = agentTools((name) => this.phi.describeTool(name));
    const server = new Server(
      { name: 'vigil', version: '0.1.0' },
      { capabilities: { tools: {}, resources: {} }, instructions: sessionInstructions(catalog, available) },
    );
    const session: McpSession = {
      id,
      userId: caller.userId,
      patientId,
      breakGlassReason: access.breakGlassReason,
      // The guard always knows the token's expiry; were it unknown, the longest lifetime a token may have.
      expiresAt: caller.tokenExpiresAt ?? Date.now() + this.config.auth.maxTokenLifetimeSeconds * 1000,
      governance: { turnId: '', patientId, catalog, citations: new CitationIndex(), failedCalls: new Set(), callsPerTool: new Map(), proposals: [], toolCalls: [], rowsRead: 0 },
      calls: 0,
      server,
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        // One JSON answer per POST: no server-held streams to keep open or to end at token expiry.
        enableJsonResponse: true,
        onsessioninitialized: (id) => this.register(session, id),
        onsessionclosed: (id) => this.forget(id),
      }),
    };
    const tools = mcpTools(catalog, available);
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => this.calls.call(session, requestOf(extra), request.params.name, request.params.arguments));
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: MCP_RESOURCES }));
    server.setRequestHandler(ReadResourceRequestSchema, (request) => {
      const result = readResource(request.params.uri);
      if (!result) throw new McpError(ErrorCode.InvalidParams, 'No such resource; resources/list names every one.');
      return result;
    });
    await server.connect(session.transport);
    return session;
  }

  /** The caller's session for this patient, or the same 404 for an unknown, ended or someone else's session. */
  find(sessionId: string, caller: Caller, patientId: string): McpSession {
    const session = this.sessions.get(sessionId);
    if (!session || session.userId !== caller.userId || session.patientId !== patientId) throw sessionNotFound();
    if (Date.now() >= session.expiresAt) {
      void this.close(session);
      throw sessionNotFound();
    }
    return session;
  }

  async close(session: McpSession): Promise<void> {
    this.forget(session.id);
    await session.server.close().catch((error: unknown) => this.logger.warn({ msg: 'mcp session close failed', errorType: error instanceof Error ? error.constructor.name : typeof error }));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => this.close(session)));
  }

  private register(session: McpSession, id: string): void {
    session.id = id;
    this.sessions.set(id, session);
    // The session ends with the token that opened it: a later token must open a new session.
    session.timer = setTimeout(() => void this.close(session), Math.max(0, session.expiresAt - Date.now()));
    session.timer.unref();
    const mine = [...this.sessions.values()].filter((other) => other.userId === session.userId);
    if (mine.length > this.config.mcp.maxSessionsPerUser) void this.close(mine[0]);
    // Ids only: never the patient's data.
    this.logger.log({ msg: 'mcp session opened', sessionId: id, open: this.sessions.size });
  }

  private forget(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    clearTimeout(session.timer);
    this.sessions.delete(id);
  }
}
