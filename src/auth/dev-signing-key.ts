import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The local HS256 key for development tokens: created on first use (32 random bytes, owner-only
 * file), then shared by the service and `npm run token`. It never exists in production, where
 * development auth is refused at start-up.
 */
export function loadOrCreateDevKey(file: string): Uint8Array {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  return new Uint8Array(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url'));
}
