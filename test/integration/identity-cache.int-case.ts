import { Logger } from '@nestjs/common';
import { BehaviorSubject, Observable, Subject } from 'rxjs';
import request from 'supertest';
import { CohortRepository, StaffIdentity } from '../../src/cohort/cohort.repository';
import { IDENTITY_CHANGED_CHANNEL } from '../../src/cohort/identity-cache';
import { DatabaseNotifications } from '../../src/database/database-notifications';
import { ReaderPool } from '../../src/database/reader-pool';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await condition()) return;
    await sleep(25);
  }
  throw new Error('condition never held');
}

/** Notifications the test hands out itself: held back, or delivered, and a connection it takes down and brings back. */
class HeldNotifications {
  readonly changes = new Subject<string>();
  readonly up = new BehaviorSubject(true);
  on(): Observable<string> {
    return this.changes;
  }
  listening(): Observable<boolean> {
    return this.up;
  }
}

const NORTH_ONLY = 'diabetes-a1c-9-4';
const SOUTH_ONLY = 'south-asthma';

/**
 * The identity cache (`IdentityCache`, behind `CohortRepository.staffUserBy`): a change to a staff
 * row or a membership committed before a read is honoured by that read, whether or not its
 * notification has arrived, and nothing is answered from the cache while the notification
 * connection is down.
 */
