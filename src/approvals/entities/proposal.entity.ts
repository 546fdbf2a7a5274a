import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { enumCheck } from '../../schema/enum-check';
import { Patient } from '../../cohort/entities/patient.entity';
import { StaffUser } from '../../cohort/entities/staff-user.entity';
import { ExecutionOutcome, ProposalKind, ProposalStatus } from '../enum';

/** A proposed write, waiting for (or past) a human decision. Its content lives in its versions. */
@Entity('proposals')
@Index('IDX_proposals_status_created', ['status', 'createdAt'])
@Index('IDX_proposals_patient', ['patientId'])
@Index('IDX_proposals_expires', ['expiresAt'])
@Index('IDX_proposals_updated', ['updatedAt'])
/**
 * The database's own guard against two live proposals for the same thing (content identity per kind,
 * `proposal-policy.ts`): two concurrent filings cannot both pass the service's check.
 */
@Index('UQ_proposals_active_identity', ['patientId', 'kind', 'identityKey'], {
  unique: true,
  where: `"status" IN ('draft', 'pending', 'approved', 'executing')`,
})
@Check('CHK_proposals_kind', enumCheck('kind', ProposalKind))
@Check('CHK_proposals_status', enumCheck('status', ProposalStatus))
@Check('CHK_proposals_outcome', enumCheck('outcome', ExecutionOutcome, true))
@Check('CHK_proposals_required_approvals', '"required_approvals" BETWEEN 1 AND 3')
export class Proposal {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'patient_id' })
  patientId: string;

  @ManyToOne(() => Patient, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'patient_id' })
  patient?: Patient;

  @Column('text')
  kind: ProposalKind;

  @Column('text')
  status: ProposalStatus;

  @Column('uuid', { name: 'proposer_id' })
  proposerId: string;

  @ManyToOne(() => StaffUser, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'proposer_id' })
  proposer?: StaffUser;

  @Column('text', { name: 'proposer_role' })
  proposerRole: string;

  /** Set when the agent filed this on the proposer's behalf: the agent turn it came from. */
  @Column('text', { name: 'agent_turn_id', nullable: true })
  agentTurnId: string | null;

  /**
   * What the proposal is about, whatever its wording (`contentIdentity`): a second live proposal with
   * the same one is a duplicate. Null on proposals filed before identities existed.
   */
  @Column('text', { name: 'identity_key', nullable: true })
  identityKey: string | null;

  /** When it entered review: at filing over REST, at the author's submit for a draft; null for a draft never submitted. */
  @Column('timestamptz', { name: 'submitted_at', nullable: true })
  submittedAt: Date | null;

  @Column('int', { name: 'current_version' })
  currentVersion: number;

  @Column('int', { name: 'required_approvals' })
  requiredApprovals: number;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('text', { nullable: true })
  outcome: ExecutionOutcome | null;

  /** Why execution failed, as a kind (e.g. `precondition_check_failed`), never a driver message. */
  @Column('text', { name: 'failure_kind', nullable: true })
  failureKind: string | null;

  @Column('int', { name: 'execution_attempts', default: 0 })
  executionAttempts: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
