import { Logger, MessageEvent } from '@nestjs/common';
import { Subject } from 'rxjs';
import { DatabaseNotifications } from '../../database/database-notifications';
import { ProposalsRepository } from '../proposals.repository';
import { AccessService } from '../../access/access.service';
import { AuditedAccess } from '../../access/audited-access.service';
import { ChangeLog, isoMicros, ProposalEventStream } from './proposal-event-stream';
import { ProposalChange, ProposalEvents } from './proposal-events';

const change = (id: string, updatedAt: string, createdAt = updatedAt): ProposalChange => ({
  id, status: 'pending', kind: 'add_care_note', patientId: `patient-${id}`, currentVersion: 1, createdAt, updatedAt,
});
const at = (second: number, micros = 0) => `2026-06-30T12:00:${String(second).padStart(2, '0')}.${String(micros).padStart(6, '0')}Z`;

describe('ChangeLog', () => {
  it('accepts each state of a proposal once, and never an older state after a newer one', () => {
    const log = new ChangeLog(at(0));
    expect(log.accept(change('a', at(1)))).toBe(true);
    expect(log.accept(change('a', at(1)))).toBe(false);
    expect(log.accept(change('a', at(2, 5)))).toBe(true);
    expect(log.accept(change('a', at(2, 4)))).toBe(false);
    expect(log.accept(change('b', at(2, 4)))).toBe(true);
  });

  it('polls from the newest change sent minus the lookback, and forgets what falls before it', () => {
    const log = new ChangeLog(at(0));
    log.accept(change('old', at(1)));
    log.accept(change('new', at(30)));
    expect(log.pollFrom(10_000)).toBe(at(20));
    // Forgotten: the poll can no longer return it, so a later state is news again.
    expect(log.accept(change('old', at(1)))).toBe(true);
    expect(log.accept(change('new', at(30)))).toBe(false);
  });

  it('compares JavaScript times with the statements’ microsecond times as text', () => {
    expect(isoMicros(Date.parse('2026-06-30T12:00:00.123Z'))).toBe('2026-06-30T12:00:00.123000Z');
    expect(isoMicros(Date.parse('2026-06-30T12:00:00.123Z')) < at(0, 123_456)).toBe(true);
  });
});

