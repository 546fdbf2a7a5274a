import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TURN_REASON_CODES, TurnReasonCode } from '../answer/turn-reasons';

/** A turn's lifecycle: `running` from the first write until the turn ends with one of the turn statuses. */
export const STORED_TURN_STATUSES = ['running', 'answered', 'insufficient_data', 'refused', 'access_denied', 'conflict', 'failure'] as const;
export type StoredTurnStatus = (typeof STORED_TURN_STATUSES)[number];

/**
 * One agent turn, written when it starts (`running`) and updated when it ends, failures included.
 * The question is kept only as its SHA-256: the record exists to show what the model read and what
 * the server let through (statements, tool calls, envelopes), and the free text of a question can
 * carry PHI beyond the agent projection's allowlist that nothing here needs. The hash still lets a
 * clinician's copy of the question be matched to its turn.
 */
@Entity('agent_turns')
@Index('IDX_agent_turns_patient', ['patientId', 'createdAt'])
@Index('IDX_agent_turns_clinician', ['clinicianId', 'createdAt'])
@Check('CHK_agent_turns_status', `"status" IN (${STORED_TURN_STATUSES.map((status) => `'${status}'`).join(', ')})`)
@Check('CHK_agent_turns_reason_code', `"reason_code" IS NULL OR "reason_code" IN (${TURN_REASON_CODES.map((code) => `'${code}'`).join(', ')})`)
export class AgentTurnRecord {
  /** The turn id: the response and the proposals (`agent_turn_id`) carry it, and the turn's audit event names it in its fields (`agent_turn:<id>`). */
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'patient_id' })
  patientId: string;

  // The cohort's tables are named, not imported: the foreign key is the schema's, the agent reads no cohort entity.
  @ManyToOne('Patient', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'patient_id' })
  patient?: object;

  @Column('uuid', { name: 'clinician_id' })
  clinicianId: string;

  @ManyToOne('StaffUser', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'clinician_id' })
  clinician?: object;

  @Column('text')
  status: StoredTurnStatus;

  @Column('char', { name: 'question_hash', length: 64 })
  questionHash: string;

  /** The grounded statements returned (empty until the turn ends, and for every status but `answered`). */
  @Column('jsonb', { default: () => `'[]'` })
  statements: unknown[];

  /** Why the turn has no statements, a code of the fixed vocabulary (turn-reasons.ts); null while running and when answered. */
  @Column('text', { name: 'reason_code', nullable: true })
  reasonCode: TurnReasonCode | null;

  @Column('uuid', { name: 'proposal_ids', array: true, default: () => `'{}'` })
  proposalIds: string[];

  @Column('jsonb', { nullable: true })
  usage: Record<string, unknown> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'finished_at', nullable: true })
  finishedAt: Date | null;
}
