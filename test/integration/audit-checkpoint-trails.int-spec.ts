import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AUDIT_APPEND_ONLY_SQLSTATE, AuditChannel, AuditEventInput, AuditOutcome, AuditService, verifyAuditChain } from '../../src/audit';
import { checkpointFileName, DirectoryCheckpointStore } from '../../src/audit/audit-checkpoint';
import { sharedSealerSession } from '../../src/audit/audit-seal.repository';
import { AuditTrailIdentity, readTrailIdentity } from '../../src/audit/audit-trail-identity';
import { COMMANDS } from '../../src/cli/commands';
import { dataSourceOptions } from '../../src/data-source';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { recomputeChain, tamper, TEST_CHECKPOINT_KEY, testSealer } from '../setup/audit-seal';
import { TestDatabase, useSeededDatabase } from '../setup/database';
import { copyMigratedEmbeddedDatabase } from '../setup/embedded-snapshot';

/**
 * Checkpoints of several trails in one AUDIT_CHECKPOINT_DIR, as the README's order (the quickstart's
 * embedded database, then a Postgres server, both on the default directory) produces: each trail
 * keeps its own, verifies clean, and says the other's are another trail's; tampering with one is
 * still tampering.
 */
const CLI = join(__dirname, '..', '..', 'dist', 'src', 'cli', 'main.js');

const event = (rowCount: number): AuditEventInput => ({
  actorId: randomUUID(),
  actorRole: 'clinician',
  patientId: randomUUID(),
  action: 'patient_labs',
  fields: ['code'],
  rowCount,
  outcome: AuditOutcome.Success,
  correlationId: randomUUID(),
  channel: AuditChannel.Rest,
});


/** A fresh trail of `count` events, sealed with a checkpoint at every link into `root`. */
async function sealedTrail(dataSource: DataSource, root: string, count: number): Promise<AuditTrailIdentity> {
  await tamper(dataSource, `TRUNCATE audit_seals, audit_events RESTART IDENTITY`);
  for (let index = 0; index < count; index += 1) await new AuditService(dataSource).record(event(index));
  await testSealer(async () => sharedSealerSession(dataSource), new DirectoryCheckpointStore(root), { checkpointEveryEvents: 1, batchSize: 1 }).pass();
  return readTrailIdentity(dataSource);
}

const verify = (dataSource: DataSource, root: string) =>
  verifyAuditChain(dataSource, { graceSeconds: 0, checkpoints: { store: new DirectoryCheckpointStore(root), key: TEST_CHECKPOINT_KEY } });

