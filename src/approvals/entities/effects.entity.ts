import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The writes an approved proposal performs, one table per kind. Every row names its proposal and
 * `proposal_id` is UNIQUE: whatever retries, duplicate deliveries or racing workers do, a
 * proposal's effect can exist at most once (the insert and the status change commit together).
 */
abstract class Effect {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'proposal_id' })
  proposalId: string;

  @Column('uuid', { name: 'patient_id' })
  patientId: string;

  /** The content hash of the approved version this effect was made from. */
  @Column('char', { name: 'content_hash', length: 64 })
  contentHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

@Entity('care_gap_closures')
@Index('UQ_care_gap_closures_proposal', ['proposalId'], { unique: true })
@Index('IDX_care_gap_closures_patient', ['patientId', 'measureId'])
export class CareGapClosure extends Effect {
  @Column('text', { name: 'measure_id' })
  measureId: string;

  @Column('text', { array: true })
  evidence: string[];

  @Column('text', { name: 'remark_code', nullable: true })
  remarkCode: string | null;

  /** The measurement period it was recorded for: the trailing year the executor found the gap open in (read back as an attestation). */
  @Column('date', { name: 'period_start' })
  periodStart: string;

  @Column('date', { name: 'period_end' })
  periodEnd: string;

  /** A loaded measure's edition it was executed under (`url|version`), which its delivery names; null for a built-in measure. */
  @Column('text', { name: 'measure_canonical', nullable: true })
  measureCanonical: string | null;
}

@Entity('lab_orders')
@Index('UQ_lab_orders_proposal', ['proposalId'], { unique: true })
@Index('IDX_lab_orders_patient_code', ['patientId', 'loincCode', 'createdAt'])
export class LabOrder extends Effect {
  @Column('text', { name: 'loinc_code' })
  loincCode: string;

  @Column('text')
  priority: string;

  @Column('text')
  reason: string;
}

@Entity('care_notes')
@Index('UQ_care_notes_proposal', ['proposalId'], { unique: true })
@Index('IDX_care_notes_patient', ['patientId'])
export class CareNote extends Effect {
  @Column('text', { name: 'note_type' })
  noteType: string;

  @Column('text')
  text: string;
}

@Entity('outreach_tasks')
@Index('UQ_outreach_tasks_proposal', ['proposalId'], { unique: true })
@Index('IDX_outreach_tasks_patient', ['patientId', 'dueDate'])
export class OutreachTask extends Effect {
  @Column('text')
  channel: string;

  @Column('date', { name: 'due_date' })
  dueDate: string;

  @Column('text')
  reason: string;
}
