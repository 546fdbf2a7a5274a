import { createHash } from 'node:crypto';
import { callKey } from '../model-tools/tool-arguments';
import { governanceChanges, restoreGovernance, StoredGovernance } from './session-governance';

const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

describe('session governance', () => {
  const stored: StoredGovernance = {
    calls: 3,
    callsPerTool: { patient_labs: 2 },
    failedCalls: [digest(callKey('patient_labs', { lonic: [] }))],
    citable: ['obs:00000000-0000-4000-8000-000000000001'],
  };

  it('restores what the runner checks: counts, citable ids, and failed calls recognised by their key', () => {
    const sut = restoreGovernance(stored, new Map(), 'patient-1');
    expect(sut.callsPerTool.get('patient_labs')).toBe(2);
    expect(sut.citations.citable.has('obs:00000000-0000-4000-8000-000000000001')).toBe(true);
    expect(sut.failedCalls.has(callKey('patient_labs', { lonic: [] }))).toBe(true);
    expect(sut.failedCalls.has(callKey('patient_labs', { lonic: ['x'] }))).toBe(false);
  });

  it('hands the store only what the call added, failed calls as digests and never their arguments', () => {
    const sut = restoreGovernance(stored, new Map(), 'patient-1');
    sut.callsPerTool.set('patient_labs', 3);
    sut.failedCalls.add(callKey('patient_labs', { name: 'Okafor, Jane' }));
    sut.citations.citable.add('obs:00000000-0000-4000-8000-000000000002');
    const changes = governanceChanges(stored, sut, 'patient_labs');
    expect(changes).toEqual({
      raisedTool: 'patient_labs',
      failedCalls: [digest(callKey('patient_labs', { name: 'Okafor, Jane' }))],
      citable: ['obs:00000000-0000-4000-8000-000000000002'],
    });
    expect(JSON.stringify(changes)).not.toContain('Okafor');
  });

  it('raises no count for a call governance refused before counting', () => {
    const sut = restoreGovernance(stored, new Map(), 'patient-1');
    expect(governanceChanges(stored, sut, 'patient_labs')).toEqual({ raisedTool: null, failedCalls: [], citable: [] });
    expect(governanceChanges(stored, sut, 'no_such_tool').raisedTool).toBeNull();
  });
});