/** `audit-verify` as the CLI runs it, on `root` with the test key. */
async function auditVerify(dataSource: DataSource, root: string) {
  const saved = { dir: process.env.AUDIT_CHECKPOINT_DIR, key: process.env.AUDIT_CHECKPOINT_KEY };
  process.env.AUDIT_CHECKPOINT_DIR = root;
  process.env.AUDIT_CHECKPOINT_KEY = TEST_CHECKPOINT_KEY.toString('hex');
  try {
    const lines: string[] = [];
    const code = await COMMANDS['audit-verify'].run(dataSource, [], (line) => lines.push(line));
    return { code, lines };
  } finally {
    for (const [name, value] of [['AUDIT_CHECKPOINT_DIR', saved.dir], ['AUDIT_CHECKPOINT_KEY', saved.key]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe('audit checkpoints of several trails in one directory', () => {
  // Two clones of one template: the same server, the same installation row, different databases.
  const first = useSeededDatabase();
  const second = useSeededDatabase();
  let root: string;
  let trails: { first: AuditTrailIdentity; second: AuditTrailIdentity };
  const seqsIn = (trail: AuditTrailIdentity) => readdirSync(join(root, trail.id)).map((name) => JSON.parse(readFileSync(join(root, trail.id, name), 'utf8')).seq);

  // Like the quickstart's trail (longer) and then a second database's (shorter, other events), on one directory.
  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'vigil-test-shared-checkpoints-'));
    trails = { first: await sealedTrail(first().dataSource, root, 5), second: await sealedTrail(second().dataSource, root, 3) };
  });

  it('the two trails have different identities (same server and installation row, different databases)', () => {
    expect(trails.first.id).not.toBe(trails.second.id);
    expect(trails.first).toMatchObject({ systemIdentifier: trails.second.systemIdentifier, installationId: trails.second.installationId });
    expect(trails.first.databaseOid).not.toBe(trails.second.databaseOid);
  });

  it('neither overwrites the other: each trail keeps every checkpoint in its own directory', () => {
    expect(readdirSync(root).sort()).toEqual([trails.first.id, trails.second.id].sort());
    expect(seqsIn(trails.first)).toEqual([1, 2, 3, 4, 5]);
    expect(seqsIn(trails.second)).toEqual([1, 2, 3]);
    for (const trail of [trails.first, trails.second]) {
      for (const name of readdirSync(join(root, trail.id))) expect(JSON.parse(readFileSync(join(root, trail.id, name), 'utf8')).trail).toEqual(trail);
    }
  });

  it.each([
    ['the first (longer) trail', 'first', 5, 'second', 3],
    ['the second (shorter) trail', 'second', 3, 'first', 5],
  ] as const)('%s verifies clean, and the other trail’s checkpoints are reported as such', async (_case, own, ownCount, other, otherCount) => {
    const database = { first, second }[own]();
    expect(await verify(database.dataSource, root)).toEqual({
      ok: true,
      count: ownCount,
      unsealed: { count: 0, firstId: null },
      checkpoints: { trail: trails[own], verified: ownCount, latestSeq: ownCount, problems: [], otherTrails: [{ trail: trails[other], count: otherCount }], unattributed: 0 },
    });
    const cli = await auditVerify(database.dataSource, root);
    expect(cli.code).toBe(0);
    expect(cli.lines).toContain(`Checkpoints: ${ownCount} verified, the latest at seq ${ownCount}.`);
    expect(cli.lines).toContain(
      `Checkpoint of another trail: ${otherCount} of trail ${trails[other].id} (system identifier ${trails[other].systemIdentifier}, database oid ${trails[other].databaseOid}, installation ${trails[other].installationId}): another database's, not checked against this one.`,
    );
    expect(cli.lines.join('\n')).not.toMatch(/Rewritten|Truncated/);
    expect(cli.lines[cli.lines.length - 1]).toBe('Audit trail verified.');
  });

  describe('tampering with one trail is still reported as tampering', () => {
    const expectTampered = async (database: () => TestDatabase, problems: unknown[]) => {
      const result = await verify(database().dataSource, root);
      expect(result).toMatchObject({ ok: false, checkpoints: { problems, otherTrails: [{ trail: trails.second, count: 3 }] } });
      expect((await auditVerify(database().dataSource, root)).code).toBe(1);
    };

    it('a rewritten chain (every hash recomputed from a changed event on)', async () => {
      await tamper(first().dataSource, `UPDATE audit_events SET outcome = 'denied' WHERE id = 3`);
      await recomputeChain(first().dataSource);
      await expectTampered(first, [3, 4, 5].map((seq) => ({ kind: 'rewritten', seq })));
    });

    it('a truncated tail (the newest links and events removed)', async () => {
      await tamper(first().dataSource, `DELETE FROM audit_seals WHERE seq > 3`);
      await tamper(first().dataSource, `DELETE FROM audit_events WHERE id > 3`);
      await expectTampered(first, [4, 5].map((seq) => ({ kind: 'truncated', seq, chainLength: 3 })));
    });

    it('the installation id replaced, so that the trail’s checkpoints would pass for another trail’s', async () => {
      await tamper(first().dataSource, `UPDATE vigil_installation SET id = gen_random_uuid()`);
      const names = [1, 2, 3, 4, 5].map((seq) => `${trails.first.id}/${checkpointFileName(trails.first.id, seq)}`);
      await expectTampered(first, names.map((name) => ({ kind: 'trail_replaced', name, trailId: trails.first.id })));
    });
  });

  it('the installation row is written once: update, delete and truncate are refused', async () => {
    for (const sql of [`UPDATE vigil_installation SET id = gen_random_uuid()`, `DELETE FROM vigil_installation`, `TRUNCATE vigil_installation`]) {
      await expect(first().dataSource.query(sql)).rejects.toMatchObject({ code: AUDIT_APPEND_ONLY_SQLSTATE });
    }
    expect(await readTrailIdentity(first().dataSource)).toEqual(trails.first);
  });
});

