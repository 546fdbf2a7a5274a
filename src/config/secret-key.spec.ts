import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeEnv } from './environment.schema';
import { loadSecretKey } from './secret-key';

const source = (keyFile: string, overrides = {}) => ({ env: NodeEnv.Development, keyFile, name: 'AUDIT_CHECKPOINT_KEY', whyRequired: 'test', ...overrides });

describe(loadSecretKey.name, () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-secret-key-'));

  it('creates a missing key file outside production and reads the same key back', () => {
    const file = join(dir, 'created', 'key');
    const key = loadSecretKey(source(file));
    expect(key).toHaveLength(32);
    expect(loadSecretKey(source(file))).toEqual(key);
    expect(Buffer.from(readFileSync(file, 'utf8'), 'base64')).toEqual(key);
  });

  it('prefers the inline key, hex or base64', () => {
    expect(loadSecretKey(source(join(dir, 'unused'), { key: 'ab'.repeat(32) }))).toEqual(Buffer.alloc(32, 0xab));
    expect(existsSync(join(dir, 'unused'))).toBe(false);
  });

  it('never creates a key for a reader (create: false) nor in production, naming the variables only', () => {
    expect(() => loadSecretKey(source(join(dir, 'missing'), { create: false }))).toThrow('AUDIT_CHECKPOINT_KEY is not set and AUDIT_CHECKPOINT_KEY_FILE does not exist');
    expect(() => loadSecretKey(source(join(dir, 'missing'), { env: NodeEnv.Production }))).toThrow(/AUDIT_CHECKPOINT_KEY \(or an existing AUDIT_CHECKPOINT_KEY_FILE\) is required in production/);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('refuses a key shorter than 32 bytes', () => {
    const file = join(dir, 'short');
    writeFileSync(file, Buffer.alloc(16).toString('base64'));
    expect(() => loadSecretKey(source(file))).toThrow('AUDIT_CHECKPOINT_KEY_FILE: the key must be at least 32 bytes');
  });
});