describe('ProposalEventStream', () => {
  const settings = { pollMs: 2_000, heartbeatMs: 15_000, lookbackMs: 10_000, pageSize: 2, maxPagesPerPoll: 3 };
  let bus: ProposalEvents;
  /** The poll's statement (`changedSince`); the subscriber's active check answers `active` below. */
  let query: jest.Mock;
  let active: boolean;
  let checkFails: boolean;
  let checks: number;
  let told: Subject<string>;
  let received: MessageEvent[];
  /** The subscriber's `events.subscribe` check: here, only the patient `patient-mine` is theirs. */
  const visible = jest.fn(async (patientIds: string[]) => new Set(patientIds.filter((id) => id === 'patient-mine')));

  beforeEach(() => {
    jest.useFakeTimers();
    bus = new ProposalEvents();
    query = jest.fn(async () => []);
    active = true;
    checkFails = false;
    checks = 0;
    told = new Subject<string>();
    received = [];
  });
  afterEach(() => jest.useRealTimers());

  const sut = () => {
    const run = async (name: string, params: unknown[]) => {
      if (name !== 'streamSubscriberActive') return query(name, params);
      checks += 1;
      if (checkFails) throw new Error('connection lost');
      return [{ active }];
    };
    const notifications = { on: (channel: string) => (channel === 'vigil_access_ended' ? told : new Subject<string>()) } as unknown as DatabaseNotifications;
    return new ProposalEventStream({ run } as unknown as ProposalsRepository, bus, {} as AccessService, {} as AuditedAccess, notifications, settings);
  };
  const open = () => sut().open('user-1', visible).subscribe((message) => received.push(message));

  it('opens with a comment and sends a heartbeat comment every 15 s', async () => {
    const subscription = open();
    expect(received).toEqual([{ comment: 'connected' }]);
    await jest.advanceTimersByTimeAsync(30_000);
    expect(received.filter((message) => message.comment === 'heartbeat')).toHaveLength(2);
    subscription.unsubscribe();
  });

  it('sends a change announced in-process only when the care-team query says the caller may see its patient', async () => {
    const subscription = open();
    bus.publish({ ...change('mine', at(1)), patientId: 'patient-mine' });
    bus.publish({ ...change('theirs', at(1)), patientId: 'patient-theirs' });
    await jest.advanceTimersByTimeAsync(0);
    expect(received.slice(1)).toEqual([
      { type: 'proposal.created', data: { id: 'mine', status: 'pending', kind: 'add_care_note', patientId: 'patient-mine', currentVersion: 1, updatedAt: at(1), deliveries: [] } },
    ]);
    expect(visible).toHaveBeenCalledWith(['patient-theirs']);
    subscription.unsubscribe();
  });

  it('never announces a draft, and announces a submitted draft as created (it just entered review)', async () => {
    const subscription = open();
    bus.publish({ ...change('draft', at(1)), patientId: 'patient-mine', submittedAt: null });
    bus.publish({ ...change('submitted', at(3), at(1)), patientId: 'patient-mine', submittedAt: at(3) });
    bus.publish({ ...change('decided', at(4), at(1)), patientId: 'patient-mine', submittedAt: at(1) });
    await jest.advanceTimersByTimeAsync(0);
    expect(received.slice(1).map((message) => [message.type, (message.data as ProposalChange).id])).toEqual([
      ['proposal.created', 'submitted'],
      ['proposal.updated', 'decided'],
    ]);
    subscription.unsubscribe();
  });

  it('polls every 2 s, pages through a busy moment, and sends a state it already sent only once', async () => {
    const subscription = open();
    const pages = [[change('a', at(1)), change('b', at(2), at(1))], [change('b', at(2), at(1))], []];
    query.mockImplementation(async () => pages.shift() ?? [change('a', at(1))]);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(query).toHaveBeenCalledTimes(2); // a full page, so the next page from its last updatedAt
    expect(query.mock.calls[1][1][2]).toBe(at(2));
    await jest.advanceTimersByTimeAsync(2_000);
    expect(received.slice(1).map((message) => [message.type, (message.data as ProposalChange).id])).toEqual([
      ['proposal.created', 'a'],
      ['proposal.updated', 'b'],
    ]);
    subscription.unsubscribe();
  });

  it('keeps the stream open when a poll fails, and ends it when the application shuts down', async () => {
    let completed = false;
    sut().open('user-1', visible).subscribe({ next: (message) => received.push(message), complete: () => (completed = true) });
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    query.mockRejectedValueOnce(new Error('connection lost for patient Jane Doe'));
    await jest.advanceTimersByTimeAsync(2_000);
    expect(JSON.stringify(warn.mock.calls)).not.toContain('Jane Doe'); // the error's kind is logged, never its message
    warn.mockRestore();
    query.mockResolvedValueOnce([change('a', at(1))]);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(received.map((message) => message.type ?? message.comment)).toEqual(['connected', 'proposal.created']);
    bus.onModuleDestroy();
    expect(completed).toBe(true);
  });

  it('ends with a last comment as soon as it is told its person was deactivated, asking the database rather than the notification', async () => {
    let completed = false;
    sut().open('user-1', visible).subscribe({ next: (message) => received.push(message), complete: () => (completed = true) });
    told.next('user-2'); // someone else's deactivation: not even checked
    await jest.advanceTimersByTimeAsync(0);
    expect(checks).toBe(0);
    told.next('user-1'); // a notification of a change that left them active (re-checked, not believed)
    await jest.advanceTimersByTimeAsync(0);
    expect(completed).toBe(false);
    active = false;
    told.next('user-1');
    await jest.advanceTimersByTimeAsync(0);
    expect(received.map((message) => message.comment ?? message.type)).toEqual(['connected', 'access ended']);
    expect(completed).toBe(true);
  });

  it('ends within one poll interval when the notification never came, and stays open while the check cannot be made', async () => {
    let completed = false;
    sut().open('user-1', visible).subscribe({ next: (message) => received.push(message), complete: () => (completed = true) });
    active = false;
    checkFails = true; // the database away: no answer is not a deactivation
    await jest.advanceTimersByTimeAsync(4_000);
    expect(completed).toBe(false);
    checkFails = false;
    await jest.advanceTimersByTimeAsync(2_000);
    expect(completed).toBe(true);
    expect(received.at(-1)).toEqual({ comment: 'access ended' });
  });
});
