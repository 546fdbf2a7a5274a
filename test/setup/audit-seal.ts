import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AuditChainVerification, verifyAuditChain } from '../../src/audit';
import { CheckpointStore, DirectoryCheckpointStore } from '../../src/audit/audit-checkpoint';
import { SealerSession, sharedSealerSession } from '../../src/audit/audit-seal.repository';
import { unsealedOlderThan } from '../../src/audit/audit.repository';
import { AuditSealer, AuditSealerSettings } from '../../src/audit/audit-sealer';
import { auditEventHash, GENESIS_HASH } from '../../src/audit/audit-hash';
import { ChainPageRow, SELECT_CHAIN_PAGE, storedContent } from '../../src/audit/audit.sql';

/** A fixed test key: checkpoints a test writes verify with it, and with no other. */
export const TEST_CHECKPOINT_KEY = Buffer.alloc(32, 7);

export const TEST_SEALER_SETTINGS: AuditSealerSettings = { intervalMs: 50, batchSize: 100, checkpointEveryEvents: 1, checkpointIntervalMs: 0 };

/**
 * Key files and the checkpoint directory of a process under test, in a fresh temporary directory:
 * never the working directory's `.data`, where checkpoints of throwaway databases would later be
 * taken for the development database's.
 */
export function isolatedFileEnv(prefix: string): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { AUTH_DEV_KEY_FILE: join(dir, 'key'), AUDIT_CHECKPOINT_DIR: join(dir, 'audit-checkpoints'), AUDIT_CHECKPOINT_KEY_FILE: join(dir, 'audit-checkpoint-key') };
}

/** A checkpoint directory of the test's own. */
export function temporaryCheckpointStore(): DirectoryCheckpointStore {
  return new DirectoryCheckpointStore(join(mkdtempSync(join(tmpdir(), 'vigil-test-checkpoints-')), 'checkpoints'));
}

export function testSealer(connect: () => Promise<SealerSession>, store: CheckpointStore = temporaryCheckpointStore(), settings: Partial<AuditSealerSettings> = {}): AuditSealer {
  return new AuditSealer(connect, store, TEST_CHECKPOINT_KEY, { ...TEST_SEALER_SETTINGS, ...settings });
}

const UNIQUE_VIOLATION = '23505';

/**
 * Seals every committed event of `dataSource` now, waiting (up to 10 s) for transactions still
 * running to end (`waitMs`). An app under test may run its own sealer on the same database: a batch that loses
 * the race to it (a unique violation) is simply tried again.
 */
export async function sealEverything(dataSource: DataSource, { waitMs }: { waitMs: number } = { waitMs: 10_000 }): Promise<void> {
  const sealer = testSealer(async () => sharedSealerSession(dataSource));
  const session = sharedSealerSession(dataSource);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      if ((await sealer.sealBatch(session)) === TEST_SEALER_SETTINGS.batchSize) continue;
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
    }
    if ((await unsealedOlderThan(dataSource, 0)).count === 0 || Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Seals what is committed, then verifies the chain (no checkpoints: those are the sealer tests'
 * subject). An app under test may still be writing events (a page's live refresh is a read, and
 * audited): an event committed between the sealing and the verification is sealed and the chain
 * verified again, for up to 10 s; a broken link or another problem is answered at once.
 */
export async function sealAndVerify(dataSource: DataSource): Promise<AuditChainVerification> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await sealEverything(dataSource);
    const verification = await verifyAuditChain(dataSource, { graceSeconds: 0 });
    const onlyUnsealed = !verification.ok && !verification.broken && verification.checkpoints.problems.length === 0;
    if (!onlyUnsealed || Date.now() > deadline) return verification;
  }
}

/** The tables whose triggers refuse changes to the trail (append-only events and links, the immutable installation row). */
const GUARDED_TABLES = ['audit_events', 'audit_seals', 'vigil_installation'];

/**
 * Runs `sql` with the guarding triggers switched off, as the tables' owner or a superuser can: the
 * attacker the hash chain and the checkpoints exist for. The triggers are off only inside this transaction.
 */
export async function tamper(dataSource: DataSource, sql: string, parameters: unknown[] = []): Promise<void> {
  await dataSource.transaction(async (manager) => {
    for (const table of GUARDED_TABLES) await manager.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
    await manager.query(sql, parameters);
    for (const table of GUARDED_TABLES) await manager.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
  });
}

/** The attacker's cover-up after changing an event: every link recomputed, so the chain is consistent again on its own. */
export async function recomputeChain(dataSource: DataSource): Promise<void> {
  const chain = await dataSource.query<ChainPageRow[]>(SELECT_CHAIN_PAGE, ['0', 100]);
  let prevHash = GENESIS_HASH;
  for (const row of chain) {
    const hash = auditEventHash(storedContent(row, prevHash));
    await tamper(dataSource, `UPDATE audit_seals SET prev_hash = $2, hash = $3 WHERE seq = $1`, [row.seq, prevHash, hash]);
    prevHash = hash;
  }
}
