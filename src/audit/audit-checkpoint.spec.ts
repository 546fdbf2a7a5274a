import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CheckpointExistsError,
  checkpointFileName,
  checkpointKeyId,
  checkpointSignatureValid,
  DirectoryCheckpointStore,
  parseCheckpoint,
  signCheckpoint,
} from './audit-checkpoint';
import { trailIdentity } from './audit-trail-identity';

const key = Buffer.alloc(32, 1);
const trail = trailIdentity({ systemIdentifier: '7716112755545800746', databaseOid: '16384', installationId: '3f2c1d7e-8a6b-4c5d-9e0f-1a2b3c4d5e6f' });
const otherTrail = trailIdentity({ ...trail, databaseOid: '16385' });
const checkpoint = (over = {}) => signCheckpoint({ trail, seq: 12, eventId: '40', head: 'a'.repeat(64), count: 12, sealedAt: '2026-12-02T10:00:00.000Z', ...over }, key);

describe(signCheckpoint.name, () => {
  it('signs every field, the trail included, names the key without revealing it, and verifies under that key only', () => {
    const sut = checkpoint();
    expect(sut).toMatchObject({ version: 2, trail, seq: 12, keyId: checkpointKeyId(key) });
    expect(sut.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(checkpointSignatureValid(sut, key)).toBe(true);
    expect(checkpointSignatureValid(sut, Buffer.alloc(32, 2))).toBe(false);
  });

  it.each([
    ['seq', { seq: 13, count: 13 }],
    ['eventId', { eventId: '41' }],
    ['head', { head: 'b'.repeat(64) }],
    ['sealedAt', { sealedAt: '2026-12-02T10:00:00.001Z' }],
    ['keyId', { keyId: '0'.repeat(16) }],
    ['signature', { signature: 'zz' }],
    ['trail', { trail: otherTrail }],
    ['trail system identifier', { trail: { ...trail, systemIdentifier: null } }],
    ['trail installation id', { trail: { ...trail, installationId: otherTrail.installationId.replace('3f', '4f') } }],
  ])('fails when %s is changed after signing', (_field, change) => {
    expect(checkpointSignatureValid({ ...checkpoint(), ...change }, key)).toBe(false);
  });
});

describe(parseCheckpoint.name, () => {
  it('reads back what was written; a version-1 checkpoint names no trail; anything else is unreadable', () => {
    const text = JSON.stringify(checkpoint());
    expect(parseCheckpoint('c.json', text)).toEqual({ name: 'c.json', checkpoint: checkpoint() });
    const { trail: _trail, ...unnamed } = checkpoint();
    expect(parseCheckpoint('c.json', JSON.stringify({ ...unnamed, version: 1 }))).toEqual({ name: 'c.json', unattributed: true });
    for (const bad of [
      '',
      '{',
      '[]',
      'null',
      JSON.stringify({ ...checkpoint(), seq: '12' }),
      JSON.stringify({ ...checkpoint(), count: 11 }),
      JSON.stringify({ ...checkpoint(), head: 'x' }),
      JSON.stringify({ ...unnamed, version: 2 }),
      // A trail whose id is not the one its parts give cannot name it.
      JSON.stringify({ ...checkpoint(), trail: { ...trail, id: otherTrail.id } }),
      JSON.stringify({ ...checkpoint(), trail: { ...trail, databaseOid: 16384 } }),
    ]) {
      expect(parseCheckpoint('c.json', bad)).toEqual({ name: 'c.json', unreadable: true });
    }
  });
});

describe(DirectoryCheckpointStore.name, () => {
  const at = (seq: number, of = trail, sealedAt = '2026-12-02T10:00:00.000Z') =>
    signCheckpoint({ trail: of, seq, eventId: String(seq), head: 'c'.repeat(64), count: seq, sealedAt }, key);
  const seqs = (stored: Awaited<ReturnType<DirectoryCheckpointStore['list']>>) =>
    stored.map((entry) => ('checkpoint' in entry ? `${entry.checkpoint.trail.id}:${entry.checkpoint.seq}` : entry.name));

  it('writes each trail in its own subdirectory, one file per seq named by trail and seq, and leaves no temporary file', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'vigil-checkpoints-')), 'nested');
    const sut = new DirectoryCheckpointStore(dir);
    expect(await sut.list()).toEqual([]);
    await sut.write(at(100));
    await sut.write(at(9));
    await sut.write(at(9, otherTrail));
    expect(readdirSync(dir).sort()).toEqual([trail.id, otherTrail.id].sort());
    expect(readdirSync(join(dir, trail.id))).toEqual([checkpointFileName(trail.id, 9), checkpointFileName(trail.id, 100)]);
    expect(checkpointFileName(trail.id, 9)).toBe(`checkpoint-${trail.id}-00000000000000000009.json`);
    expect(seqs(await sut.list({ trailId: trail.id }))).toEqual([`${trail.id}:9`, `${trail.id}:100`]);
    expect(seqs(await sut.list()).sort()).toEqual([`${trail.id}:9`, `${trail.id}:100`, `${otherTrail.id}:9`].sort());
    expect(JSON.parse(readFileSync(join(dir, trail.id, checkpointFileName(trail.id, 100)), 'utf8'))).toEqual(at(100));
  });

  it('never overwrites: a second checkpoint of the same trail and seq is refused and the stored one stays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-checkpoints-'));
    const sut = new DirectoryCheckpointStore(dir);
    await sut.write(at(5));
    await expect(sut.write(at(5, trail, '2026-12-03T10:00:00.000Z'))).rejects.toEqual(new CheckpointExistsError(trail.id, 5));
    expect(JSON.parse(readFileSync(join(dir, trail.id, checkpointFileName(trail.id, 5)), 'utf8'))).toEqual(at(5));
    expect(readdirSync(join(dir, trail.id))).toEqual([checkpointFileName(trail.id, 5)]);
  });

  it('lists the version-1 files at the top with every trail, and none of them for one trail', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-checkpoints-'));
    const sut = new DirectoryCheckpointStore(dir);
    await sut.write(at(1));
    const { trail: _trail, ...unnamed } = at(3);
    writeFileSync(join(dir, `checkpoint-${'3'.padStart(20, '0')}.json`), JSON.stringify({ ...unnamed, version: 1 }));
    writeFileSync(join(dir, 'notes.txt'), 'not listed');
    expect(await sut.list()).toEqual([
      { name: `checkpoint-${'3'.padStart(20, '0')}.json`, unattributed: true },
      { name: `${trail.id}/${checkpointFileName(trail.id, 1)}`, checkpoint: at(1) },
    ]);
    expect(await sut.list({ trailId: trail.id })).toEqual([{ name: `${trail.id}/${checkpointFileName(trail.id, 1)}`, checkpoint: at(1) }]);
  });
});
