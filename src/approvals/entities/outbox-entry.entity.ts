import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { enumCheck } from '../../schema/enum-check';
import { OutboxJob } from '../enum';

/**
 * Transactional outbox: written in the same transaction as the state change it announces, then
 * relayed to BullMQ. Redis being down delays a job; it can never lose one.
 */
@Entity('proposal_outbox')
@Index('IDX_proposal_outbox_pending', ['relayedAt', 'id'])
@Index('UQ_proposal_outbox_job', ['proposalId', 'job'], { unique: true })
@Check('CHK_proposal_outbox_job', enumCheck('job', OutboxJob))
export class OutboxEntry {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('uuid', { name: 'proposal_id' })
  proposalId: string;

  @Column('text')
  job: OutboxJob;

  /** When the job should run (expiry jobs are delayed until the deadline). */
  @Column('timestamptz', { name: 'run_at' })
  runAt: Date;

  @Column('timestamptz', { name: 'relayed_at', nullable: true })
  relayedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
