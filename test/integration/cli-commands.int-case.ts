import { INestApplicationContext } from '@nestjs/common';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { operatingSystemUser } from '../../src/cli/cli-audit';
import { COMMANDS } from '../../src/cli/commands';
import { createRootLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/load-config';
import { createWorker } from '../../src/worker';
import { isolatedFileEnv } from '../setup/audit-seal';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { describeWithRedis, TEST_REDIS_URL } from '../setup/redis';
import { TEST_ADMIN_URL } from '../setup/test-database';

const CLI = join(__dirname, '..', '..', 'dist', 'src', 'cli', 'main.js');
const PATIENT = patientIdOf('diabetes-a1c-stale');

describe('CLI commands', () => {
  const database = useSeededDatabase();
  const run = async (name: string, args: string[] = []) => {
    const lines: string[] = [];
    const code = await COMMANDS[name].run(database().dataSource, args, (line) => lines.push(line));
    return { code, output: lines.join('\n') };
  };

  it('migrate: nothing pending on a migrated database', async () => {
    expect(await run('migrate')).toEqual({ code: 0, output: 'Schema is up to date.' });
  });

  it('schema-check: entities and migrations agree', async () => {
    expect(await run('schema-check')).toEqual({ code: 0, output: 'Entities and migrations agree.' });
  });

  it('schema-check: names the DDL of a missing migration and fails', async () => {
    await database().dataSource.query(`DROP INDEX "IDX_observations_code"`);
    const result = await run('schema-check');
    expect(result.code).toBe(1);
    expect(result.output).toContain('CREATE INDEX "IDX_observations_code"');
    await database().dataSource.query(`CREATE INDEX "IDX_observations_code" ON "observations" ("code_system", "code")`);
  });

  it('seed: loads again safely and reports the anchor and counts', async () => {
    const result = await run('seed', ['--anchor', '2026-06-30']);
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/anchor 2026-06-30.*patients=\d+/);
  });

  it('seed: refuses --anchor without a date', async () => {
    expect((await run('seed', ['--anchor'])).code).toBe(2);
  });

  it('revert: refuses to drop the schema without --all', async () => {
    expect(await run('revert')).toEqual({ code: 2, output: 'Refusing to drop the schema without --all.' });
  });

  it('audits the commands that write or drop PHI as the operating-system user who ran them (channel cli), one row per run', async () => {
    const rows = () =>
      database().dataSource.query(
        `SELECT action, outcome, channel, actor_id AS "actorId", actor_role AS "actorRole", actor_name AS "actorName", patient_id AS "patientId", correlation_id AS "correlationId"
         FROM audit_events WHERE channel = 'cli' ORDER BY id`,
      );
    const before = (await rows()).length;
    await run('seed', ['--anchor', '2026-06-30']);
    await run('seed', ['--anchor']);
    await run('revert');
    await run('import-fhir', ['--care-team']);
    const added = (await rows()).slice(before);
    const who = { channel: 'cli', actorId: null, actorRole: 'cli', actorName: operatingSystemUser(), patientId: null, correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/) };
    expect(added).toEqual([
      { ...who, action: 'cli.seed', outcome: 'success' },
      { ...who, action: 'cli.seed', outcome: 'invalid' },
      { ...who, action: 'cli.revert', outcome: 'invalid' },
      { ...who, action: 'cli.import_fhir', outcome: 'invalid' },
    ]);
    expect(operatingSystemUser()).not.toBe('');
  });

  describe('measures-recompute --wait', () => {
    it('gives up when no worker moves the run for --timeout seconds: exit 1, saying to start `npm run worker`; the run stays recorded', async () => {
      const started = Date.now();
      const result = await run('measures-recompute', ['--patients', PATIENT, '--wait', '--timeout', '1']);
      expect(result.code).toBe(1);
      expect(result.output).toMatch(/waiting for a worker to plan it\nRun (\d+) has not moved in 1 s: no worker is working on it\. Start one with `npm run worker`/);
      expect(Date.now() - started).toBeLessThan(10_000);
      const runId = /Run (\d+) has not moved/.exec(result.output)?.[1];
      const [row] = await database().dataSource.query(`SELECT finished_at FROM measure_runs WHERE id = $1`, [runId]);
      expect(row).toEqual({ finished_at: null });
    });

    it.each([
      ['a timeout of 0', ['--wait', '--timeout', '0']],
      ['a timeout that is not a number', ['--wait', '--timeout', 'soon']],
      ['a timeout without its value', ['--wait', '--timeout']],
      ['a timeout without --wait', ['--timeout', '5']],
    ])('refuses %s (exit 2) and records no run', async (_what, args) => {
      const runs = async () => (await database().dataSource.query(`SELECT count(*)::int AS n FROM measure_runs`))[0].n as number;
      const before = await runs();
      const result = await run('measures-recompute', args);
      expect(result.code).toBe(2);
      expect(result.output).toMatch(/--timeout/);
      expect(await runs()).toBe(before);
    });
  });

  describeWithRedis('measures-recompute --wait with a worker running', () => {
    let worker: INestApplicationContext;
    beforeAll(async () => {
      const env = { NODE_ENV: 'test', DATABASE_URL: database().url, REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: `vigil-test-cli-${randomBytes(4).toString('hex')}`, ...isolatedFileEnv('vigil-cli-') };
      worker = await createWorker({
        config: loadConfig(env),
        database: { url: database().url, poolSize: 4, embedded: false },
        logger: createRootLogger('silent'),
        measures: { relayIntervalMs: 100, sweepIntervalMs: 600_000 },
      });
    });
    afterAll(() => worker?.close());

    it('follows the run to its end and exits 0, well within the timeout', async () => {
      const result = await run('measures-recompute', ['--patients', PATIENT, '--force', '--wait', '--timeout', '60']);
      expect(result.output).toMatch(/1\/1 chunks, 1 patients computed, 0 current\nRun \d+ finished in [\d.]+ s\.$/);
      expect(result.code).toBe(0);
    });
  });
});

