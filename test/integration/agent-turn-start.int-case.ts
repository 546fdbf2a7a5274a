import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AGENT_STATEMENTS } from '../../src/agent/agent.sql';
import { TurnRepository } from '../../src/agent/turn.repository';
import { StaffRole } from '../../src/common/roles';
import { dataSourceOptions } from '../../src/data-source';
import { patientIdOf, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { statementsRunBy } from '../setup/statement-capture';

const PATIENT = 'complete-record';

/**
 * A turn's start (`TurnRepository.start`): the clinician's hourly limit and the `running` row, as
 * one statement that commits by itself (issue 15: it was a transaction of four round trips).
 */
describe('agent turn start: the hourly limit in one statement (real Postgres)', () => {
  const db = useSeededDatabase();
  const clinicianId = async (username: string): Promise<string> =>
    ((await db().dataSource.query(`SELECT id FROM staff_users WHERE username = $1`, [username])) as { id: string }[])[0].id;
  const turnsOf = async (clinician: string): Promise<number> =>
    ((await db().dataSource.query(`SELECT count(*)::int AS n FROM agent_turns WHERE clinician_id = $1`, [clinician])) as { n: number }[])[0].n;
  /** A clinician with no turns yet: each test starts from an empty hour. */
  const freshClinician = async (): Promise<string> => {
    const clinician = await clinicianId(userFor(StaffRole.Clinician, PATIENT).username);
    await db().dataSource.query(`DELETE FROM agent_turns WHERE clinician_id = $1`, [clinician]);
    return clinician;
  };

  it('starts turns up to the hour’s limit, then writes nothing and says when one frees', async () => {
    const turns = new TurnRepository(db().dataSource);
    const clinician = await freshClinician();
    const patient = patientIdOf(PATIENT);
    for (let i = 0; i < 2; i += 1) expect(await turns.start(randomUUID(), patient, clinician, 'Any labs?', 2)).toEqual({ started: true });
    const refused = await turns.start(randomUUID(), patient, clinician, 'Any labs?', 2);
    expect(refused.started).toBe(false);
    // The oldest turn started moments ago: it leaves the window in just under an hour.
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(3500);
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(3600);
    expect(await turnsOf(clinician)).toBe(2);
    const [stored] = (await db().dataSource.query(`SELECT status, question_hash FROM agent_turns WHERE clinician_id = $1 LIMIT 1`, [clinician])) as { status: string; question_hash: string }[];
    expect(stored.status).toBe('running');
    expect(stored.question_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is one statement, with no transaction of its own around it', async () => {
    const { dataSource } = db();
    const clinician = await freshClinician();
    const executed = await statementsRunBy(dataSource, () => new TurnRepository(dataSource).start(randomUUID(), patientIdOf(PATIENT), clinician, 'Any labs?', 5));
    expect(executed).toEqual([AGENT_STATEMENTS.startTurn]);
  });

  it('commits, as a reply’s tool calls do, without waiting for its WAL flush, and only its own transaction', async () => {
    const { dataSource } = db();
    const clinician = await freshClinician();
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    const setting = async () => ((await runner.query(`SHOW synchronous_commit`)) as { synchronous_commit: string }[])[0].synchronous_commit;
    try {
      // Inside a transaction of the test's, to see the setting each statement leaves for its commit.
      const turnId = randomUUID();
      await runner.query('BEGIN');
      await runner.query(AGENT_STATEMENTS.startTurn, [turnId, patientIdOf(PATIENT), clinician, 'x'.repeat(64), 5]);
      expect(await setting()).toBe('off');
      await runner.query('COMMIT');
      expect(await setting()).toBe('on');
      await runner.query('BEGIN');
      const calls = [{ seq: 0, tool: 'patient_labs', arguments: {}, status: 'ok', row_count: 0, envelope: {} }];
      await runner.query(AGENT_STATEMENTS.insertToolCalls, [turnId, JSON.stringify(calls)]);
      expect(await setting()).toBe('off');
      await runner.query('COMMIT');
      expect(await setting()).toBe('on');
      // The turn's end is flushed as every commit is by default: it is what the clinician is answered on.
      await runner.query('BEGIN');
      await runner.query(AGENT_STATEMENTS.finishTurn, [turnId, 'failure', '[]', [], '{}', 'turn_failed']);
      expect(await setting()).toBe('on');
      await runner.query('COMMIT');
    } finally {
      await runner.query('ROLLBACK').catch(() => undefined);
      await runner.release();
    }
  });

  it('lets exactly the hour’s turns through when starts queue on the clinician’s lock', async () => {
    const { dataSource } = db();
    const clinician = await freshClinician();
    // Six starts waiting at once need six connections of their own (the file's pool has four).
    const starters = new DataSource(dataSourceOptions({ url: db().url, poolSize: 6 }));
    await starters.initialize();
    const turns = new TurnRepository(starters);
    // Hold the clinician's lock, so every start below is waiting on it before the first one counts.
    // A count that read the turns as they were when its statement began (before the lock) would let all of them in.
    const holder = dataSource.createQueryRunner();
    await holder.connect();
    try {
      await holder.query(`SELECT pg_advisory_lock(hashtext('agent_turns:' || $1::text))`, [clinician]);
      const starts = Array.from({ length: 6 }, () => turns.start(randomUUID(), patientIdOf(PATIENT), clinician, 'Any labs?', 3));
      await waitForLockWaiters(dataSource, 6);
      await holder.query(`SELECT pg_advisory_unlock(hashtext('agent_turns:' || $1::text))`, [clinician]);
      const answers = await Promise.all(starts);
      expect(answers.filter((answer) => answer.started)).toHaveLength(3);
      expect(await turnsOf(clinician)).toBe(3);
    } finally {
      await holder.release();
      await starters.destroy();
    }
  });
});

/** Until `count` sessions are waiting on an advisory lock (the starts have all begun and queued). */
async function waitForLockWaiters(dataSource: DataSource, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [{ n }] = (await dataSource.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)) as { n: number }[];
    if (n >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${n} of ${count} starts queued on the lock`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
