import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalJson } from './audit-hash';

/**
 * A checkpoint: the chain's head at one moment, signed with a key the database never holds, and
 * kept outside the database. Whoever can rewrite the database can recompute every hash of the
 * chain, but cannot sign a checkpoint: a chain shorter than a checkpoint says (a truncated tail) or
 * with another hash at a checkpoint's seq (a rewritten chain) is then detected by `audit-verify`.
 */
export interface AuditCheckpoint {
  version: 1;
  /** The link this checkpoint names: its seq (1-based, no gaps), event id and hash. */
  seq: number;
  eventId: string;
  head: string;
  /** Links in the chain up to and including this one (= seq, stated so a reader need not know that). */
  count: number;
  /** When the checkpoint was taken (UTC ISO 8601). */
  sealedAt: string;
  /** Which key signed it: the first 16 hex digits of SHA-256 of the key (names the key, reveals nothing). */
  keyId: string;
}

export interface SignedAuditCheckpoint extends AuditCheckpoint {
  /** HMAC-SHA256, hex, over `CHECKPOINT_LABEL` + the canonical JSON of every other field. */
  signature: string;
}

/** Domain separation: this key's MAC over a checkpoint can never be mistaken for any other use of it. */
const CHECKPOINT_LABEL = 'vigil-audit-checkpoint\n';

export function checkpointKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

function mac(checkpoint: AuditCheckpoint, key: Buffer): string {
  const fields = {
    version: checkpoint.version,
    seq: checkpoint.seq,
    eventId: checkpoint.eventId,
    head: checkpoint.head,
    count: checkpoint.count,
    sealedAt: checkpoint.sealedAt,
    keyId: checkpoint.keyId,
  };
  return createHmac('sha256', key).update(CHECKPOINT_LABEL + canonicalJson(fields)).digest('hex');
}

export function signCheckpoint(checkpoint: Omit<AuditCheckpoint, 'version' | 'keyId'>, key: Buffer): SignedAuditCheckpoint {
  const unsigned: AuditCheckpoint = { version: 1, ...checkpoint, keyId: checkpointKeyId(key) };
  return { ...unsigned, signature: mac(unsigned, key) };
}

/** True when the signature is this key's over exactly these fields (compared in constant time). */
export function checkpointSignatureValid(checkpoint: SignedAuditCheckpoint, key: Buffer): boolean {
  if (typeof checkpoint.signature !== 'string' || !/^[0-9a-f]{64}$/.test(checkpoint.signature)) return false;
  try {
    return timingSafeEqual(Buffer.from(mac(checkpoint, key), 'hex'), Buffer.from(checkpoint.signature, 'hex'));
  } catch {
    // A field of the wrong type (canonicalJson refuses it): not a checkpoint this key signed.
    return false;
  }
}

/** A checkpoint as read back: parsed, or the name of a file that is not one. */
export type StoredCheckpoint = { name: string; checkpoint: SignedAuditCheckpoint } | { name: string; unreadable: true };

/**
 * Where checkpoints are exported, beside the database. Writes must be atomic (a reader never sees
 * half a checkpoint) and durable before `write` resolves; writing the same seq again replaces it.
 */
export interface CheckpointStore {
  write(checkpoint: SignedAuditCheckpoint): Promise<void>;
  /** Every stored checkpoint, in seq order (an unreadable one where its name puts it). */
  list(): Promise<StoredCheckpoint[]>;
  /** A description for logs and the CLI (never a secret). */
  readonly description: string;
}

const FILE_NAME = /^checkpoint-(\d{20})\.json$/;

/**
 * Checkpoints as files in one directory (`AUDIT_CHECKPOINT_DIR`), one per checkpoint, named by seq
 * (`checkpoint-00000000000000001000.json`) so a listing sorts in chain order. Each is written to a
 * temporary file, flushed, renamed into place and the directory flushed: a crash leaves the old
 * state or the new one, never a torn file. One directory belongs to one database.
 */
export class DirectoryCheckpointStore implements CheckpointStore {
  constructor(private readonly dir: string) {}

  get description(): string {
    return `directory ${this.dir}`;
  }

  async write(checkpoint: SignedAuditCheckpoint): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const name = `checkpoint-${String(checkpoint.seq).padStart(20, '0')}.json`;
    const temporary = join(this.dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    const file = await open(temporary, 'wx', 0o644);
    try {
      await file.writeFile(`${JSON.stringify(checkpoint, null, 2)}\n`, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await rename(temporary, join(this.dir, name));
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    await this.syncDirectory();
  }

  async list(): Promise<StoredCheckpoint[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const stored: StoredCheckpoint[] = [];
    for (const name of names.filter((entry) => FILE_NAME.test(entry)).sort()) {
      stored.push(parseCheckpoint(name, await readFile(join(this.dir, name), 'utf8')));
    }
    return stored;
  }

  private async syncDirectory(): Promise<void> {
    const directory = await open(this.dir, 'r');
    try {
      await directory.sync();
    } catch {
      // Some file systems cannot fsync a directory; the rename is still atomic there.
    } finally {
      await directory.close();
    }
  }
}

/** Parses one stored checkpoint; anything that is not exactly a checkpoint's shape is unreadable. */
export function parseCheckpoint(name: string, text: string): StoredCheckpoint {
  try {
    const value = JSON.parse(text) as Partial<SignedAuditCheckpoint>;
    const shaped =
      value.version === 1 &&
      Number.isSafeInteger(value.seq) &&
      (value.seq as number) >= 1 &&
      value.count === value.seq &&
      typeof value.eventId === 'string' &&
      /^\d+$/.test(value.eventId) &&
      typeof value.head === 'string' &&
      /^[0-9a-f]{64}$/.test(value.head) &&
      typeof value.sealedAt === 'string' &&
      typeof value.keyId === 'string' &&
      typeof value.signature === 'string';
    return shaped ? { name, checkpoint: value as SignedAuditCheckpoint } : { name, unreadable: true };
  } catch {
    return { name, unreadable: true };
  }
}
