import { auditEventHash, AuditEventContent, canonicalJson, GENESIS_HASH, toAuditTimestamp } from './audit-hash';
import { AuditChannel, AuditOutcome } from './enum';

const event: AuditEventContent = {
  occurredAt: '2026-06-30T09:00:00.123000Z',
  actorId: '6f1c2a3b-0000-4000-8000-000000000001',
  actorRole: 'clinician',
  patientId: '9a8b7c6d-0000-4000-8000-000000000002',
  action: 'patient_labs',
  fields: ['code', 'value'],
  rowCount: 2,
  outcome: AuditOutcome.Success,
  breakGlassReason: null,
  correlationId: 'req-1',
  prevHash: GENESIS_HASH,
};

describe(canonicalJson.name, () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: null } })).toBe('{"a":{"c":null,"d":[3,1]},"b":1}');
  });

  it('is the same whatever order the keys were written in', () => {
    const reversed = Object.fromEntries(Object.entries(event).reverse()) as unknown as AuditEventContent;
    expect(canonicalJson({ ...reversed })).toBe(canonicalJson({ ...event }));
  });

  it('keeps array order: it is data', () => {
    expect(canonicalJson(['b', 'a'])).toBe('["b","a"]');
  });

  it('escapes strings as JSON does, so a value cannot break out of its field', () => {
    expect(canonicalJson({ k: 'a"\n\\é' })).toBe('{"k":"a\\"\\n\\\\é"}');
  });

  it('refuses values whose text form is not stable', () => {
    expect(() => canonicalJson({ k: 1.5 })).toThrow(TypeError);
    expect(() => canonicalJson({ k: Number.MAX_SAFE_INTEGER + 1 })).toThrow(TypeError);
    expect(() => canonicalJson({ k: undefined as unknown as null })).toThrow(TypeError);
  });
});

describe(auditEventHash.name, () => {
  it('is sha256_hex(prevHash + "\\n" + canonical JSON), pinned by a vector computed with sha256sum', () => {
    expect(auditEventHash(event)).toBe('3137efb007b350fa0609edebe5a2a10456f4efc77b8f0ec470ac9f0324f3913d');
  });

  it('starts the chain from 64 zeros', () => {
    expect(GENESIS_HASH).toMatch(/^0{64}$/);
  });

  const changes: Partial<AuditEventContent>[] = [
    { occurredAt: '2026-06-30T09:00:00.123001Z' },
    { actorId: null },
    { actorRole: 'analyst' },
    { patientId: null },
    { action: 'patient_encounters' },
    { fields: ['value', 'code'] },
    { fields: ['code'] },
    { rowCount: 3 },
    { outcome: AuditOutcome.Denied },
    { breakGlassReason: 'unconscious in ED' },
    { correlationId: null },
    { prevHash: 'f'.repeat(64) },
  ];
  it.each(changes)('changes when any hashed field changes: %o', (change) => {
    expect(auditEventHash({ ...event, ...change })).not.toBe(auditEventHash(event));
  });

  it('tells null apart from the string "null" and from an empty list', () => {
    expect(auditEventHash({ ...event, correlationId: 'null' })).not.toBe(auditEventHash({ ...event, correlationId: null }));
    expect(auditEventHash({ ...event, fields: [] })).not.toBe(auditEventHash({ ...event, fields: [''] }));
  });
});

describe('hash version 2', () => {
  const v2: AuditEventContent = { ...event, hashVersion: 2, channel: AuditChannel.Rest, breakGlass: false, actorName: null };

  it('covers the version and its columns, so a version-2 event never hashes like its version-1 form', () => {
    expect(auditEventHash(v2)).not.toBe(auditEventHash(event));
  });

  it.each<Partial<AuditEventContent>>([{ channel: AuditChannel.Agent }, { breakGlass: true }, { actorName: 'root' }])('changes when %o changes', (change) => {
    expect(auditEventHash({ ...v2, ...change } as AuditEventContent)).not.toBe(auditEventHash(v2));
  });
});

describe(toAuditTimestamp.name, () => {
  it('writes UTC with microseconds, the precision Postgres stores', () => {
    expect(toAuditTimestamp(new Date('2026-06-30T11:00:00.123+02:00'))).toBe('2026-06-30T09:00:00.123000Z');
  });
});
