import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Proposal } from './proposal.entity';

/** One immutable version of a proposal's content; an edit by a reviewer adds a version. */
@Entity('proposal_versions')
export class ProposalVersion {
  @PrimaryColumn('uuid', { name: 'proposal_id' })
  proposalId: string;

  @PrimaryColumn('int')
  version: number;

  @ManyToOne(() => Proposal, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'proposal_id' })
  proposal?: Proposal;

  /** The kind's typed payload, exactly as validated. */
  @Column('jsonb')
  content: Record<string, unknown>;

  @Column('text')
  rationale: string;

  @Column('text', { array: true })
  citations: string[];

  /** sha256 of the canonical JSON of kind, content, rationale and citations: what an approval binds to. */
  @Column('char', { name: 'content_hash', length: 64 })
  contentHash: string;

  @Column('uuid', { name: 'created_by' })
  createdBy: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
