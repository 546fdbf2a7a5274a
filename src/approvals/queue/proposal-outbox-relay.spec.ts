import { ConsoleLogger, Logger } from '@nestjs/common';
import { OutboxJob } from '../enum';
import { OutboxRepository } from './outbox.repository';
import { ProposalOutboxRelay, RELAY_BATCH_SIZE } from './proposal-outbox-relay';
import { EXPIRY_GRACE_MS } from './queue.constants';

const ID = '0b5e7a52-6c1d-4f3a-9a61-5f0c2b7d8e14';

function rig(rows: object[]) {
  const manager = {
    query: jest.fn(async (sql: string) => (sql.startsWith('SELECT') ? rows : [])),
  };
  const dataSource = { transaction: jest.fn(async (work: (m: typeof manager) => Promise<unknown>) => work(manager)) };
  const queue = { addBulk: jest.fn().mockResolvedValue([]) };
  const producer = { queue, ready: true };
  const sut = new ProposalOutboxRelay(new OutboxRepository(dataSource as never), { producer: producer as never, settings: { relayIntervalMs: 60_000 } as never });
  return { sut, dataSource, manager, queue };
}

describe(ProposalOutboxRelay.name, () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(new ConsoleLogger()));

  it('adds one job per row, ids only, and marks exactly those rows relayed', async () => {
    const { sut, queue, manager } = rig([
      { id: '7', proposalId: ID, job: OutboxJob.Expire, delayMs: 5000 },
      { id: '8', proposalId: ID, job: OutboxJob.Execute, delayMs: 0 },
    ]);
    expect(await sut.relayNow()).toBe(2);
    const [jobs] = queue.addBulk.mock.calls[0];
    expect(jobs).toEqual([
      { name: 'expire', data: { proposalId: ID }, opts: expect.objectContaining({ jobId: `expire-${ID}`, delay: 5000 + EXPIRY_GRACE_MS, attempts: 5 }) },
      { name: 'execute', data: { proposalId: ID }, opts: expect.objectContaining({ jobId: `execute-${ID}`, delay: 0 }) },
    ]);
    expect(manager.query).toHaveBeenLastCalledWith(expect.stringMatching(/^UPDATE proposal_outbox SET relayed_at/), [['7', '8']]);
  });

  it('claims another batch only after a full one', async () => {
    const full = Array.from({ length: RELAY_BATCH_SIZE }, (_, index) => ({ id: String(index), proposalId: ID, job: OutboxJob.Execute, delayMs: 0 }));
    const { sut, dataSource, manager } = rig(full);
    manager.query.mockImplementation(async (sql: string) => (sql.startsWith('SELECT') ? (dataSource.transaction.mock.calls.length === 1 ? full : []) : []));
    expect(await sut.relayNow()).toBe(RELAY_BATCH_SIZE);
    expect(dataSource.transaction).toHaveBeenCalledTimes(2);
  });
});
