import { Logger } from '@nestjs/common';
import { firstValueFrom, Subscription, take, timeout, toArray } from 'rxjs';
import { DatabaseNotifications } from '../../src/database/database-notifications';
import { useSeededDatabase } from '../setup/database';

const CHANNEL = 'vigil_test_channel';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Postgres notifications for one process: heard at commit only, and again after the server drops the connection. */
describe(DatabaseNotifications.name, () => {
  const database = useSeededDatabase();
  const sql = (text: string, params: unknown[] = []) => database().dataSource.query(text, params);
  /** This database's listening backends (other test files use other databases). */
  const listeners = async () =>
    (
      await sql(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'vigil-notifications' AND query LIKE 'LISTEN%' AND state = 'idle'`,
      )
    ).map((row: { pid: number }) => row.pid);
  const until = async (condition: () => Promise<boolean>) => {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      if (await condition()) return;
      await sleep(50);
    }
    throw new Error('condition never held');
  };

  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['error', 'warn', 'log']));

  it('hears a committed notification, never one that rolled back, again after its connection was killed, and closes when nobody listens', async () => {
    const sut = new DatabaseNotifications({ url: database().url, embedded: false });
    const heard: string[] = [];
    const subscription: Subscription = sut.on(CHANNEL).subscribe((payload) => heard.push(payload));
    await until(async () => (await listeners()).length === 1);

    await sql(`SELECT pg_notify($1, 'committed')`, [CHANNEL]);
    const runner = database().dataSource.createQueryRunner();
    await runner.startTransaction();
    await runner.query(`SELECT pg_notify($1, 'rolled back')`, [CHANNEL]);
    await runner.rollbackTransaction();
    await runner.release();
    await until(async () => heard.length === 1);
    await sleep(200);
    expect(heard).toEqual(['committed']);

    // The server ends the session (a restart, a failover): the process listens again on its own.
    const [pid] = await listeners();
    await sql(`SELECT pg_terminate_backend($1)`, [pid]);
    await until(async () => {
      const now = await listeners();
      return now.length === 1 && now[0] !== pid;
    });
    await sql(`SELECT pg_notify($1, 'after reconnect')`, [CHANNEL]);
    await until(async () => heard.length === 2);
    expect(heard).toEqual(['committed', 'after reconnect']);

    subscription.unsubscribe();
    await until(async () => (await listeners()).length === 0);
    sut.onModuleDestroy();
  });

  it('shares one connection among a channel’s subscribers', async () => {
    const sut = new DatabaseNotifications({ url: database().url, embedded: false });
    const first = firstValueFrom(sut.on(CHANNEL).pipe(take(1), timeout(5_000)));
    const both = firstValueFrom(sut.on(CHANNEL).pipe(take(2), toArray(), timeout(5_000)));
    await until(async () => (await listeners()).length === 1);
    await sql(`SELECT pg_notify($1, 'one')`, [CHANNEL]);
    await sql(`SELECT pg_notify($1, 'two')`, [CHANNEL]);
    expect(await first).toBe('one');
    expect(await both).toEqual(['one', 'two']);
    await until(async () => (await listeners()).length === 0);
    sut.onModuleDestroy();
  });

  it('says whether a channel is heard: only once its LISTEN took effect, not from the moment the connection is lost, and again once it listens anew', async () => {
    const sut = new DatabaseNotifications({ url: database().url, embedded: false });
    const states: boolean[] = [];
    const state = sut.listening(CHANNEL).subscribe((listening) => states.push(listening));
    expect(states).toEqual([false]);
    const heard: string[] = [];
    const subscription = sut.on(CHANNEL).subscribe((payload) => heard.push(payload));
    await until(async () => states[states.length - 1]);
    // Heard as soon as it says so: nothing sent after that is missed.
    await sql(`SELECT pg_notify($1, 'first')`, [CHANNEL]);
    await until(async () => heard.length === 1);

    const [pid] = await listeners();
    await sql(`SELECT pg_terminate_backend($1)`, [pid]);
    await until(async () => states.length === 4);
    expect(states).toEqual([false, true, false, true]);
    subscription.unsubscribe();
    await until(async () => states.length === 5);
    expect(states[4]).toBe(false);
    state.unsubscribe();
    sut.onModuleDestroy();
  });

  it('opens nothing on the embedded database, which no other process can write while this one has it', async () => {
    const sut = new DatabaseNotifications({ url: database().url, embedded: true });
    const subscription = sut.on(CHANNEL).subscribe();
    const states: boolean[] = [];
    const state = sut.listening(CHANNEL).subscribe((listening) => states.push(listening));
    await sleep(300);
    expect(await listeners()).toEqual([]);
    expect(states).toEqual([false]);
    state.unsubscribe();
    subscription.unsubscribe();
    sut.onModuleDestroy();
  });

  it('refuses a channel that is not a plain lower-case identifier (it is written into LISTEN)', () => {
    const sut = new DatabaseNotifications({ url: database().url, embedded: false });
    expect(() => sut.on('x; DROP TABLE proposals')).toThrow(/identifier/);
    sut.onModuleDestroy();
  });
});
