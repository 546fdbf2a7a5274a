import { HttpStatus } from '@nestjs/common';
import { isInitializeRequest, JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyRequest } from 'fastify';
import { headerValue } from '../common/http/header-value';
import { ProblemException } from '../common/http/problem';

const PROTOCOL_VERSION_HEADER = 'mcp-protocol-version';

/**
 * The HTTP-level refusals the SDK's transport would otherwise write straight to the response (a
 * JSON-RPC error that no exception carries, so the audit of refused requests could not see it),
 * raised first as problems, before a session is looked up or opened: each is then one audited
 * refusal of the route (`mcp.session`), like any other invalid input. The transport's own checks
 * stay behind these as a second line.
 */
export function refuseWhatTheTransportWould(request: FastifyRequest, body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !JSONRPCMessageSchema.safeParse(body).success) {
    throw new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'The body must be one MCP JSON-RPC message.', [
      { field: 'body', reason: 'isJsonRpc', message: 'body must be a JSON-RPC 2.0 message' },
    ]);
  }
  const accept = headerValue(request, 'accept') ?? '';
  // The transport's own test: Streamable HTTP asks clients to accept both types, in any order.
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    throw new ProblemException(HttpStatus.NOT_ACCEPTABLE, 'not_acceptable', 'Not Acceptable', 'MCP clients must accept both `application/json` and `text/event-stream`.');
  }
  // `initialize` settles the version in its body; every later message may name it in the header.
  const version = headerValue(request, PROTOCOL_VERSION_HEADER);
  if (!isInitializeRequest(body) && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    throw new ProblemException(HttpStatus.BAD_REQUEST, 'mcp_protocol_version_unsupported', 'Bad Request', `Mcp-Protocol-Version must be one of ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`, [
      { field: PROTOCOL_VERSION_HEADER, reason: 'isIn', message: `${PROTOCOL_VERSION_HEADER} must be a protocol version this server speaks` },
    ]);
  }
}
