import 'reflect-metadata';
import { createServer } from 'node:http';
import { Pool } from 'pg';
import { TOOL_PATHS } from '../test/setup/tool-routes';
import { ToolName } from '../src/tools/tool-names';
import { floorRead } from './tool-reads';

/**
 * The HTTP floor: bare node:http + pg, the same cohort statements as Vigil (`floorRead`), the rows
 * as JSON. The user comes in a plain header (`x-bench-user`): no token to verify, no validation,
 * no projection, no audit. Run as its own process by `npm run bench` (DATABASE_URL, PORT,
 * DATABASE_POOL_SIZE).
 */

const TOOL_BY_PATH = new Map(Object.entries(TOOL_PATHS).map(([tool, path]) => [path, tool as ToolName]));
const ROUTE = /^\/patients\/([0-9a-f-]{36})\/([a-z-]+)(?:\?.*)?$/;

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });

const server = createServer((request, response) => {
  if (request.url === '/health') return void response.writeHead(200).end('ok');
  const match = ROUTE.exec(request.url ?? '');
  const tool = match ? TOOL_BY_PATH.get(match[2]) : undefined;
  const username = request.headers['x-bench-user'];
  if (!match || !tool || typeof username !== 'string') return void response.writeHead(404).end();
  floorRead(pool, tool, { patientId: match[1], username }).then(
    (body) => {
      if (!body) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    },
    () => void response.writeHead(500).end(),
  );
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    server.closeAllConnections();
    void pool.end().finally(() => process.exit(0));
  });
}
