import { Logger as TypeOrmLogger, DataSource } from 'typeorm';
import request from 'supertest';
import { allStatements } from '../../src/cli/statement-list';
import { StaffRole } from '../../src/cohort/enum';
import { TOOL_NAMES } from '../../src/tools/tool-names';
import { createTestApp, TestApp } from '../setup/app';
import { activeUsers, patientIdOf, patients, sharesTeam } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { TOOL_PATHS } from '../setup/tool-routes';

/** Transaction control TypeORM issues around every transaction; not statements of ours. */
const TRANSACTION_CONTROL = /^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK|SET TRANSACTION ISOLATION LEVEL [A-Z ]+)$/;

/**
 * Runs every tool for every patient through HTTP (plus refusals and health) and captures every SQL
 * statement the service executed: each must be in the committed statement list.
 */
describe('every statement the service runs is in src/database/statements.sql', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  const executed = new Set<string>();

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    const capture: Partial<TypeOrmLogger> = {
      logQuery: (query: string) => void executed.add(query.trim()),
      logQueryError: () => undefined,
      logQuerySlow: () => undefined,
      logSchemaBuild: () => undefined,
      logMigration: () => undefined,
      log: () => undefined,
    };
    // TypeORM asks the data source for its logger on every query, so swapping it captures them all.
    Object.assign(sut.app.get(DataSource), { logger: capture });
    for (const patient of patients) {
      const user = activeUsers.find((candidate) => candidate.role === StaffRole.Clinician && sharesTeam(candidate, patient))!;
      const token = await sut.tokenFor(user.username);
      for (const tool of TOOL_NAMES) {
        await request(sut.app.getHttpServer()).get(`/patients/${patientIdOf(patient)}/${TOOL_PATHS[tool]}`).set('authorization', `Bearer ${token}`);
      }
    }
    await request(sut.app.getHttpServer()).get(`/patients/${patientIdOf('south-asthma')}/labs`).set('authorization', `Bearer ${await sut.tokenFor('dr.okafor')}`);
    await request(sut.app.getHttpServer()).get('/health/ready');
  }, 120_000);
  afterAll(() => sut.close());

  it('captured the reads, the access checks and the audit writes', () => {
    expect(executed.size).toBeGreaterThan(10);
  });

  it('found nothing outside the list', () => {
    const known = new Set(allStatements().map((sql) => sql.trim()));
    const unknown = [...executed].filter((sql) => !known.has(sql) && !TRANSACTION_CONTROL.test(sql));
    expect(unknown).toEqual([]);
  });
});
