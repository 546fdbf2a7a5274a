import { randomUUID } from 'node:crypto';
import { AccessContext } from '../../src/access/access-context';
import { ProposalKind } from '../../src/approvals/enum';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { cutOffAccess } from '../../src/cli/access-cutoff';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { StaffDirectoryRepository } from '../../src/cohort/staff-directory.repository';
import { createTestApp, TestApp } from '../setup/app';
import { accessOf } from '../setup/callers';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';

const PATIENT = 'diabetes-a1c-9-4';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A decision racing the admin command that takes its decider's access away. The command's
 * transaction discounts the approvals it can see; one committed after that would count for a person
 * who may no longer decide. So a decision share-locks its decider's row and memberships first: it
 * waits for the command and then finds no decider (404), or the command waits for it and sees it.
 */
describe('a decision racing a deactivation', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let proposals: ProposalsService;

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url, queueSettings: { workersInApi: false } });
    proposals = sut.app.get(ProposalsService);
  });
  afterAll(() => sut.close());

  const as = async (username: string): Promise<AccessContext> => ({ ...(await accessOf(database().dataSource, username)), correlationId: randomUUID() });

  it('waits for the deactivation and is refused as not found, leaving no approval that counts', async () => {
    const proposal = await proposals.create(await as('dr.okafor'), patientIdOf(PATIENT), {
      kind: ProposalKind.AddCareNote,
      content: { noteType: 'care-plan', text: 'Discussed the plan; follow-up booked.' },
      rationale: 'Rationale for the reviewer, with evidence.',
      citations: [`obs:${fixtureId('patient', PATIENT, 'observation', '0')}`],
    });
    // The reviewer's request passed the guard while still active (its caller is built now).
    const reviewer = await as('rev.santos');

    // The admin command's transaction, held open after its cut-off found nothing to discount.
    const runner = database().dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    const directory = new StaffDirectoryRepository();
    const staff = await directory.staffByUsername(runner.manager, 'rev.santos');
    await directory.deactivateStaff(runner.manager, staff!.id);
    const cutOff = await cutOffAccess(runner.manager, { staffUserIds: [staff!.id], patientIds: null, cause: 'deactivated' }, async () => undefined);
    expect(cutOff.approvalsDiscounted).toBe(0);

    let settled = false;
    const decision = proposals.approve(reviewer, proposal.id, { version: 1 }).finally(() => (settled = true));
    decision.catch(() => undefined);
    await sleep(500);
    expect(settled).toBe(false); // waiting for the command's lock on the reviewer's row
    await runner.commitTransaction();
    await runner.release();

    await expect(decision).rejects.toMatchObject({ code: 'proposal_not_found' });
    const rows = await database().dataSource.query(`SELECT decision FROM proposal_decisions WHERE proposal_id = $1`, [proposal.id]);
    expect(rows).toEqual([]);
    expect((await database().dataSource.query(`SELECT status FROM proposals WHERE id = $1`, [proposal.id]))[0].status).toBe('pending');
  });
});
