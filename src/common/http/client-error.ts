import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { CORRELATION_HEADER } from '../logging/logger';
import { PROBLEM_CONTENT_TYPE, problemType } from './problem';

/** Node's parser codes that have a status of their own; every other parse failure is a 400. */
const STATUS_BY_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_INVALID_METHOD: 501,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

const logger = new Logger('HttpClientError');

/**
 * Requests Node's HTTP parser refuses (headers over the size limit, NUL, bare LF or obs-fold in a
 * header, NUL or 0xFF in the URL, both Content-Length and Transfer-Encoding, an unknown method) never
 * reach Fastify, and by default get its own JSON body. Here they get a minimal problem written
 * straight to the socket: a fresh correlation id, no stack, and nothing of the input echoed.
 * Fastify's `clientErrorHandler`.
 */
export function answerClientErrorWithProblem(error: NodeJS.ErrnoException, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const status = STATUS_BY_CODE[error.code ?? ''] ?? 400;
  const title = STATUS_CODES[status] ?? 'Bad Request';
  const code = title.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  const correlationId = randomUUID();
  const body = JSON.stringify({
    type: problemType(code),
    title,
    status,
    code,
    detail: 'The request could not be parsed as HTTP/1.1 within the server limits.',
    correlationId,
  });
  logger.warn({ parserCode: error.code ?? 'unknown', status, correlationId }, 'request refused by the HTTP parser');
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `${CORRELATION_HEADER}: ${correlationId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
