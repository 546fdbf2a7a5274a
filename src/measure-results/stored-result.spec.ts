import { resultContentHash, ResultRowInput } from './stored-result';

type Hashed = Omit<ResultRowInput, 'content_hash' | 'measure_package_id'>;

const row: Hashed = {
  patient_id: '00000000-0000-4000-8000-000000000001',
  measure_id: 'CMS122',
  period_start: '2025-07-01',
  period_end: '2026-06-30',
  status: 'open-gap',
  reason_code: 'numerator:no-glycemic-assessment',
  reason: 'No HbA1c in the period.',
  populations: [],
  evidence: ['enc:1'],
  to_close: 'An HbA1c result.',
  data_quality: [],
  partial: false,
  data_version: '7',
  last_evidence_on: '2026-01-02',
};

/** A different value for every field the hash covers. */
const changes: Partial<Hashed>[] = [
  { patient_id: '00000000-0000-4000-8000-000000000002' },
  { measure_id: 'CMS165' },
  { period_start: '2025-07-02' },
  { period_end: '2026-07-01' },
  { status: 'closed-gap' },
  { reason_code: 'numerator:met' },
  { reason: 'An HbA1c of 6.1 %.' },
  { populations: [{ id: 'main' }] as unknown as Hashed['populations'] },
  { evidence: ['enc:1', 'obs:2'] },
  { to_close: 'Nothing.' },
  { data_quality: [{ note: 'x' }] as unknown as Hashed['data_quality'] },
  { partial: true },
  { last_evidence_on: null },
];

describe('resultContentHash', () => {
  it('is a SHA-256 in hex, the same for the same content', () => {
    expect(resultContentHash(row)).toMatch(/^[0-9a-f]{64}$/);
    expect(resultContentHash({ ...row })).toBe(resultContentHash(row));
  });

  it.each(changes.map((change) => [Object.keys(change)[0], change]))('changes with %s', (_field, change) => {
    expect(resultContentHash({ ...row, ...change })).not.toBe(resultContentHash(row));
  });

  it('ignores the data version it was computed from (a stamp sets that)', () => {
    expect(resultContentHash({ ...row, data_version: '8' })).toBe(resultContentHash(row));
  });
});