/**
 * The compiled command line, as `npm run db:migrate` and the others run it, on a database it cannot
 * open: one line saying what is wrong and what to do, exit 1, never the password of the URL or a stack.
 */
describe('CLI commands on a database they cannot open', () => {
  const admin = new URL(TEST_ADMIN_URL);
  const withPassword = (port: string, database: string) => {
    const url = new URL(TEST_ADMIN_URL);
    url.password = 'hunter2-secret';
    url.port = port;
    url.pathname = `/${database}`;
    return url.toString();
  };
  const runCli = (command: string, databaseUrl: string) =>
    spawnSync(process.execPath, [CLI, command], { env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', DATABASE_URL: databaseUrl, ...isolatedFileEnv('vigil-cli-') }, encoding: 'utf8', timeout: 30_000 });
  const missing = `vigil_test_missing_${randomBytes(4).toString('hex')}`;
  const port = admin.port || '5432';

  // One path opens the database for every command: the migration, an audited command, a reader.
  it.each(['migrate', 'seed', 'audit-verify'])('%s on a database that does not exist', (command) => {
    const result = runCli(command, withPassword(port, missing));
    expect(result.status).toBe(1);
    expect(result.stdout).toBe(`Database: ${admin.hostname}:${port}/${missing}\n`);
    expect(result.stderr).toBe(
      `database "${missing}" does not exist on ${admin.hostname}:${port}: create it with \`createdb -h ${admin.hostname} -p ${port}${admin.username ? ` -U ${admin.username}` : ''} ${missing}\`, then \`npm run db:migrate\` gives it the schema\n`,
    );
  });

  it('migrate on a port where nothing listens', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const free = String((server.address() as { port: number }).port);
    await new Promise((resolve) => server.close(resolve));
    const url = new URL(withPassword(free, 'vigil'));
    url.hostname = '127.0.0.1';
    const result = runCli('migrate', url.toString());
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`nothing accepts connections on 127.0.0.1:${free}: is Postgres running there?\n`);
    expect(result.stdout + result.stderr).not.toContain('hunter2');
  });
});
