import { compareTrails, trailIdentity, trailIdOf } from './audit-trail-identity';

const own = trailIdentity({ systemIdentifier: '7716112755545800746', databaseOid: '16384', installationId: '3f2c1d7e-8a6b-4c5d-9e0f-1a2b3c4d5e6f' });
const installation = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

describe(compareTrails.name, () => {
  it.each([
    ['the same trail', own, 'same'],
    ['another database of the same server (or a clone of this one)', trailIdentity({ ...own, databaseOid: '16385' }), 'other'],
    ['a database of another server (or a restore elsewhere)', trailIdentity({ ...own, systemIdentifier: '7716112755545800747' }), 'other'],
    ['another server and installation', trailIdentity({ systemIdentifier: '1', databaseOid: '5', installationId: installation }), 'other'],
    ['this database under another installation id', trailIdentity({ ...own, installationId: installation }), 'replaced'],
  ] as const)('%s: %s', (_case, theirs, relation) => {
    expect(compareTrails(own, theirs)).toBe(relation);
  });

  it('cannot tell a replaced installation id from another database where the server identifier is unknown', () => {
    const unknown = trailIdentity({ ...own, systemIdentifier: null });
    expect(compareTrails(unknown, trailIdentity({ ...unknown, installationId: installation }))).toBe('other');
  });
});

describe(trailIdOf.name, () => {
  it('is 16 hex digits that change with every part', () => {
    const ids = new Set([own, trailIdentity({ ...own, systemIdentifier: null }), trailIdentity({ ...own, databaseOid: '1' }), trailIdentity({ ...own, installationId: installation })].map((trail) => trail.id));
    expect(ids.size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
  });
});
