import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { enumCheck } from '../../schema/enum-check';
import { DeliveryDestination, DeliveryFailure, DeliveryStatus } from '../enum';
import { Proposal } from './proposal.entity';

/**
 * One applied effect on its way to one destination (docs/delivery.md): written by the executor in
 * the transaction that writes the effect, so an effect can never exist without its deliveries. It is
 * both the outbox (the relay hands each due attempt to `vigil-deliveries`) and the delivery's state:
 * attempts, the lease of the attempt in flight, the next attempt's time, the last failure's reason,
 * and what the destination answered (the FHIR resource's id and version).
 */
@Entity('proposal_deliveries')
@Index('UQ_proposal_deliveries_destination', ['proposalId', 'destination'], { unique: true })
// The relay's and the sweep's work: only deliveries still under way are indexed.
@Index('IDX_proposal_deliveries_open', ['nextAttemptAt'], { where: `"status" IN ('pending', 'retrying')` })
@Index('IDX_proposal_deliveries_failed', ['updatedAt'], { where: `"status" = 'failed'` })
@Check('CHK_proposal_deliveries_destination', enumCheck('destination', DeliveryDestination))
@Check('CHK_proposal_deliveries_status', enumCheck('status', DeliveryStatus))
@Check('CHK_proposal_deliveries_reason', enumCheck('last_error', DeliveryFailure, true))
export class ProposalDelivery {
  /** Also the webhook's `webhook-id` (as `msg_<id>`): stable across retries, so a receiver drops a repeat. */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'proposal_id' })
  proposalId: string;

  @ManyToOne(() => Proposal, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'proposal_id' })
  proposal?: Proposal;

  @Column('text')
  destination: DeliveryDestination;

  /** The executed version: with the proposal id, the identifier the delivered resource carries. */
  @Column('int')
  version: number;

  @Column('char', { name: 'content_hash', length: 64 })
  contentHash: string;

  @Column('text', { default: DeliveryStatus.Pending })
  status: DeliveryStatus;

  /** Attempts started (a claimed attempt counts, even when its worker dies). */
  @Column('int', { default: 0 })
  attempts: number;

  /**
   * `attempts` when an operator last retried the dead letter (`deliveries-retry`): the attempts
   * since then are what count against DELIVERY_MAX_ATTEMPTS. `attempts` itself never goes back, so
   * every attempt's job id stays new.
   */
  @Column('int', { name: 'retried_from', default: 0 })
  retriedFrom: number;

  /** The attempt whose job the relay has handed to the queue; the relay hands on the next one. */
  @Column('int', { name: 'enqueued_attempt', default: 0 })
  enqueuedAttempt: number;

  @Column('timestamptz', { name: 'next_attempt_at', default: () => 'now()' })
  nextAttemptAt: Date;

  /** While set and in the future, an attempt is in flight and no other may start. */
  @Column('timestamptz', { name: 'lease_until', nullable: true })
  leaseUntil: Date | null;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: DeliveryFailure | null;

  /** The HTTP status of the last answer, if there was one. */
  @Column('int', { name: 'last_http_status', nullable: true })
  lastHttpStatus: number | null;

  @Column('text', { name: 'resource_type', nullable: true })
  resourceType: string | null;

  @Column('text', { name: 'resource_id', nullable: true })
  resourceId: string | null;

  @Column('text', { name: 'resource_version', nullable: true })
  resourceVersion: string | null;

  @Column('text', { name: 'provenance_id', nullable: true })
  provenanceId: string | null;

  @Column('timestamptz', { name: 'delivered_at', nullable: true })
  deliveredAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
