import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/load-config';
import { connectionTimeouts } from '../../src/database/data-source.options';
import { dataSourceOptions } from '../../src/data-source';
import { useSeededDatabase } from '../setup/database';

const BOUNDS = { statementTimeoutMs: 400, lockTimeoutMs: 300, idleInTransactionTimeoutMs: 1500 };

/** Every connection of the service carries statement, lock and idle-in-transaction bounds. */
describe('connection bounds', () => {
  const database = useSeededDatabase();
  let bounded: DataSource;
  beforeAll(async () => {
    bounded = await new DataSource(dataSourceOptions({ url: database().url, poolSize: 2, timeouts: BOUNDS })).initialize();
  });
  afterAll(() => bounded?.destroy());

  const failureOf = (work: Promise<unknown>) => work.then(() => 'no error', (error: { code?: string }) => error.code);

  it('come from the configuration, with defaults', () => {
    expect(connectionTimeouts(loadConfig({}))).toEqual({ statementTimeoutMs: 30000, lockTimeoutMs: 10000, idleInTransactionTimeoutMs: 60000 });
  });

  it('are set on every pooled session from its first statement', async () => {
    const settings = await Promise.all(
      [1, 2].map(() =>
        bounded.query(
          `SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock,
                  current_setting('idle_in_transaction_session_timeout') AS idle, pg_backend_pid() AS pid, pg_sleep(0.1)`,
        ),
      ),
    );
    expect(settings.map(([row]) => [row.statement, row.lock, row.idle])).toEqual([
      ['400ms', '300ms', '1500ms'],
      ['400ms', '300ms', '1500ms'],
    ]);
  });

  it('cancel a statement that runs too long (57014)', async () => {
    const started = Date.now();
    expect(await failureOf(bounded.query('SELECT pg_sleep(5)'))).toBe('57014');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('stop waiting for a lock another session holds (55P03)', async () => {
    const holder = database().dataSource.createQueryRunner();
    await holder.startTransaction();
    try {
      await holder.query('LOCK TABLE care_teams IN ACCESS EXCLUSIVE MODE');
      expect(await failureOf(bounded.query('SELECT count(*) FROM care_teams'))).toBe('55P03');
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
  });

  it('end a session left idle inside a transaction (its next statement fails)', async () => {
    const runner = bounded.createQueryRunner();
    await runner.startTransaction();
    await runner.query('SELECT 1');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await failureOf(runner.query('SELECT 1'))).not.toBe('no error');
    await runner.release().catch(() => undefined);
  });
});
