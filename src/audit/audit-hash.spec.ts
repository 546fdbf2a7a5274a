import fc from 'fast-check';
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

  it('keeps a `__proto__` key as a member, at any depth (an assigned copy would set its prototype and drop it)', () => {
    const value = JSON.parse('{"b":1,"__proto__":"x","a":{"__proto__":{"c":2}}}') as never;
    expect(canonicalJson(value)).toBe('{"__proto__":"x","a":{"__proto__":{"c":2}},"b":1}');
  });

  it('writes array-index keys in sorted order too, not in the order V8 lists them', () => {
    expect(canonicalJson({ b: 1, 10: 2, 9: 3, a: { 1: 'x', 0: 'y' } } as never)).toBe('{"10":2,"9":3,"a":{"0":"y","1":"x"},"b":1}');
  });

  it('gives the bytes of the definition, members written one by one in sorted key order (property)', () => {
    // The definition, written out: what every stored hash was computed with.
    const reference = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
      if (value !== null && typeof value === 'object') {
        const record = value as Record<string, unknown>;
        return `{${Object.keys(record).sort().map((key) => `${JSON.stringify(key)}:${reference(record[key])}`).join(',')}}`;
      }
      return JSON.stringify(value);
    };
    const keys = fc.oneof(fc.string(), fc.constantFrom('0', '1', '10', '9', '01', '-1', '4294967295', '4294967294', 'é', '\u2028', '__proto__'));
    const values = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.maxSafeInteger(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(keys, tie('value'), { maxKeys: 5 }),
      ),
    })).value;
    fc.assert(fc.property(values, (value) => canonicalJson(value as never) === reference(value)), { numRuns: 3000 });
    expect(canonicalJson({ ...event })).toBe(reference({ ...event }));
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

describe('hash version 3', () => {
  const v2: AuditEventContent = { ...event, hashVersion: 2, channel: AuditChannel.Cli, breakGlass: false, actorName: 'it.admin' };
  const v3: AuditEventContent = { ...v2, hashVersion: 3, targetStaffId: null, targetCareTeamId: null };

  it('covers the version and the targets, so a version-3 event never hashes like its version-2 form, even without targets', () => {
    expect(auditEventHash(v3)).not.toBe(auditEventHash(v2));
  });

  it.each<Partial<AuditEventContent>>([{ targetStaffId: '6f1c2a3b-0000-4000-8000-000000000001' }, { targetCareTeamId: '6f1c2a3b-0000-4000-8000-000000000002' }])('changes when %o changes', (change) => {
    expect(auditEventHash({ ...v3, ...change } as AuditEventContent)).not.toBe(auditEventHash(v3));
  });
});

describe(toAuditTimestamp.name, () => {
  it('writes UTC with microseconds, the precision Postgres stores', () => {
    expect(toAuditTimestamp(new Date('2026-06-30T11:00:00.123+02:00'))).toBe('2026-06-30T09:00:00.123000Z');
  });
});
