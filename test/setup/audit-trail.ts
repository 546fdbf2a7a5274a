import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AuditChannel, AuditEventInput, AuditOutcome, verifyAuditChain } from '../../src/audit';
import { COMMANDS } from '../../src/cli/commands';
import { TEST_CHECKPOINT_KEY } from './audit-seal';

/** What the first link follows, written out here rather than imported, so a changed genesis is caught. */
export const GENESIS_HASH = '0'.repeat(64);

export interface ChainLink {
  id: string;
  prevHash: string;
  hash: string;
}

/** The chain's links in seq order; `id` is the sealed event's. */
export const chainLinks = (dataSource: DataSource) =>
  dataSource.query<ChainLink[]>(`SELECT event_id::text AS id, prev_hash AS "prevHash", hash FROM audit_seals ORDER BY seq`);

/** The chain alone (checkpoints are audit-sealer.int-case's); every event must be sealed. */
export const verify = (dataSource: DataSource, pageSize?: number) => verifyAuditChain(dataSource, { graceSeconds: 0, pageSize });

export const intact = (count: number) => ({ ok: true, count, unsealed: { count: 0, firstId: null } });

/** The CLI reads its configuration from the environment: a checkpoint directory and key of the calling file's own. */
export async function runCli(dataSource: DataSource) {
  process.env.AUDIT_CHECKPOINT_DIR = mkdtempSync(join(tmpdir(), 'vigil-test-cli-checkpoints-'));
  process.env.AUDIT_CHECKPOINT_KEY = TEST_CHECKPOINT_KEY.toString('hex');
  const lines: string[] = [];
  const code = await COMMANDS['audit-verify'].run(dataSource, [], (line) => lines.push(line));
  return { code, output: lines.join('\n') };
}

/**
 * Audit events of one clinician about the first of three patients, overridable field by field.
 * `cohort` holds their ids: the seeded cohort's once `loadCohortIds` has read them, or ids made up
 * on a database without one.
 */
export function auditEvents() {
  const cohort = { actorId: '', patientIds: [] as string[] };
  const event = (overrides: Partial<AuditEventInput> = {}): AuditEventInput => ({
    actorId: cohort.actorId,
    actorRole: 'clinician',
    patientId: cohort.patientIds[0],
    action: 'patient_labs',
    fields: ['code', 'display', 'valueNumeric', 'unit'],
    rowCount: 3,
    outcome: AuditOutcome.Success,
    correlationId: randomUUID(),
    channel: AuditChannel.Rest,
    ...overrides,
  });
  const loadCohortIds = async (dataSource: DataSource) => {
    [{ id: cohort.actorId }] = await dataSource.query<{ id: string }[]>(`SELECT id FROM staff_users WHERE role = 'clinician' LIMIT 1`);
    cohort.patientIds = (await dataSource.query<{ id: string }[]>(`SELECT id FROM patients ORDER BY mrn LIMIT 3`)).map((row) => row.id);
  };
  return { cohort, event, loadCohortIds };
}
