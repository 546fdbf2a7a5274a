import { Check, Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { enumCheck } from '../schema/enum-check';
import { AuditChannel, AuditOutcome } from './enum';

/**
 * One access to PHI (or an attempt at one). Rows are only ever inserted, by `AuditService`: a
 * trigger refuses UPDATE, DELETE and TRUNCATE, and the application's role may only INSERT and
 * SELECT. The chain's links live in `audit_seals`, written by the sealer after the event commits
 * (see `audit-sealer.ts`); events written before the sealer existed keep their own `prev_hash` and
 * `hash` as well. Deliberately no foreign keys: the trail must outlive the patients and users it
 * names and must never block deleting them.
 */
@Entity('audit_events')
@Index('IDX_audit_events_patient_occurred', ['patientId', 'occurredAt'])
@Index('IDX_audit_events_actor_occurred', ['actorId', 'occurredAt'])
@Check('CHK_audit_events_outcome', enumCheck('outcome', AuditOutcome))
@Check('CHK_audit_events_channel', enumCheck('channel', AuditChannel, true))
// Every event written since hash version 2 names its channel; only older events have none.
@Check('CHK_audit_events_hash_version', `"hash_version" = 1 OR ("hash_version" IN (2, 3) AND "channel" IS NOT NULL)`)
// Targets only on events whose hash covers them (version 3): never a column the chain does not protect.
@Check('CHK_audit_events_targets_hashed', `"hash_version" >= 3 OR ("target_staff_id" IS NULL AND "target_care_team_id" IS NULL)`)
// The break-glass report reads only accepted break-glass accesses: a partial index keeps it small.
@Index('IDX_audit_events_break_glass', ['id'], { where: '"break_glass"' })
// The sealer reads committed events in chain order, (xact_id, id), from where it stopped.
@Index('IDX_audit_events_xact_id_id', ['xactId', 'id'])
// Events chained inline (before the sealer) carry both links; later ones neither.
@Check('CHK_audit_events_inline_link', `("prev_hash" IS NULL) = ("hash" IS NULL)`)
@Unique('UQ_audit_events_hash', ['hash'])
@Unique('UQ_audit_events_prev_hash', ['prevHash'])
export class AuditEvent {
  /** Taken at insert; gaps are rolled-back inserts. A bigint, so the pg driver returns it as a string. */
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

  /**
   * Whom an administrative change was about (the staff member created, deactivated, added to or
   * removed from a team), or whose access a step it caused concerned: an id, never a name.
   */
  @Column('uuid', { name: 'target_staff_id', nullable: true })
  targetStaffId: string | null;

  /** The care team an administrative change was about. */
  @Column('uuid', { name: 'target_care_team_id', nullable: true })
  targetCareTeamId: string | null;

  /** Which columns `hash` covers (see audit-hash.ts): 1 for events older than the v2 columns. */
  @Column('smallint', { name: 'hash_version', default: 1 })
  hashVersion: number;

  /**
   * Only on events chained inline, before the sealer (the chain's prefix, copied into `audit_seals`
   * by migration 1764550000000): the previous event's hash, or 64 zeros for the first event.
   */
  @Column('char', { name: 'prev_hash', length: 64, nullable: true })
  prevHash: string | null;

  @Column('char', { length: 64, nullable: true })
  hash: string | null;

  /**
   * The inserting transaction's id (`audit_xact_id()`: `pg_current_xact_id()` as a bigint; always the column default: the
   * application may not name it). The sealer chains events in (xact_id, id) order once every
   * transaction that could still add an event sorts after them; 0 on the inline-chained prefix.
   */
  @Column('bigint', { name: 'xact_id', default: () => 'audit_xact_id()' })
  xactId: string;
}

/**
 * One link of the audit chain, written by the sealer alone, append-only like the events. `seq`
 * numbers the links from 1 without gaps; `hash` covers the event's content and `prev_hash` (see
 * `audit-hash.ts`). One link per event (`event_id` unique), so a re-run after a crash cannot seal
 * an event twice, and no two links may name the same predecessor, so the chain cannot fork.
 */
@Entity('audit_seals')
@Unique('UQ_audit_seals_event_id', ['eventId'])
@Unique('UQ_audit_seals_prev_hash', ['prevHash'])
@Unique('UQ_audit_seals_hash', ['hash'])
@Check('CHK_audit_seals_seq', `"seq" >= 1`)
export class AuditSeal {
  @PrimaryColumn('bigint', { primaryKeyConstraintName: 'PK_audit_seals' })
  seq: string;

  @Column('bigint', { name: 'event_id' })
  eventId: string;

  @Column('char', { name: 'prev_hash', length: 64 })
  prevHash: string;

  @Column('char', { length: 64 })
  hash: string;

  @Column('timestamptz', { name: 'sealed_at', default: () => 'now()' })
  sealedAt: Date;
}

export const AUDIT_ENTITIES = [AuditEvent, AuditSeal];
