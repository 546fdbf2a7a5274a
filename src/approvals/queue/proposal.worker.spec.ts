import { UnrecoverableError } from 'bullmq';
import { OutboxJob } from '../enum';
import { handleProposalJob, ProposalJobError, ProposalJobHandlers } from './proposal.worker';

const ID = '0b5e7a52-6c1d-4f3a-9a61-5f0c2b7d8e14';

function fakeHandlers(overrides: Partial<ProposalJobHandlers> = {}) {
  return {
    execute: jest.fn<ReturnType<ProposalJobHandlers['execute']>, [string]>().mockResolvedValue('applied'),
    expireIfDue: jest.fn<ReturnType<ProposalJobHandlers['expireIfDue']>, [string]>().mockResolvedValue(true),
    ...overrides,
  };
}

describe(handleProposalJob.name, () => {
  it('runs `execute` jobs through the executor, and nothing else', async () => {
    const sut = fakeHandlers();
    expect(await handleProposalJob({ name: OutboxJob.Execute, data: { proposalId: ID } }, sut)).toBe('applied');
    expect(sut.execute).toHaveBeenCalledWith(ID);
    expect(sut.expireIfDue).not.toHaveBeenCalled();
  });

  it('runs `expire` jobs through expireIfDue, answering `noop` when the proposal was not expired', async () => {
    const sut = fakeHandlers({ expireIfDue: jest.fn().mockResolvedValue(false) });
    expect(await handleProposalJob({ name: OutboxJob.Expire, data: { proposalId: ID } }, sut)).toBe('noop');
    expect(sut.expireIfDue).toHaveBeenCalledWith(ID);
    expect(sut.execute).not.toHaveBeenCalled();
  });

  it.each([
    ['an unknown job name', { name: 'delete_everything', data: { proposalId: ID } }],
    ['data that is not a proposal id', { name: OutboxJob.Execute, data: { proposalId: "1; DROP TABLE proposals" } }],
    ['extra-free-form data', { name: OutboxJob.Execute, data: 'text' }],
  ])('refuses %s without retrying and without calling anything', async (_label, job) => {
    const sut = fakeHandlers();
    await expect(handleProposalJob(job, sut)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(sut.execute).not.toHaveBeenCalled();
    expect(sut.expireIfDue).not.toHaveBeenCalled();
  });

  it('turns a failure into a retryable error that carries the type and code, never the message', async () => {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint: Key (mrn)=(MRN-0042)'), { code: '23505' });
    const sut = fakeHandlers({ execute: jest.fn().mockRejectedValue(driverError) });
    const failure = await handleProposalJob({ name: OutboxJob.Execute, data: { proposalId: ID } }, sut).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProposalJobError);
    expect(failure).not.toBeInstanceOf(UnrecoverableError);
    expect((failure as Error).message).toBe('proposal job attempt failed: Error 23505');
    expect((failure as Error).stack).not.toContain('MRN-0042');
  });
});
