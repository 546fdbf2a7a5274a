import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REVIEW_PAGE_FILES } from '../../src/approvals/review-page/review-page.controller';

/**
 * The front door, as a new user meets it: the compiled service (`npm start` runs `dist/src/main.js`,
 * building it first when it is stale; the e2e tier's setup does the same).
 */
const MAIN = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
const baseEnv = { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info' };

/** The port the service says it listens on, from its log `lines` as they arrive; rejects if it exits first. */
function listeningPort(child: ChildProcess, lines: string[]): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const listening = lines.find((line) => line.includes('Vigil is listening'));
      if (listening) {
        clearInterval(timer);
        resolve(JSON.parse(listening).port);
      }
    }, 100);
    child.on('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`service exited with ${code}: ${lines.join('\n')}`));
    });
  });
}

describe('starting the service', () => {
  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error('dist/src/main.js is missing: run `npm run build` (npm test does it first)');
  });

  it('fails on bad configuration, naming each bad variable and no value', () => {
    const result = spawnSync(process.execPath, [MAIN], {
      env: { ...baseEnv, PORT: 'eighty', REDIS_URL: 'localhost:6379', DATABASE_URL: 'mysql://root:hunter2@db/x' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/Invalid configuration/);
    for (const name of ['PORT', 'REDIS_URL', 'DATABASE_URL']) expect(result.stderr).toMatch(new RegExp(`- ${name}:`));
    expect(result.stderr + result.stdout).not.toContain('hunter2');
  });

  it('refuses to start in production on the embedded database (fixture staff) or with a plain-http JWKS, unless told to', () => {
    const production = { ...baseEnv, NODE_ENV: 'production', AUTH_JWKS_URL: 'http://idp.example.org/jwks' };
    const result = spawnSync(process.execPath, [MAIN], { env: production, encoding: 'utf8', timeout: 30_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/- DATABASE_URL: required in production/);
    expect(result.stderr).toMatch(/- AUTH_JWKS_URL: must be an https URL in production/);
    expect(result.stdout).not.toMatch(/embedded/);
  });

  it('stops when `npm start` is stopped: the script execs the service, so npm\'s forwarded SIGTERM reaches it', async () => {
    // Without `exec`, npm's shell stays between them: SIGTERM to npm ended the shell and left the
    // service running, orphaned, on its port.
    const npm = spawn('npm', ['run', 'start', '--ignore-scripts', '--silent'], {
      cwd: join(__dirname, '..', '..'),
      env: { ...baseEnv, HOME: process.env.HOME ?? '', PORT: '0', HOST: '127.0.0.1', EMBEDDED_DATABASE_DIR: 'memory://' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    npm.stdout?.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    const port = await listeningPort(npm, lines);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    const exited = new Promise((resolve) => npm.once('exit', resolve));
    npm.kill('SIGTERM');
    await exited;
    // The service stops with npm: within a few seconds nothing answers on its port.
    let answering = true;
    for (let i = 0; i < 50 && answering; i += 1) {
      answering = await fetch(`http://127.0.0.1:${port}/health`).then(() => true, () => false);
      if (answering) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(answering).toBe(false);
  }, 120_000);

  describe('with no DATABASE_URL', () => {
    let child: ChildProcess;
    const output: string[] = [];
    let port: number;

    beforeAll(async () => {
      child = spawn(process.execPath, [MAIN], {
        env: { ...baseEnv, PORT: '0', HOST: '127.0.0.1', EMBEDDED_DATABASE_DIR: 'memory://' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
      child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
      port = await listeningPort(child, output);
    }, 120_000);

    afterAll(async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    });

    it('says first that it runs the embedded database with the fixture cohort', () => {
      expect(JSON.parse(output[0]).msg).toMatch(/No DATABASE_URL set: starting the embedded Postgres/);
    });

    it('says in one line where it listens, where the API docs are and how to get a token', () => {
      const listening = output.filter((line) => line.includes('Vigil is listening')).map((line) => JSON.parse(line) as { msg: string; docs: string; token: string });
      const origin = `http://localhost:${port}`;
      expect(listening).toEqual([
        expect.objectContaining({
          msg: `Vigil is listening on ${origin}; API docs at ${origin}/docs; a development token: npm run -s token -- dr.okafor (fixtures/README.md lists the users)`,
          docs: `${origin}/docs`,
          token: 'npm run -s token -- dr.okafor',
        }),
      ]);
    });

    it('prints no line per module, controller or route at the default level (Nest logs those at debug)', () => {
      const contexts = output.map((line) => (line.startsWith('{') ? (JSON.parse(line) as { context?: string }).context : undefined));
      expect(contexts.filter((context) => ['InstanceLoader', 'RoutesResolver', 'RouterExplorer'].includes(context ?? ''))).toEqual([]);
      expect(contexts).toContain('NestApplication');
    });

    it('prints the port it listens on and answers /health', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      expect(res.status).toBe(200);
    });

    it('serves the OpenAPI document and its UI on /docs', async () => {
      const json = (await (await fetch(`http://127.0.0.1:${port}/docs-json`)).json()) as { openapi: string; paths: object };
      expect(json.openapi).toMatch(/^3\./);
      expect(Object.keys(json.paths)).toEqual(expect.arrayContaining(['/health', '/health/ready']));
      const html = await (await fetch(`http://127.0.0.1:${port}/docs`)).text();
      expect(html).toContain('swagger-ui');
    });

    it('serves the review page and its files from dist (copied there as nest-cli assets)', async () => {
      const page = await fetch(`http://127.0.0.1:${port}/review`);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await page.text()).toContain('/review/review.js');
      for (const [file, type] of Object.entries(REVIEW_PAGE_FILES)) {
        const res = await fetch(`http://127.0.0.1:${port}/review/${file}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe(type);
      }
    });

    it('reports the embedded database in readiness', async () => {
      const body = (await (await fetch(`http://127.0.0.1:${port}/health/ready`)).json()) as { checks: { database: object } };
      expect(body.checks.database).toMatchObject({ status: 'up', embedded: true });
    });

    it('stops cleanly on SIGTERM', async () => {
      const exited = new Promise<[number | null, string | null]>((resolve) => child.once('exit', (...result) => resolve(result)));
      child.kill('SIGTERM');
      // Nest closes the app, then re-raises the signal: a clean stop ends by SIGTERM, a crash by exit code 1.
      expect(await exited).toEqual([null, 'SIGTERM']);
    });
  });
});
