import { AuditEventInput, AuditRecordError, normaliseAuditEvent } from './audit-event.input';
import { AuditChannel, AuditOutcome } from './enum';

const input: AuditEventInput = {
  actorId: '6F1C2A3B-0000-4000-8000-000000000001',
  actorRole: 'clinician',
  patientId: '9a8b7c6d-0000-4000-8000-000000000002',
  action: 'patient_labs',
  fields: ['code', 'value'],
  rowCount: 2,
  outcome: AuditOutcome.Success,
  correlationId: null,
  channel: AuditChannel.Rest,
};

describe(normaliseAuditEvent.name, () => {
  it('writes UUIDs in lower case, as Postgres prints them, and absent optional fields as null', () => {
    expect(normaliseAuditEvent(input)).toEqual({
      actorId: '6f1c2a3b-0000-4000-8000-000000000001',
      actorRole: 'clinician',
      patientId: '9a8b7c6d-0000-4000-8000-000000000002',
      action: 'patient_labs',
      fields: ['code', 'value'],
      rowCount: 2,
      outcome: 'success',
      breakGlassReason: null,
      correlationId: null,
      hashVersion: 3,
      channel: 'rest',
      breakGlass: false,
      actorName: null,
      targetStaffId: null,
      targetCareTeamId: null,
    });
  });

  it('names the targets of an administrative change by id, in lower case', () => {
    const event = normaliseAuditEvent({ ...input, targetStaffId: '6F1C2A3B-0000-4000-8000-00000000000A', targetCareTeamId: '6f1c2a3b-0000-4000-8000-00000000000b' });
    expect(event).toMatchObject({ targetStaffId: '6f1c2a3b-0000-4000-8000-00000000000a', targetCareTeamId: '6f1c2a3b-0000-4000-8000-00000000000b' });
  });

  it('accepts an unauthenticated access: no actor, no role, no patient', () => {
    const event = normaliseAuditEvent({ ...input, actorId: null, actorRole: null, patientId: null, outcome: AuditOutcome.Unauthenticated });
    expect(event).toMatchObject({ actorId: null, actorRole: null, patientId: null });
  });

  const secret = 'Jane Doe 555-0100';
  it.each<[string, Partial<AuditEventInput>]>([
    ['a patient id that is not a UUID', { patientId: secret }],
    ['an actor id that is not a UUID', { actorId: `{${input.patientId}}` }],
    ['a negative row count', { rowCount: -1 }],
    ['a fractional row count', { rowCount: 1.5 }],
    ['a row count beyond int4', { rowCount: 2 ** 31 }],
    ['an unknown outcome', { outcome: secret as AuditOutcome }],
    ['an empty action', { action: '' }],
    ['an empty break-glass reason', { breakGlassReason: '' }],
    ['text holding NUL', { breakGlassReason: `${secret}\u0000` }],
    ['text holding a lone surrogate', { correlationId: `${secret}\uD800` }],
    ['a field name that is not text', { fields: [7 as unknown as string] }],
    ['an unknown channel', { channel: secret as AuditChannel }],
    ['a target that is a name, not an id', { targetStaffId: secret }],
    ['a target team that is a code, not an id', { targetCareTeamId: 'cardiology-east' }],
    ['a break-glass access without its reason', { breakGlass: true, breakGlassReason: null }],
    ['a break-glass flag that is not a boolean', { breakGlass: 'yes' as unknown as boolean }],
  ])('refuses %s, without quoting the value', (_case, change) => {
    let error: unknown;
    try {
      normaliseAuditEvent({ ...input, ...change });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AuditRecordError);
    expect((error as Error).message).not.toContain('Jane');
  });
});
