import { elicitsForms, notChosenMessage, patientForm, patientLabel, pickerAnswer } from './patient-picker';

const ADA = { handle: 'd08ca70f-acd8-585e-b29a-c424328ef2a1', familyName: 'Okoro', givenName: 'Ada', mrn: 'VGL-000101', birthDate: '1961-04-02', age: 65, sex: 'female' };
const BEN = { handle: '5b0c6f0e-4c0f-4f43-9a57-4b7d0b7b2c11', familyName: 'Ng', givenName: 'Ben', mrn: 'VGL-000102', birthDate: '1990-12-31', age: 35, sex: 'male' };

describe('the patient picker', () => {
  it.each([
    ['a 2025-06-18 client (elicitation: {})', { elicitation: {} }, true],
    ['a client that names form mode', { elicitation: { form: {} } }, true],
    ['a client that shows forms and opens URLs', { elicitation: { form: {}, url: {} } }, true],
    ['a client that only opens URLs', { elicitation: { url: {} } }, false],
    ['a client without elicitation', { sampling: {} }, false],
    ['no capabilities at all', undefined, false],
  ])('knows whether %s shows forms', (_name, capabilities, shows) => {
    expect(elicitsForms(capabilities as never)).toBe(shows);
  });

  it('names each patient by what the projection let through, and says a withheld name is withheld', () => {
    expect(patientLabel(ADA)).toBe('Okoro, Ada · MRN VGL-000101 · born 1961-04-02 · (65, female)');
    expect(patientLabel({ handle: ADA.handle, age: 65, sex: 'female' })).toBe('Name withheld · (65, female)');
  });

  it('offers positions, never ids, titled by protocol version, and says when the list was cut', () => {
    const current = patientForm([ADA, BEN], false, '2025-11-25') as unknown as Record<string, unknown>;
    expect(current).toEqual({
      mode: 'form',
      message: expect.stringMatching(/^Vigil: choose the patient this session is about\..*cannot choose or change it\. Your care teams' patients, by name\.$/),
      requestedSchema: {
        type: 'object',
        properties: { patient: { type: 'string', title: 'Patient', oneOf: [{ const: '1', title: patientLabel(ADA) }, { const: '2', title: patientLabel(BEN) }] } },
        required: ['patient'],
      },
    });
    const older = patientForm([ADA, BEN], true, '2025-06-18') as unknown as { mode?: string; message: string; requestedSchema: { properties: { patient: Record<string, unknown> } } };
    expect(older.mode).toBeUndefined();
    expect(older.requestedSchema.properties.patient).toEqual({ type: 'string', title: 'Patient', enum: ['1', '2'], enumNames: [patientLabel(ADA), patientLabel(BEN)] });
    expect(older.message).toMatch(/first 2 patients by name; for another, open a session for that patient \(the bridge's --patient <id>, or the URL \/mcp\/patients\/<id>\)/);
    expect(JSON.stringify([current, older])).not.toContain(ADA.handle);
  });

  it.each([
    ['an accepted listed position', { result: { action: 'accept', content: { patient: '2' } } }, { index: 1 }],
    ['a position past the list', { result: { action: 'accept', content: { patient: '3' } } }, { ended: 'invalid' }],
    ['position zero', { result: { action: 'accept', content: { patient: '0' } } }, { ended: 'invalid' }],
    ['a patient id instead of a position', { result: { action: 'accept', content: { patient: ADA.handle } } }, { ended: 'invalid' }],
    ['a number instead of a string', { result: { action: 'accept', content: { patient: 1 } } }, { ended: 'invalid' }],
    ['an acceptance without content', { result: { action: 'accept' } }, { ended: 'invalid' }],
    ['a decline', { result: { action: 'decline' } }, { ended: 'decline' }],
    ['a dismissal', { result: { action: 'cancel' } }, { ended: 'cancel' }],
    ['an unknown action', { result: { action: 'maybe' } }, { ended: 'invalid' }],
    ['a JSON-RPC error', { error: { code: -32601, message: 'Method not found' } }, { ended: 'error' }],
  ])('reads %s', (_name, answer, expected) => {
    expect(pickerAnswer({ jsonrpc: '2.0', id: 'vigil-patient-1', ...answer } as never, 2)).toEqual(expected);
  });

  it('tells the person why no patient was chosen and how to go on', () => {
    for (const ended of ['decline', 'cancel', 'invalid', 'error', 'timeout', 'refused', 'failed', 'something else']) {
      expect(notChosenMessage(ended)).toMatch(/^No patient was chosen \([A-Za-z ]+\), so this session reads no one\. List or call a tool again to choose, or open a session for one patient/);
    }
  });
});
