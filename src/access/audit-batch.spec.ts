import { AuditOutcome } from '../audit';
import { AuditChannel } from '../audit/enum';
import { AuditEventInput } from '../audit/audit-event.input';
import { AuditBatch } from './audit-batch';

const event = (action: string): AuditEventInput => ({
  actorId: null, actorRole: 'clinician', actorName: null, patientId: null, action, fields: [], rowCount: 1,
  outcome: AuditOutcome.Success, breakGlassReason: null, breakGlass: false, channel: AuditChannel.Agent, correlationId: null,
});

/** Lets pending promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe(AuditBatch.name, () => {
  let writes: string[][];
  let failNext: Error | null;
  let sut: AuditBatch;
  beforeEach(() => {
    writes = [];
    failNext = null;
    sut = new AuditBatch(async (events) => {
      writes.push(events.map((e) => e.action));
      if (failNext) throw failNext;
    });
  });

  it('writes the rows of every member once, together, when the last member has recorded', async () => {
    const [a, b, c] = [sut.join(), sut.join(), sut.join()];
    const done: string[] = [];
    const recorded = [a.record([event('a')]).then(() => done.push('a')), b.record([event('b')]).then(() => done.push('b'))];
    await settle();
    // Nothing is written, and nobody is answered, while a member has neither recorded nor left.
    expect(writes).toEqual([]);
    expect(done).toEqual([]);
    recorded.push(c.record([event('c')]).then(() => done.push('c')));
    await Promise.all(recorded);
    expect(writes).toEqual([['a', 'b', 'c']]);
    expect(done.sort()).toEqual(['a', 'b', 'c']);
  });

  it('does not wait for a member that left without rows, and writes nothing for none', async () => {
    const [a, b] = [sut.join(), sut.join()];
    const recorded = a.record([event('a')]);
    await settle();
    expect(writes).toEqual([]);
    b.leave();
    await recorded;
    expect(writes).toEqual([['a']]);
    // Leaving after recording changes nothing; a batch all of whose members left writes nothing.
    a.leave();
    const c = sut.join();
    c.leave();
    await settle();
    expect(writes).toEqual([['a']]);
  });

  it('rejects every member of a write that failed (fail closed)', async () => {
    failNext = new Error('audit down');
    const [a, b] = [sut.join(), sut.join()];
    const outcomes = Promise.allSettled([a.record([event('a')]), b.record([event('b')])]);
    expect((await outcomes).map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(writes).toEqual([['a', 'b']]);
  });

  it('puts a member that joins after a write began into the next write', async () => {
    const a = sut.join();
    const first = a.record([event('a')]);
    const b = sut.join();
    await first;
    expect(writes).toEqual([['a']]);
    await b.record([event('b')]);
    expect(writes).toEqual([['a'], ['b']]);
  });

  it('writes a second record of one member alone, without holding the others', async () => {
    const [a, b] = [sut.join(), sut.join()];
    const first = a.record([event('a1')]);
    await a.record([event('a2')]);
    expect(writes).toEqual([['a2']]);
    b.leave();
    await first;
    expect(writes).toEqual([['a2'], ['a1']]);
  });
});
