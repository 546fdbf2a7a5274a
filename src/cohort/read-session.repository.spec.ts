import { DataSource } from 'typeorm';
import { COHORT_STATEMENTS } from './cohort.statements';
import { ReadSessions } from './read-session.repository';
import { READ_SESSION_BEGIN } from './read-session.statements';

/** A pool of one pg client that records what it is sent and how it is released, failing the texts `failing` says. */
function fakePool(failing: (text: string) => boolean) {
  const sent: string[] = [];
  const released: (Error | undefined)[] = [];
  const logged: { text: string; session: unknown }[] = [];
  const client = {
    query: async (config: string | { text: string }) => {
      const text = typeof config === 'string' ? config : config.text;
      sent.push(text);
      if (failing(text)) throw new Error(`refused: ${text.slice(0, 20)}`);
      return { rows: [] };
    },
    release: (error?: Error) => void released.push(error),
  };
  const logger = { logQuery: (text: string, _values: unknown, session: unknown) => void logged.push({ text, session }), logQueryError: () => undefined };
  const dataSource = { driver: { master: { connect: async () => client } }, logger } as unknown as DataSource;
  return { dataSource, sent, released, logged };
}

const PATIENT = '7c0e0c2e-0000-4000-8000-000000000001';

describe(ReadSessions.name, () => {
  it('on the reader pool, hands the connection back clean after a failed statement, having sent no transaction control', async () => {
    const pool = fakePool((text) => text === COHORT_STATEMENTS.patientById);
    const sut = new ReadSessions(fakePool(() => true).dataSource, pool.dataSource);
    await expect(sut.inOneRead((open) => open.run('patientById', [PATIENT]))).rejects.toThrow(/refused/);
    expect(pool.sent).toEqual([COHORT_STATEMENTS.patientById]);
    expect(pool.released).toEqual([undefined]);
  });

  it('in a transaction, rolls back a failed read and hands the connection back clean', async () => {
    const pool = fakePool((text) => text === COHORT_STATEMENTS.patientById);
    const sut = new ReadSessions(pool.dataSource);
    await expect(sut.inOneRead((open) => open.run('patientById', [PATIENT]))).rejects.toThrow(/refused/);
    expect(pool.sent).toEqual([READ_SESSION_BEGIN, COHORT_STATEMENTS.patientById, 'ROLLBACK']);
    expect(pool.released).toEqual([undefined]);
  });

  it('closes the connection instead of pooling it when its transaction cannot be ended, and throws the read’s own failure', async () => {
    const pool = fakePool((text) => text === COHORT_STATEMENTS.patientById || text === 'ROLLBACK');
    const sut = new ReadSessions(pool.dataSource);
    const failure = (await sut.inOneRead((open) => open.run('patientById', [PATIENT])).catch((error: Error) => error)) as Error;
    expect(failure.message).toMatch(/refused/);
    expect(failure.message).not.toMatch(/ROLLBACK/);
    expect(pool.sent).toEqual([READ_SESSION_BEGIN, COHORT_STATEMENTS.patientById, 'ROLLBACK']);
    expect(pool.released).toEqual([expect.any(Error)]);
  });

  it('closes the connection when an opening fails and its ROLLBACK too', async () => {
    const pool = fakePool((text) => text === READ_SESSION_BEGIN || text === 'ROLLBACK');
    const sut = new ReadSessions(pool.dataSource);
    await expect(sut.inOneRead(() => Promise.resolve())).rejects.toThrow(/refused: BEGIN/);
    expect(pool.sent).toEqual([READ_SESSION_BEGIN, 'ROLLBACK']);
    expect(pool.released).toEqual([expect.any(Error)]);
  });

  it('logs each statement through the data source’s logger, as one session per read even on the same connection', async () => {
    const pool = fakePool(() => false);
    const sut = new ReadSessions(fakePool(() => true).dataSource, pool.dataSource);
    await sut.inOneRead(async (open) => [await open.run('patientById', [PATIENT]), await open.query('SELECT 1', [])]);
    await sut.inOneRead((open) => open.run('patientById', [PATIENT]));
    expect(pool.logged.map(({ text }) => text)).toEqual([COHORT_STATEMENTS.patientById, 'SELECT 1', COHORT_STATEMENTS.patientById]);
    const [first, second, third] = pool.logged.map(({ session }) => session);
    expect(first).toBeDefined();
    expect(second).toBe(first);
    expect(third).not.toBe(first);
    expect(pool.released).toEqual([undefined, undefined]);
  });
});
