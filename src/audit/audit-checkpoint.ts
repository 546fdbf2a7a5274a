import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { link, mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalJson } from './audit-hash';
import { AuditTrailIdentity, trailIdOf } from './audit-trail-identity';

/**
 * A checkpoint: the head of one trail's chain at one moment, signed with a key the database never
 * holds, and kept outside the database. Whoever can rewrite the database can recompute every hash
 * of the chain, but cannot sign a checkpoint: a chain shorter than a checkpoint says (a truncated
 * tail) or with another hash at a checkpoint's seq (a rewritten chain) is then detected by
 * `audit-verify`. The trail it seals is part of what is signed, so a checkpoint of another
 * database is never read as this one's.
 */
export interface AuditCheckpoint {
  version: 2;
  /** The trail this checkpoint seals (see `audit-trail-identity.ts`). */
  trail: AuditTrailIdentity;
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
  const { trail } = checkpoint;
  const fields = {
    version: checkpoint.version,
    trail: { id: trail.id, systemIdentifier: trail.systemIdentifier, databaseOid: trail.databaseOid, installationId: trail.installationId },
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
  const unsigned: AuditCheckpoint = { version: 2, ...checkpoint, keyId: checkpointKeyId(key) };
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

/**
 * A checkpoint as read back: parsed; `unattributed`, one written before checkpoints named their
 * trail (version 1), which no reader can place; or the name of a file that is not a checkpoint.
 * `name` is the file's path below the store's directory.
 */
export type StoredCheckpoint =
  | { name: string; checkpoint: SignedAuditCheckpoint }
  | { name: string; unattributed: true }
  | { name: string; unreadable: true };

/** Raised by `write` when a checkpoint of that trail and seq is already stored: the stored one stays. */
export class CheckpointExistsError extends Error {
  constructor(readonly trailId: string, readonly seq: number) {
    super(`A checkpoint of trail ${trailId} at seq ${seq} is already stored; it was left as it is`);
    this.name = 'CheckpointExistsError';
  }
}

/**
 * Where checkpoints are exported, beside the database. Writes are atomic (a reader never sees half
 * a checkpoint), durable before `write` resolves, and never replace a stored checkpoint.
 */
export interface CheckpointStore {
  /** Stores a new checkpoint; `CheckpointExistsError` when its trail already has one at that seq. */
  write(checkpoint: SignedAuditCheckpoint): Promise<void>;
  /** Stored checkpoints, one trail's (`trailId`) or every trail's, in name order (trail, then seq). */
  list(options?: { trailId?: string }): Promise<StoredCheckpoint[]>;
  /** A description for logs and the CLI (never a secret). */
  readonly description: string;
}

const TRAIL_DIR = /^[0-9a-f]{16}$/;
/** `checkpoint-<trail>-<seq>.json`; the form without a trail is the one of version-1 checkpoints. */
const FILE_NAME = /^checkpoint-(?:[0-9a-f]{16}-)?\d{20}\.json$/;

export function checkpointFileName(trailId: string, seq: number): string {
  return `checkpoint-${trailId}-${String(seq).padStart(20, '0')}.json`;
}

/**
 * Checkpoints as files under one directory (`AUDIT_CHECKPOINT_DIR`): a subdirectory per trail,
 * named by its id, one file per checkpoint named by trail and seq
 * (`<trail>/checkpoint-<trail>-00000000000000001000.json`), so a listing sorts in chain order and
 * databases sharing the directory never meet. Each is written to a temporary file, flushed, then
 * hard-linked to its name, which fails when the name exists (so nothing is ever overwritten), and
 * the directory flushed: a crash leaves the old state or the new one, never a torn file.
 */
export class DirectoryCheckpointStore implements CheckpointStore {
  constructor(private readonly dir: string) {}

  get description(): string {
    return `directory ${this.dir}`;
  }

  async write(checkpoint: SignedAuditCheckpoint): Promise<void> {
    const trailDir = join(this.dir, checkpoint.trail.id);
    await mkdir(trailDir, { recursive: true });
    const name = checkpointFileName(checkpoint.trail.id, checkpoint.seq);
    const temporary = join(trailDir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    const file = await open(temporary, 'wx', 0o644);
    try {
      await file.writeFile(`${JSON.stringify(checkpoint, null, 2)}\n`, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await link(temporary, join(trailDir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new CheckpointExistsError(checkpoint.trail.id, checkpoint.seq);
      throw error;
    } finally {
      await rm(temporary, { force: true });
    }
    await syncDirectory(trailDir);
  }

  /**
   * One trail's checkpoints, or every file that may be a checkpoint: those of each trail's
   * subdirectory, and those at the top, where version-1 checkpoints were written.
   */
  async list(options: { trailId?: string } = {}): Promise<StoredCheckpoint[]> {
    const dirs = options.trailId ? [options.trailId] : ['', ...(await entries(this.dir)).filter((entry) => TRAIL_DIR.test(entry)).sort()];
    const stored: StoredCheckpoint[] = [];
    for (const sub of dirs) {
      for (const name of (await entries(join(this.dir, sub))).filter((entry) => FILE_NAME.test(entry)).sort()) {
        const path = sub ? `${sub}/${name}` : name;
        stored.push(parseCheckpoint(path, await readFile(join(this.dir, sub, name), 'utf8')));
      }
    }
    return stored;
  }
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return [];
    throw error;
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const directory = await open(dir, 'r');
  try {
    await directory.sync();
  } catch {
    // Some file systems cannot fsync a directory; the link is still atomic there.
  } finally {
    await directory.close();
  }
}

const isTrail = (value: unknown): value is AuditTrailIdentity => {
  const trail = value as Partial<AuditTrailIdentity> | null;
  return (
    typeof trail === 'object' &&
    trail !== null &&
    typeof trail.id === 'string' &&
    (trail.systemIdentifier === null || (typeof trail.systemIdentifier === 'string' && /^\d+$/.test(trail.systemIdentifier))) &&
    typeof trail.databaseOid === 'string' &&
    /^\d+$/.test(trail.databaseOid) &&
    typeof trail.installationId === 'string' &&
    /^[0-9a-f-]{36}$/.test(trail.installationId) &&
    // The id is derived from the rest: one that is not cannot name the trail the rest describes.
    trail.id === trailIdOf({ systemIdentifier: trail.systemIdentifier, databaseOid: trail.databaseOid, installationId: trail.installationId })
  );
};

/** Parses one stored checkpoint; anything that is not exactly a checkpoint's shape is unreadable. */
export function parseCheckpoint(name: string, text: string): StoredCheckpoint {
  try {
    const value = JSON.parse(text) as Partial<SignedAuditCheckpoint> | null;
    if (value === null || typeof value !== 'object') return { name, unreadable: true };
    const link =
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
    if (link && (value.version as number) === 1 && !('trail' in value)) return { name, unattributed: true };
    return link && value.version === 2 && isTrail(value.trail) ? { name, checkpoint: value as SignedAuditCheckpoint } : { name, unreadable: true };
  } catch {
    return { name, unreadable: true };
  }
}