describe('audit-verify on the embedded database (no DATABASE_URL), as `npm start` leaves it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-test-embedded-'));
  const env = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'test',
    EMBEDDED_DATABASE_DIR: join(dir, 'pglite'),
    AUDIT_CHECKPOINT_DIR: join(dir, 'audit-checkpoints'),
    AUDIT_CHECKPOINT_KEY: TEST_CHECKPOINT_KEY.toString('hex'),
  };
  const auditVerifyCli = () => spawnSync(process.execPath, [CLI, 'audit-verify'], { env, encoding: 'utf8', timeout: 60_000 });
  let trail: AuditTrailIdentity;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // The run's migrated embedded database, copied (test/setup/embedded-snapshot.ts), then a trail on it.
  beforeAll(async () => {
    copyMigratedEmbeddedDatabase(env.EMBEDDED_DATABASE_DIR);
    const embedded = await startEmbeddedPostgres(env.EMBEDDED_DATABASE_DIR);
    const dataSource = await new DataSource(dataSourceOptions({ url: embedded.url, poolSize: 1 })).initialize();
    try {
      for (let index = 0; index < 4; index += 1) await new AuditService(dataSource).record(event(index));
      await testSealer(async () => sharedSealerSession(dataSource), new DirectoryCheckpointStore(env.AUDIT_CHECKPOINT_DIR), { checkpointEveryEvents: 2 }).pass();
      trail = await readTrailIdentity(dataSource);
    } finally {
      await dataSource.destroy();
      await embedded.stop();
    }
  });

  it('PGlite names its trail by its own system identifier, database oid and installation id', () => {
    expect(trail.systemIdentifier).toMatch(/^\d+$/);
    expect(readdirSync(env.AUDIT_CHECKPOINT_DIR)).toEqual([trail.id]);
  });

  it('verifies the embedded trail and its checkpoints, and exits 0', () => {
    const result = auditVerifyCli();
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`Database: the embedded database in ${env.EMBEDDED_DATABASE_DIR} (DATABASE_URL is not set)`);
    expect(result.stdout).toContain('Audit chain intact: 4 link(s) verified.');
    expect(result.stdout).toContain(`Trail ${trail.id}: system identifier ${trail.systemIdentifier}, database oid ${trail.databaseOid}, installation ${trail.installationId}.`);
    expect(result.stdout).toContain('Checkpoints: 1 verified, the latest at seq 4.');
    expect(result.stdout.trim().split('\n').pop()).toBe('Audit trail verified.');
    expect(result.status).toBe(0);
  }, 60_000);

  it('refuses, saying how to verify, while a running Vigil has the embedded database open', async () => {
    const running = await startEmbeddedPostgres(env.EMBEDDED_DATABASE_DIR);
    try {
      const result = auditVerifyCli();
      expect(result.stdout.trim()).toBe(
        `The embedded database in ${env.EMBEDDED_DATABASE_DIR} is open in a running Vigil (process ${process.pid}), and only one process may open it. ` +
          'Stop that process (Ctrl-C), then run this command again: it reads the trail as the server left it.',
      );
      expect(result.status).toBe(2);
    } finally {
      await running.stop();
    }
    // Once it stopped, the directory is free again.
    expect(existsSync(`${env.EMBEDDED_DATABASE_DIR}.lock`)).toBe(false);
  }, 120_000);

  it('takes over the lock of a server that was killed (its process is gone)', () => {
    const killed = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(`${env.EMBEDDED_DATABASE_DIR}.lock`, String(killed));
    const result = auditVerifyCli();
    expect(result.stdout.trim().split('\n').pop()).toBe('Audit trail verified.');
    expect(result.status).toBe(0);
    expect(existsSync(`${env.EMBEDDED_DATABASE_DIR}.lock`)).toBe(false);
  }, 60_000);

  it('refuses an in-memory embedded database: nothing outlives its server', () => {
    const result = spawnSync(process.execPath, [CLI, 'audit-verify'], { env: { ...env, EMBEDDED_DATABASE_DIR: 'memory://' }, encoding: 'utf8', timeout: 30_000 });
    expect(result.stdout.trim()).toBe("EMBEDDED_DATABASE_DIR is memory://: that database lived in its server's memory and ended with it; there is nothing to open.");
    expect(result.status).toBe(2);
  });
});
