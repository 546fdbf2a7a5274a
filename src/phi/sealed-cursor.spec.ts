import { createHmac, randomBytes } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { NodeEnv } from '../config/environment.schema';
import { CURSOR_LIFETIME_MS, CursorBinding, cursorKeyOf, CursorSealer } from './sealed-cursor';

const SECRET = 'c'.repeat(64);
const sealerWith = (key: string) => new CursorSealer({ env: NodeEnv.Production, pseudonyms: { key, keyFile: 'unused' } } as AppConfig);
const BINDING: CursorBinding = { list: 'worklist', userId: 'd1a3c1f0-0000-4000-8000-000000000001', query: { careTeam: 'primary-care-north', status: 'open-gap', sort: 'name', order: 'asc' } };
const POSITION = { key1: "O'Brien-Núñez", key2: 'Siobhán', patientId: '6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11' };

describe(CursorSealer.name, () => {
  const sut = sealerWith(SECRET);
  afterEach(() => jest.restoreAllMocks());

  it('gives the position back for the binding it was sealed for, in any process sharing the secret', () => {
    const cursor = sut.seal(BINDING, POSITION);
    expect(sut.open(BINDING, cursor)).toEqual(POSITION);
    expect(sealerWith(SECRET).open(BINDING, cursor)).toEqual(POSITION);
    // The query's keys in another order, and an absent filter given as null, are the same query.
    expect(sut.open({ ...BINDING, query: { order: 'asc', sort: 'name', status: 'open-gap', careTeam: 'primary-care-north', measure: null } }, cursor)).toEqual(POSITION);
  });

  it('shows nothing of the position: not in the text, not in its bytes, and differently each time', () => {
    const cursor = sut.seal(BINDING, POSITION);
    const text = `${cursor} ${Buffer.from(cursor, 'base64url').toString('utf8')} ${Buffer.from(cursor, 'base64url').toString('latin1')}`;
    for (const value of ['Brien', 'Siobh', 'key1', POSITION.patientId, POSITION.patientId.slice(0, 8)]) expect(text).not.toContain(value);
    expect(sut.seal(BINDING, POSITION)).not.toBe(cursor);
  });

  it.each([
    ['another user', { ...BINDING, userId: 'd1a3c1f0-0000-4000-8000-000000000002' }],
    ['another list', { ...BINDING, list: 'proposals' }],
    ['another team', { ...BINDING, query: { ...BINDING.query, careTeam: 'primary-care-south' } }],
    ['another filter', { ...BINDING, query: { ...BINDING.query, status: 'closed-gap' } }],
    ['a filter removed', { ...BINDING, query: { ...BINDING.query, status: undefined } }],
    ['a filter added', { ...BINDING, query: { ...BINDING.query, measure: 'CMS122' } }],
    ['another order', { ...BINDING, query: { ...BINDING.query, order: 'desc' } }],
  ])('opens nothing for %s', (_case, other) => {
    expect(sut.open(other, sut.seal(BINDING, POSITION))).toBeNull();
  });

  it('opens nothing with one bit changed anywhere, cut short, extended or re-encoded', () => {
    const cursor = sut.seal(BINDING, POSITION);
    const bytes = Buffer.from(cursor, 'base64url');
    for (let at = 0; at < bytes.length; at++) {
      for (const bit of [0x01, 0x80]) {
        const changed = Buffer.from(bytes);
        changed[at] ^= bit;
        expect({ at, bit, opened: sut.open(BINDING, changed.toString('base64url')) }).toEqual({ at, bit, opened: null });
      }
    }
    for (const forged of [cursor.slice(0, -1), cursor.slice(0, -6), cursor.slice(0, 20), `${cursor}A`, `${cursor}AAAA`, `${cursor}=`, cursor.replace(/-/g, '+').replace(/_/g, '/'), '', 'A']) {
      expect({ forged, opened: sut.open(BINDING, forged) }).toEqual({ forged, opened: null });
    }
  });

  it('opens nothing sealed under another secret, and never uses the secret itself as the key', () => {
    expect(sealerWith('d'.repeat(64)).open(BINDING, sut.seal(BINDING, POSITION))).toBeNull();
    expect(cursorKeyOf(Buffer.from(SECRET, 'hex')).equals(Buffer.from(SECRET, 'hex'))).toBe(false);
    // Nor the pseudonyms' HMAC under it: a cursor key and a pseudonym are unrelated.
    expect(cursorKeyOf(Buffer.from(SECRET, 'hex')).toString('hex')).not.toBe(createHmac('sha256', Buffer.from(SECRET, 'hex')).update('vigil cursor key v1').digest('hex'));
  });

  it('opens nothing random, nor the base64 JSON a keyset cursor used to be', () => {
    for (let i = 0; i < 200; i++) expect(sut.open(BINDING, randomBytes(1 + (i % 120)).toString('base64url'))).toBeNull();
    const oldForms = [
      ['name', 'asc', "O'Brien-Núñez", 'Siobhán', POSITION.patientId],
      ['age', 'asc', '2026-13-45', null, POSITION.patientId],
      ['age', 'asc', '0000-00-00', null, POSITION.patientId],
      ['name', 'asc', 'A\u0000', 'B', POSITION.patientId],
    ];
    for (const parts of oldForms) expect(sut.open(BINDING, Buffer.from(JSON.stringify(parts)).toString('base64url'))).toBeNull();
  });

  it('opens nothing once its lifetime has passed', () => {
    const issuedAt = Date.now();
    const now = jest.spyOn(Date, 'now').mockReturnValue(issuedAt);
    const cursor = sut.seal(BINDING, POSITION);
    now.mockReturnValue(issuedAt + CURSOR_LIFETIME_MS);
    expect(sut.open(BINDING, cursor)).toEqual(POSITION);
    now.mockReturnValue(issuedAt + CURSOR_LIFETIME_MS + 1);
    expect(sut.open(BINDING, cursor)).toBeNull();
  });
});
