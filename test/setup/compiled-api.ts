import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateDevKey } from '../../src/auth/dev-signing-key';
import { mintDevToken } from '../../src/auth/token.service';
import { TEST_REDIS_URL } from './redis';

/** The compiled service's entry point, as `npm start` runs it. */
export const COMPILED_MAIN = join(__dirname, '..', '..', 'dist', 'src', 'main.js');

/** A compiled API process a test started: its base URL, every line it wrote (stdout and stderr), and tokens its dev key signs. */
export interface CompiledApi {
  child: ChildProcess;
  base: string;
  output: string[];
  tokenFor(username: string): Promise<string>;
}

/**
 * Starts the compiled API (`dist/src/main.js`, as `npm start` does) on `databaseUrl` and the test
 * Redis, with a dev signing key, a pseudonym key and queue and rate-limit prefixes of its own (named
 * after `name`), `env` on top; `nodeArgs` go before the entry point (a `--require` preload). Resolves
 * once it says it listens; rejects, with what it wrote, if it exits first or does not listen within a minute.
 */
export async function startCompiledApi(options: { name: string; databaseUrl: string; env?: Record<string, string>; nodeArgs?: string[] }): Promise<CompiledApi> {
  if (!existsSync(COMPILED_MAIN)) throw new Error('dist/src/main.js is missing: run `npm run build` (npm test does it first)');
  const folder = mkdtempSync(join(tmpdir(), `vigil-${options.name}-`));
  const key = loadOrCreateDevKey(join(folder, 'dev-signing-key'));
  const output: string[] = [];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), COMPILED_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      AUTH_DEV_KEY_FILE: join(folder, 'dev-signing-key'),
      PSEUDONYM_KEY_FILE: join(folder, 'pseudonym-key'),
      QUEUE_PREFIX: `vigil-test-${options.name}-${process.pid}`,
      RATE_LIMIT_KEY_PREFIX: `vigil-test-${options.name}-${process.pid}`,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  for (let waited = 0; waited < 60_000 && child.exitCode === null; waited += 100) {
    const listening = output.find((line) => line.includes('Vigil is listening'));
    if (listening) {
      const base = `http://127.0.0.1:${(JSON.parse(listening) as { port: number }).port}`;
      return { child, base, output, tokenFor: (username) => mintDevToken(key, username, { issuer: 'vigil-dev', audience: 'vigil' }) };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the service did not start: ${output.join('\n')}`);
}
