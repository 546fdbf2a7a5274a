import 'reflect-metadata';
import { createServer } from 'node:http';
import { DataSource } from 'typeorm';
import { AuditService } from '../src/audit';
import { dataSourceOptions } from '../src/data-source';
import { TOOL_PATHS } from '../test/setup/tool-routes';
import { ToolName } from '../src/tools/tool-names';
import { floorRead, readerPool } from './tool-reads';

/**
 * The HTTP floor: bare node:http + pg, the same cohort statements as Vigil (`floorRead`), the rows
 * as JSON. The user comes in a plain header (`x-bench-user`): no token to verify, no validation,
 * no projection. Run as its own process by `npm run bench` (DATABASE_URL, PORT, DATABASE_POOL_SIZE).
 *
 * With `FLOOR_AUDIT=1` it is the floor plus the work the brief requires of every read: one audit
 * event in Vigil's `audit_events`, written durably by Vigil's own `AuditService` (a synchronous
 * commit on the trail's connection) before the answer, and fail closed: no rows leave when the write
 * fails. Without it, the bare floor: the physical limit.
 */

const TOOL_BY_PATH = new Map(Object.entries(TOOL_PATHS).map(([tool, path]) => [path, tool as ToolName]));
const ROUTE = /^\/patients\/([0-9a-f-]{36})\/([a-z-]+)(?:\?.*)?$/;
const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 10);

async function start(): Promise<void> {
  const audited = process.env.FLOOR_AUDIT === '1';
  // As in Vigil on a Postgres server: the reads on a reader pool, the audit on the service's pool and the trail's own connection beside it.
  const auditSource = audited ? new DataSource(dataSourceOptions({ url: process.env.DATABASE_URL as string, poolSize })) : null;
  if (auditSource) await auditSource.initialize();
  const pool = readerPool(process.env.DATABASE_URL as string, poolSize);
  const audit = auditSource ? new AuditService(auditSource, undefined, { url: process.env.DATABASE_URL as string, embedded: false }) : undefined;

  const server = createServer((request, response) => {
    if (request.url === '/health') return void response.writeHead(200).end('ok');
    const match = ROUTE.exec(request.url ?? '');
    const tool = match ? TOOL_BY_PATH.get(match[2]) : undefined;
    const username = request.headers['x-bench-user'];
    if (!match || !tool || typeof username !== 'string') return void response.writeHead(404).end();
    floorRead(pool, tool, { patientId: match[1], username }, audit).then(
      (body) => {
        if (!body) return void response.writeHead(404).end();
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      },
      // A failed read or audit write: nothing of the rows leaves.
      () => void response.writeHead(503).end(),
    );
  });
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      server.close();
      server.closeAllConnections();
      const closing = async () => {
        await audit?.onApplicationShutdown();
        if (auditSource) await auditSource.destroy();
        await pool.end();
      };
      void closing().finally(() => process.exit(0));
    });
  }
}

void start();
