import { Inject, Injectable, Logger } from '@nestjs/common';
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
import { isUUID } from 'class-validator';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { AccessContext } from '../access/access-context';
import { Caller } from '../auth/caller';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ToolReadService } from '../tools/tool-read.service';
import { mcpTools, sessionInstructions } from './mcp-catalog';
import { MCP_RESOURCES, readResource } from './mcp-resources';
import { McpSession, McpSessionRepository } from './mcp-session.repository';
import { McpRequestContext, McpToolCalls } from './mcp-tool-calls';
import { sessionNotFound } from './mcp.problems';

export type { McpSession } from './mcp-session.repository';

/** The request context the transport hands each handler (`req.auth.extra`). */
function requestOf(extra: { authInfo?: { extra?: Record<string, unknown> } }): McpRequestContext {
  const context = extra.authInfo?.extra?.vigil as McpRequestContext | undefined;
  if (!context) throw new McpError(ErrorCode.InternalError, 'Request without a caller');
  return context;
}

/**
 * The MCP sessions of every API process. A session is opened for one patient by one user, after the
 * same `patient.read` check as REST (one audited access, `mcp.session.open`); it answers only that
 * user (another user's token gets the same 404 as an unknown session) and ends when the token that
 * opened it expires or its user DELETEs it. Sessions are rows in Postgres (`mcp_sessions`), not
 * objects in a process: each request is served by an SDK server and transport built for it from the
 * row, on whichever process receives it, and discarded when it is answered.
 */
@Injectable()
export class McpSessions {
  private readonly logger = new Logger(McpSessions.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly phi: ToolReadService,
    private readonly calls: McpToolCalls,
    private readonly store: McpSessionRepository,
  ) {}

  /** Decides access for a new session (404 or 403 exactly as REST), then stores it for every process. */
  async open(access: AccessContext, patientId: string, protocolVersion: string): Promise<McpSession> {
    const caller = access.caller as Caller;
    // The id is chosen now, so the audit row of the opening names the session it opened.
    const id = randomUUID();
    const { tools } = await this.phi.availableTools({ ...access, sessionId: id }, patientId);
    // The guard always knows the token's expiry; were it unknown, the longest lifetime a token may have.
    const expiresAt = caller.tokenExpiresAt ?? Date.now() + this.config.auth.maxTokenLifetimeSeconds * 1000;
    const session: McpSession = { id, userId: caller.userId, patientId, breakGlassReason: access.breakGlassReason, protocolVersion, tools, expiresAt: new Date(expiresAt).toISOString() };
    await this.store.create(session, this.config.mcp.maxSessionsPerUser);
    // Ids only: never the patient's data.
    this.logger.log({ msg: 'mcp session opened', sessionId: id });
    return session;
  }

  /** The caller's live session for this patient, or the same 404 for an unknown, ended or someone else's session. */
  async find(sessionId: string, caller: Caller, patientId: string): Promise<McpSession> {
    const session = isUUID(sessionId, 4) ? await this.store.touch(sessionId, caller.userId, patientId) : undefined;
    if (!session) throw sessionNotFound();
    return session;
  }

  /** Ends the caller's session on every process (MCP's DELETE); another user's or an unknown session is a 404. */
  async end(sessionId: string, caller: Caller, patientId: string): Promise<void> {
    const ended = isUUID(sessionId, 4) && (await this.store.delete(sessionId, caller.userId, patientId));
    if (!ended) throw sessionNotFound();
  }

  /**
   * Answers one MCP message of the session. The SDK's transport runs stateless (no session id of
   * its own): the session was found, bound to its user and patient, before this was called.
   */
  async serve(session: McpSession, request: Request, response: Response, body: unknown): Promise<void> {
    const server = this.serverFor(session);
    // One JSON answer per POST: no server-held streams, so nothing ties a session to a process.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      await transport.handleRequest(request, response, body);
    } finally {
      await server.close().catch((error: unknown) => this.logger.warn({ msg: 'mcp server close failed', errorType: error instanceof Error ? error.constructor.name : typeof error }));
    }
  }

  private serverFor(session: McpSession): Server {
    const catalog = this.calls.catalog();
    const server = new Server(
      { name: 'vigil', version: '0.1.0' },
      { capabilities: { tools: {}, resources: {} }, instructions: sessionInstructions(catalog, session.tools) },
    );
    const tools = mcpTools(catalog, session.tools);
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => this.calls.call(session, requestOf(extra), request.params.name, request.params.arguments));
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: MCP_RESOURCES }));
    server.setRequestHandler(ReadResourceRequestSchema, (request) => {
      const result = readResource(request.params.uri);
      if (!result) throw new McpError(ErrorCode.InvalidParams, 'No such resource; resources/list names every one.');
      return result;
    });
    return server;
  }
}
