import type { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { dataSourceOptions } from '../../src/data-source';
import { useSeededDatabase } from '../setup/database';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A pooled session the server ends (a restart, a failover, an administrator) fails only the work that
 * was using it. node-postgres throws an `'error'` that no listener hears, which ends the process: under
 * Jest that is this file failing to run.
 */
describe('a pooled connection the server ends', () => {
  const database = useSeededDatabase();
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions({ url: database().url, poolSize: 2 })).initialize();
  });
  afterAll(() => dataSource?.destroy());

  const terminate = async (pid: number) => {
    await database().dataSource.query('SELECT pg_terminate_backend($1)', [pid]);
    await sleep(300); // the FATAL message reaches the client
  };

  it('while checked out and idle, outside a query runner: the process goes on, the client is discarded, the pool serves the next query', async () => {
    const pool = (dataSource.driver as PostgresDriver).master as Pool;
    const client: PoolClient = await pool.connect();
    const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    await terminate(pid);
    await expect(client.query('SELECT 1')).rejects.toThrow();
    client.release();
    const [{ next }] = await dataSource.query<{ next: number }[]>('SELECT pg_backend_pid() AS next');
    expect(next).not.toBe(pid);
  });

  it('while a query runner holds it between statements: its next statement fails, the data source goes on', async () => {
    const runner = dataSource.createQueryRunner();
    const [{ pid }] = await runner.query('SELECT pg_backend_pid() AS pid');
    await terminate(pid);
    await expect(runner.query('SELECT 1')).rejects.toThrow();
    await runner.release();
    expect(await dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('while idle in the pool: the pool opens another', async () => {
    const [{ pid }] = await dataSource.query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
    await terminate(pid);
    expect(await dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });
});