describe('the identity cache', () => {
  const database = useSeededDatabase();
  const sql = (text: string, params: unknown[] = []) => database().dataSource.query(text, params);

  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['error', 'warn', 'log']));

  // Both ways the cohort reads (`ReadSessions`): transactions on the service's pool (the embedded
  // database's), and statements on their own on the reader pool (a Postgres server's), where the
  // generation is a statement of its own, still the read's first.
  describe.each([
    ['in read transactions', false],
    ['on the reader pool', true],
  ])('with notifications the test holds back, %s', (_mode, onReaderPool) => {
    let held: HeldNotifications;
    let sut: CohortRepository;
    let readers: ReaderPool | undefined;
    // A database of each mode's own: the tests below change staff rows.
    const own = useSeededDatabase();
    const ownSql = (text: string, params: unknown[] = []) => own().dataSource.query(text, params);
    beforeAll(async () => {
      if (onReaderPool) readers = await ReaderPool.open({ url: own().url, poolSize: 2, embedded: false });
    });
    afterAll(() => readers?.onApplicationShutdown());
    const read = (username: string) => sut.staffUserByUsername(username, { cached: true }) as Promise<StaffIdentity>;
    /** Two reads in a row answered with the very same object: the second came from the cache. */
    const answeredFromCache = async (username: string) => (await read(username)) === (await read(username));
    const generation = async () => Number((await ownSql(`SELECT generation FROM identity_generation`))[0].generation);

    beforeEach(() => {
      held = new HeldNotifications();
      sut = new CohortRepository(own().dataSource, held as unknown as DatabaseNotifications, readers);
    });
    afterEach(() => sut.onModuleDestroy());

    it('answers from the cache while nothing changed, and honours a deactivation committed before the read though its notification is held back', async () => {
      await until(() => answeredFromCache('dr.lindqvist'));
      expect((await read('dr.lindqvist')).active).toBe(true);

      await ownSql(`UPDATE staff_users SET active = false WHERE username = 'dr.lindqvist'`);
      // No notification reached this process: the read's own generation says the cache is behind.
      expect((await read('dr.lindqvist')).active).toBe(false);
      expect(await answeredFromCache('dr.lindqvist')).toBe(false);

      held.changes.next(String(await generation()));
      await until(() => answeredFromCache('dr.lindqvist'));
      expect((await read('dr.lindqvist')).active).toBe(false);
    });

    it('honours a removed membership committed before the read though its notification is held back', async () => {
      await until(() => answeredFromCache('cc.mensah'));
      expect((await read('cc.mensah')).careTeamCodes).toEqual(['primary-care-north']);

      await ownSql(`DELETE FROM care_team_members WHERE staff_user_id = (SELECT id FROM staff_users WHERE username = 'cc.mensah')`);
      expect((await read('cc.mensah')).careTeamCodes).toEqual([]);
    });

    it('answers nothing from the cache while the notification connection is down, nor until it has read the generation again', async () => {
      await until(() => answeredFromCache('rev.nakamura'));
      held.up.next(false);
      expect(await answeredFromCache('rev.nakamura')).toBe(false);
      // A change while down is never heard: coming back must not trust what was cached before.
      await ownSql(`UPDATE staff_users SET role = 'reviewer' WHERE username = 'rev.nakamura'`);
      held.up.next(true);
      await until(() => answeredFromCache('rev.nakamura'));
    });

    it('never answers from the cache without the caller asking for it', async () => {
      await until(() => answeredFromCache('dr.adeyemi'));
      const [a, b] = [await sut.staffUserByUsername('dr.adeyemi'), await sut.staffUserByUsername('dr.adeyemi')];
      expect(a).not.toBe(b);
    });
  });

  describe('in the app, with the real notification path', () => {
    let app: TestApp;
    let cohort: CohortRepository;
    let notifications: DatabaseNotifications;
    const labs = async (username: string, patient: string) =>
      (
        await request(app.app.getHttpServer())
          .get(`/patients/${patientIdOf(patient)}/labs`)
          .set('authorization', `Bearer ${await app.tokenFor(username)}`)
      ).status;
    const cacheAnswering = () => (cohort as unknown as { identities: { usable(): boolean } }).identities.usable();

    beforeAll(async () => {
      app = await createTestApp({ databaseUrl: database().url, queueSettings: { workersInApi: false } });
      cohort = app.app.get(CohortRepository);
      notifications = app.app.get(DatabaseNotifications);
    });
    afterAll(() => app.close());

    it('refuses the next request after a deactivation, and after a removed membership only that team’s patients', async () => {
      expect(await labs('dr.okafor', NORTH_ONLY)).toBe(200);
      await until(async () => (await labs('dr.okafor', NORTH_ONLY)) === 200 && cacheAnswering());
      await sql(`UPDATE staff_users SET active = false WHERE username = 'dr.okafor'`);
      expect(await labs('dr.okafor', NORTH_ONLY)).toBe(401);

      expect(await labs('dr.castellanos', SOUTH_ONLY)).toBe(200);
      expect(await labs('dr.castellanos', NORTH_ONLY)).toBe(200);
      await sql(
        `DELETE FROM care_team_members WHERE staff_user_id = (SELECT id FROM staff_users WHERE username = 'dr.castellanos')
           AND care_team_id = (SELECT id FROM care_teams WHERE code = 'primary-care-south')`,
      );
      expect(await labs('dr.castellanos', SOUTH_ONLY)).toBe(404);
      expect(await labs('dr.castellanos', NORTH_ONLY)).toBe(200);
    });

    it('answers nothing from the cache from the moment its notification connection is lost until it listens again', async () => {
      await until(async () => (await labs('dr.ferreira', SOUTH_ONLY)) === 200 && cacheAnswering());
      const seen: { listening: boolean; answering: boolean }[] = [];
      const subscription = notifications.listening(IDENTITY_CHANGED_CHANNEL).subscribe((listening) => seen.push({ listening, answering: cacheAnswering() }));
      const [{ pid }] = await sql(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'vigil-notifications'`);
      await sql(`SELECT pg_terminate_backend($1)`, [pid]);
      await until(() => seen.some((state) => !state.listening) && seen[seen.length - 1].listening);
      subscription.unsubscribe();
      expect(seen.find((state) => !state.listening)).toEqual({ listening: false, answering: false });
      await until(async () => (await labs('dr.ferreira', SOUTH_ONLY)) === 200 && cacheAnswering());
      await sql(`UPDATE staff_users SET active = false WHERE username = 'dr.ferreira'`);
      expect(await labs('dr.ferreira', SOUTH_ONLY)).toBe(401);
    });
  });
});
