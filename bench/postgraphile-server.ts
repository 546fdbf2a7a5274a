import { createServer } from 'node:http';
import { Pool } from 'pg';
import { postgraphile } from 'postgraphile';

/**
 * The peer: PostGraphile 4 as a library on node:http over the same tables, production settings
 * (no GraphiQL, no watch, no query log, no introspection of comments needed), a pool of the same
 * size as Vigil's, and every request in a transaction as `vigil_reader` and read-only, as Vigil's
 * reads are. Run as its own process by `npm run bench` (DATABASE_URL, PORT, DATABASE_POOL_SIZE).
 */

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });

async function main(): Promise<void> {
  const middleware = postgraphile(pool, 'public', {
    graphiql: false,
    watchPg: false,
    disableQueryLog: true,
    enableQueryBatching: false,
    dynamicJson: true,
    setofFunctionsContainNulls: false,
    ignoreRBAC: false,
    retryOnInitFail: false,
    extendedErrors: [],
    showErrorStack: false,
    // Applied with set_config(…, true) in each request's transaction: SET LOCAL ROLE and READ ONLY.
    pgSettings: { role: 'vigil_reader', transaction_read_only: 'on' },
  });
  await middleware.getGraphQLSchema();
  const server = createServer((request, response) => {
    if (request.url === '/health') return void response.writeHead(200).end('ok');
    middleware(request, response);
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
}

main().catch((error: unknown) => {
  console.error(`postgraphile failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
