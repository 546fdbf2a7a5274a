import { OutboxRepository } from './outbox.repository';
import { ConsoleLogger, Logger } from '@nestjs/common';
import { OutboxJob } from '../enum';
import { OutboxRelay } from './outbox-relay';
import { EXPIRY_GRACE_MS } from './queue.constants';

const ID = '0b5e7a52-6c1d-4f3a-9a61-5f0c2b7d8e14';

function rig(options: { redisStatus?: string; rows?: object[]; addBulk?: jest.Mock } = {}) {
  const manager = {
    query: jest.fn(async (sql: string) => (sql.startsWith('SELECT') ? (options.rows ?? []) : [])),
  };
  const dataSource = { transaction: jest.fn(async (work: (m: typeof manager) => Promise<unknown>) => work(manager)) };
  const queue = { addBulk: options.addBulk ?? jest.fn().mockResolvedValue([]) };
  const redis = { status: options.redisStatus ?? 'ready' };
  const sut = new OutboxRelay(new OutboxRepository(dataSource as never), queue as never, redis as never, { relayIntervalMs: 60_000 });
  return { sut, dataSource, manager, queue };
}

describe(OutboxRelay.name, () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(new ConsoleLogger()));

  it('adds one job per row, ids only, and marks exactly those rows relayed', async () => {
    const { sut, queue, manager } = rig({
      rows: [
        { id: '7', proposalId: ID, job: OutboxJob.Expire, delayMs: 5000 },
        { id: '8', proposalId: ID, job: OutboxJob.Execute, delayMs: 0 },
      ],
    });
    expect(await sut.relayNow()).toBe(2);
    const [jobs] = queue.addBulk.mock.calls[0];
    expect(jobs).toEqual([
      { name: 'expire', data: { proposalId: ID }, opts: expect.objectContaining({ jobId: `expire-${ID}`, delay: 5000 + EXPIRY_GRACE_MS, attempts: 5 }) },
      { name: 'execute', data: { proposalId: ID }, opts: expect.objectContaining({ jobId: `execute-${ID}`, delay: 0 }) },
    ]);
    expect(manager.query).toHaveBeenLastCalledWith(expect.stringMatching(/^UPDATE proposal_outbox SET relayed_at/), [['7', '8']]);
  });

  it('does not open a transaction while Redis is down', async () => {
    const { sut, dataSource, queue } = rig({ redisStatus: 'reconnecting' });
    expect(await sut.relayNow()).toBe(0);
    expect(dataSource.transaction).not.toHaveBeenCalled();
    expect(queue.addBulk).not.toHaveBeenCalled();
  });

  it('leaves the rows unmarked when Redis refuses the jobs', async () => {
    const { sut, manager } = rig({ rows: [{ id: '7', proposalId: ID, job: OutboxJob.Execute, delayMs: 0 }], addBulk: jest.fn().mockRejectedValue(new Error('Connection is closed.')) });
    expect(await sut.relayNow()).toBe(0);
    expect(manager.query).not.toHaveBeenCalledWith(expect.stringMatching(/^UPDATE/), expect.anything());
  });

  it('folds calls made during a pass into one follow-up pass', async () => {
    const { sut, dataSource } = rig();
    await Promise.all([sut.relayNow(), sut.relayNow(), sut.relayNow(), sut.relayNow()]);
    expect(dataSource.transaction).toHaveBeenCalledTimes(2);
  });
});
