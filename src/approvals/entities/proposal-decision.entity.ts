import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { enumCheck } from '../../schema/enum-check';
import { DecisionKind } from '../enum';
import { Proposal } from './proposal.entity';

/** Who decided what, on which version, with which role and why. Append-only by convention of the service. */
@Entity('proposal_decisions')
@Index('IDX_proposal_decisions_proposal', ['proposalId', 'version'])
@Index('UQ_proposal_decisions_one_approval_per_person', ['proposalId', 'version', 'actorId'], {
  unique: true,
  where: `"decision" = 'approve'`,
})
@Check('CHK_proposal_decisions_decision', enumCheck('decision', DecisionKind))
export class ProposalDecision {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'proposal_id' })
  proposalId: string;

  @ManyToOne(() => Proposal, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'proposal_id' })
  proposal?: Proposal;

  @Column('int')
  version: number;

  @Column('text')
  decision: DecisionKind;

  @Column('uuid', { name: 'actor_id' })
  actorId: string;

  @Column('text', { name: 'actor_role' })
  actorRole: string;

  @Column('text', { nullable: true })
  reason: string | null;

  @Column('char', { name: 'content_hash', length: 64 })
  contentHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
