import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { NodeEnv } from './environment.schema';

/** Decodes a configured key: hex when it is only hex digits (64 or more), else base64 / base64url. */
export function decodeKey(text: string): Buffer {
  const trimmed = text.trim();
  return /^[0-9a-fA-F]{64,}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
}

/** Where one secret comes from: the variable holding it inline, or the file it is kept in. */
export interface SecretKeySource {
  env: NodeEnv;
  /** The inline value (hex or base64), when configured. */
  key?: string;
  keyFile: string;
  /** The variable names, for errors: e.g. `PSEUDONYM_KEY`, whose file variable is `PSEUDONYM_KEY_FILE`. */
  name: string;
  /** Why production refuses to make one up (added to the error). */
  whyRequired: string;
  /** Create a missing key file outside production (default). False for readers, which need the existing key. */
  create?: boolean;
}

/**
 * A secret of at least 32 bytes: the inline value, else the key file. Outside production a missing
 * file is created (32 random bytes, owner-only) so development needs no setup and the key survives
 * restarts. In production a missing key stops start-up: a key made up on the spot would silently
 * change what it signs or derives at the next restart. One loader for every such key.
 */
export function loadSecretKey(source: SecretKeySource): Buffer {
  const { key, keyFile, name } = source;
  if (key) return decodeKey(key);
  if (!existsSync(keyFile)) {
    if (source.create === false) throw new Error(`${name} is not set and ${name}_FILE does not exist`);
    if (source.env === NodeEnv.Production) {
      throw new Error(`${name} (or an existing ${name}_FILE) is required in production: ${source.whyRequired}`);
    }
    mkdirSync(dirname(keyFile), { recursive: true });
    try {
      writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Two processes starting together: the other one wrote it first, and both use that key.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(keyFile, 0o600);
  const loaded = decodeKey(readFileSync(keyFile, 'utf8'));
  if (loaded.length < 32) throw new Error(`${name}_FILE: the key must be at least 32 bytes`);
  return loaded;
}
