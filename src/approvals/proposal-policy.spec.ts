import { ProposalKind } from './enum';
import { KIND_POLICY } from './proposal-policy';

describe('KIND_POLICY identity', () => {
  const identity = (kind: ProposalKind, content: Record<string, unknown>) => KIND_POLICY[kind].identity(content);

  it.each([
    [ProposalKind.CloseCareGap, { measureId: 'CMS122', remarkCode: 'performed-elsewhere' }, { measureId: 'CMS122' }],
    [ProposalKind.CloseCareGap, { measureId: 'KHE' }, { measureId: 'CMS951' }],
    [ProposalKind.OrderLab, { loincCode: '4548-4', priority: 'routine', reason: 'Overdue' }, { loincCode: '4548-4', priority: 'urgent', reason: 'Worse' }],
    [ProposalKind.AddCareNote, { noteType: 'care-plan', text: 'Same words.' }, { noteType: 'follow-up', text: 'Same words.' }],
    [ProposalKind.ScheduleOutreach, { channel: 'phone', dueDate: '2026-07-15', reason: 'A' }, { channel: 'phone', dueDate: '2026-07-15', reason: 'B' }],
  ])('%s: the same thing however worded is one identity', (kind, first, second) => {
    expect(identity(kind, first)).toBe(identity(kind, second));
  });

  it.each([
    [ProposalKind.CloseCareGap, { measureId: 'CMS122' }, { measureId: 'CMS165' }],
    [ProposalKind.OrderLab, { loincCode: '4548-4' }, { loincCode: '2093-3' }],
    [ProposalKind.AddCareNote, { text: 'One note.' }, { text: 'Another note.' }],
    [ProposalKind.ScheduleOutreach, { channel: 'phone', dueDate: '2026-07-15' }, { channel: 'letter', dueDate: '2026-07-15' }],
    [ProposalKind.ScheduleOutreach, { channel: 'phone', dueDate: '2026-07-15' }, { channel: 'phone', dueDate: '2026-07-16' }],
  ])('%s: different things are different identities', (kind, first, second) => {
    expect(identity(kind, first)).not.toBe(identity(kind, second));
  });

  it('stores a note as a hash, never its text', () => {
    const key = identity(ProposalKind.AddCareNote, { text: 'Patient Jane Doe called.' });
    expect(key).toMatch(/^note:[0-9a-f]{64}$/);
    expect(key).not.toContain('Jane');
  });
});
