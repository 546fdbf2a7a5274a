import { isPhiFieldName, REDACTED, redactPhi, toSafeError } from './log-redaction';

describe(redactPhi.name, () => {
  const patient = {
    id: '6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11',
    mrn: 'VGL-000123',
    given_name: 'Aiko',
    familyName: '山田',
    birthDate: '1966-06-30',
    phone: '555-0101',
    email: 'aiko@example.org',
    address_line: '1 Elm St',
    postal_code: '02139',
    deceased_at: null,
  };

  it.each(['mrn', 'given_name', 'familyName', 'birthDate', 'phone', 'email', 'address_line', 'postal_code', 'deceased_at'])(
    'replaces %s at any depth',
    (field) => {
      const sut = redactPhi({ a: { b: [{ patient }] } }) as { a: { b: Array<{ patient: Record<string, unknown> }> } };
      expect(sut.a.b[0].patient[field]).toBe(REDACTED);
    },
  );

  it('keeps non-identifying fields such as ids, codes and counts', () => {
    const sut = redactPhi({ patientId: patient.id, code: '4548-4', rows: 3 });
    expect(sut).toEqual({ patientId: patient.id, code: '4548-4', rows: 3 });
  });

  it('redacts note text even when it is a nested object', () => {
    const sut = redactPhi({ note: { text: 'pt reports…' }, notes: ['a', 'b'], text: 'free text' });
    expect(JSON.stringify(sut)).not.toMatch(/pt reports|free text|"a"/);
  });

  it('does not walk class instances, whose fields it cannot vouch for', () => {
    class PatientEntity {
      mrnValue = 'VGL-000123';
    }
    expect(redactPhi({ row: new PatientEntity(), at: new Date(0) })).toEqual({ row: '[PatientEntity]', at: new Date(0) });
  });

  it('does not modify its input', () => {
    const input = { mrn: 'VGL-1' };
    redactPhi(input);
    expect(input.mrn).toBe('VGL-1');
  });

  it('reduces an error to type, code and stack frames, dropping the message and its properties', () => {
    const error = Object.assign(new Error('duplicate key value violates unique constraint: Key (mrn)=(VGL-000123)'), {
      code: '23505',
      detail: 'Key (mrn)=(VGL-000123) already exists.',
      query: 'INSERT INTO patients …',
      parameters: ['VGL-000123', 'Aiko'],
    });
    const sut = redactPhi({ err: error });
    const serialised = JSON.stringify(sut);
    expect(serialised).not.toContain('VGL-000123');
    expect(serialised).not.toContain('INSERT');
    expect(sut).toEqual({ err: expect.objectContaining({ type: 'Error', code: '23505' }) });
  });

  it('ignores a code that is itself free text', () => {
    const error = Object.assign(new Error('x'), { code: 'patient Aiko not found' });
    expect(toSafeError(error).code).toBeUndefined();
  });

  it('normalises field names (case, underscores, dashes)', () => {
    expect(['MRN', 'Given-Name', 'POSTAL_CODE', 'noteText'].every(isPhiFieldName)).toBe(true);
    expect(['patientId', 'status', 'correlationId'].some(isPhiFieldName)).toBe(false);
  });
});
