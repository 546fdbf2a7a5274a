import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { NodeEnv } from '../config/environment.schema';
import { loadPseudonymKey, PseudonymService } from './pseudonyms';

const PATIENT = '6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11';
const config = (env: NodeEnv, pseudonyms: AppConfig['pseudonyms']) => ({ env, pseudonyms }) as AppConfig;

describe(PseudonymService.name, () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-pseudonyms-'));

  it('gives a patient the same handle in every process that shares the key, and never the id', () => {
    const keyFile = join(dir, 'shared-key');
    const first = new PseudonymService(config(NodeEnv.Development, { keyFile }));
    // A second process (or the same one after a restart) reads the key file the first one created.
    const second = new PseudonymService(config(NodeEnv.Development, { keyFile }));
    expect(second.patientHandle(PATIENT)).toBe(first.patientHandle(PATIENT));
    expect(first.patientHandle(PATIENT)).toMatch(/^pt_[0-9a-f]{20}$/);
    expect(first.patientHandle(PATIENT)).not.toContain(PATIENT.slice(0, 8));
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  it('gives different handles under different keys and to different patients', () => {
    const a = new PseudonymService(config(NodeEnv.Development, { key: 'a'.repeat(64), keyFile: join(dir, 'unused') }));
    const b = new PseudonymService(config(NodeEnv.Development, { key: 'b'.repeat(64), keyFile: join(dir, 'unused') }));
    expect(a.patientHandle(PATIENT)).not.toBe(b.patientHandle(PATIENT));
    expect(a.patientHandle(PATIENT)).not.toBe(a.patientHandle('6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d12'));
  });

  it('reads a configured key as hex or base64, the same bytes either way', () => {
    const bytes = Buffer.alloc(32, 7);
    const hex = new PseudonymService(config(NodeEnv.Production, { key: bytes.toString('hex'), keyFile: join(dir, 'none') }));
    const base64 = new PseudonymService(config(NodeEnv.Production, { key: bytes.toString('base64'), keyFile: join(dir, 'none') }));
    expect(hex.patientHandle(PATIENT)).toBe(base64.patientHandle(PATIENT));
  });

  it('refuses to start in production without a key, and refuses a short key file', () => {
    expect(() => loadPseudonymKey(config(NodeEnv.Production, { keyFile: join(dir, 'missing') }))).toThrow(/PSEUDONYM_KEY/);
    const short = join(dir, 'short');
    writeFileSync(short, Buffer.alloc(8).toString('base64'));
    expect(() => loadPseudonymKey(config(NodeEnv.Development, { keyFile: short }))).toThrow(/at least 32 bytes/);
    expect(readFileSync(short, 'utf8')).toBe(Buffer.alloc(8).toString('base64'));
  });

  it('computes a patient’s handle once, and forgets the handles when the cache is full', () => {
    const sut = new PseudonymService(config(NodeEnv.Development, { key: 'c'.repeat(64), keyFile: join(dir, 'unused') }));
    const handle = sut.patientHandle(PATIENT);
    // A key that changed under the service (it never does) shows which handles are computed again.
    sut['key'].fill(0);
    expect(sut.patientHandle(PATIENT)).toBe(handle);
    for (let i = 0; i < 10_000; i += 1) sut.patientHandle(`patient-${i}`);
    const zeroKey = new PseudonymService(config(NodeEnv.Production, { key: Buffer.alloc(32).toString('hex'), keyFile: join(dir, 'none') }));
    expect(sut.patientHandle(PATIENT)).toBe(zeroKey.patientHandle(PATIENT));
  });
});
