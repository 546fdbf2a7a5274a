import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointKeyId, checkpointSignatureValid, DirectoryCheckpointStore, parseCheckpoint, signCheckpoint } from './audit-checkpoint';

const key = Buffer.alloc(32, 1);
const checkpoint = () => signCheckpoint({ seq: 12, eventId: '40', head: 'a'.repeat(64), count: 12, sealedAt: '2026-12-02T10:00:00.000Z' }, key);

describe(signCheckpoint.name, () => {
  it('signs every field, names the key without revealing it, and verifies under that key only', () => {
    const sut = checkpoint();
    expect(sut).toMatchObject({ version: 1, seq: 12, keyId: checkpointKeyId(key) });
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
  ])('fails when %s is changed after signing', (_field, change) => {
    expect(checkpointSignatureValid({ ...checkpoint(), ...change }, key)).toBe(false);
  });
});

describe(parseCheckpoint.name, () => {
  it('reads back what was written, and calls anything else unreadable', () => {
    const text = JSON.stringify(checkpoint());
    expect(parseCheckpoint('c.json', text)).toEqual({ name: 'c.json', checkpoint: checkpoint() });
    for (const bad of ['', '{', '[]', JSON.stringify({ ...checkpoint(), seq: '12' }), JSON.stringify({ ...checkpoint(), count: 11 }), JSON.stringify({ ...checkpoint(), head: 'x' })]) {
      expect(parseCheckpoint('c.json', bad)).toEqual({ name: 'c.json', unreadable: true });
    }
  });
});

describe(DirectoryCheckpointStore.name, () => {
  it('writes one file per seq, in seq order, replaces a rewritten seq, and leaves no temporary file', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'vigil-checkpoints-')), 'nested');
    const sut = new DirectoryCheckpointStore(dir);
    expect(await sut.list()).toEqual([]);
    const at = (seq: number) => signCheckpoint({ seq, eventId: String(seq), head: 'c'.repeat(64), count: seq, sealedAt: '2026-12-02T10:00:00.000Z' }, key);
    await sut.write(at(100));
    await sut.write(at(9));
    await sut.write(at(9));
    expect(readdirSync(dir)).toEqual(['checkpoint-00000000000000000009.json', 'checkpoint-00000000000000000100.json']);
    expect((await sut.list()).map((stored) => ('checkpoint' in stored ? stored.checkpoint.seq : stored.name))).toEqual([9, 100]);
    expect(JSON.parse(readFileSync(join(dir, 'checkpoint-00000000000000000100.json'), 'utf8'))).toEqual(at(100));
  });
});
