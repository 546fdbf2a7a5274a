import { Check, Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { enumCheck } from '../schema/enum-check';
import { AuditChannel, AuditOutcome } from './enum';

/**
 * One access to PHI (or an attempt at one). Rows are only ever inserted, by `AuditService`: a
 * trigger refuses UPDATE, DELETE and TRUNCATE, and each row's `hash` chains it to the row before
 * (see `audit-hash.ts`). Deliberately no foreign keys: the trail must outlive the patients and
 * users it names and must never block deleting them.
 */
@Entity('audit_events')
@Index('IDX_audit_events_patient_occurred', ['patientId', 'occurredAt'])
@Index('IDX_audit_events_actor_occurred', ['actorId', 'occurredAt'])
@Check('CHK_audit_events_outcome', enumCheck('outcome', AuditOutcome))
@Check('CHK_audit_events_channel', enumCheck('channel', AuditChannel, true))
// Every event written since hash version 2 names its channel; only older events have none.
@Check('CHK_audit_events_hash_version', `"hash_version" = 1 OR ("hash_version" = 2 AND "channel" IS NOT NULL)`)
// The break-glass report reads only accepted break-glass accesses: a partial index keeps it small.
@Index('IDX_audit_events_break_glass', ['id'], { where: '"break_glass"' })
@Unique('UQ_audit_events_hash', ['hash'])
// Two events naming the same predecessor would fork the chain: refused even if the lock is bypassed.
@Unique('UQ_audit_events_prev_hash', ['prevHash'])
export class AuditEvent {
  /** Identity order is chain order. A bigint, so the pg driver returns it as a string. */
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  /** Chosen by the service (not the column default) so verification can recompute the hash. */
  @Column('timestamptz', { name: 'occurred_at', default: () => 'now()' })
  occurredAt: Date;

  /** Null when the caller could not be identified. */
  @Column('uuid', { name: 'actor_id', nullable: true })
  actorId: string | null;

  @Column('text', { name: 'actor_role', nullable: true })
  actorRole: string | null;

  @Column('uuid', { name: 'patient_id', nullable: true })
  patientId: string | null;

  /** Tool name or route action, e.g. `patient_labs`. */
  @Column('text')
  action: string;

  /** Names of the fields returned (never their values). */
  @Column('text', { array: true, default: [] })
  fields: string[];

  @Column('int', { name: 'row_count', default: 0 })
  rowCount: number;

  @Column('text')
  outcome: AuditOutcome;

  @Column('text', { name: 'break_glass_reason', nullable: true })
  breakGlassReason: string | null;

  @Column('text', { name: 'correlation_id', nullable: true })
  correlationId: string | null;

  /** How the access came in (null only on events written before hash version 2). */
  @Column('text', { nullable: true })
  channel: AuditChannel | null;

  /** True only when the access was allowed because the caller broke the glass. */
  @Column('boolean', { name: 'break_glass', default: false })
  breakGlass: boolean;

  /** The operating-system user who ran a command on the server (`cli` channel). */
  @Column('text', { name: 'actor_name', nullable: true })
  actorName: string | null;

  /** Which columns `hash` covers (see audit-hash.ts): 1 for events older than the v2 columns. */
  @Column('smallint', { name: 'hash_version', default: 1 })
  hashVersion: number;

  /** The previous event's hash, or 64 zeros for the first event. */
  @Column('char', { name: 'prev_hash', length: 64 })
  prevHash: string;

  @Column('char', { length: 64 })
  hash: string;
}

export const AUDIT_ENTITIES = [AuditEvent];
