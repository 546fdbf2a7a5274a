import { connect } from 'node:net';
import type { Server } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  raw: string;
}

/**
 * Writes bytes no HTTP client would send (Node's own client refuses them) to a listening server and
 * reads the reply until the server closes the connection.
 */
export function rawExchange(server: Server, bytes: Buffer): Promise<RawResponse> {
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the server must be listening');
  return new Promise((resolve, reject) => {
    const socket = connect(address.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(5000, () => socket.destroy(new Error('no reply within 5 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const [head, ...rest] = raw.split('\r\n\r\n');
      const [statusLine, ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(rest.join('\r\n\r\n')) as Record<string, unknown>;
      } catch {
        body = {};
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, raw });
    });
    socket.write(bytes);
  });
}
