import { Check, Column, Entity, Index } from 'typeorm';
import { CodeSystemUri, EventStatus } from '../enum';
import { codeSystemCheck, enumCheck } from './check';
import { PatientRecord } from './patient-record.base';

/** A Communication, kept by its category: what the measures select it by (findings communicated to a physician, or not and why). */
@Entity('communications')
@Index('IDX_communications_patient', ['patientId'])
@Index('IDX_communications_category', ['categorySystem', 'categoryCode'])
@Check('CHK_communications_category_system', codeSystemCheck('category_system', true))
@Check('CHK_communications_status', enumCheck('status', EventStatus))
@Check('CHK_communications_status_reason_system', codeSystemCheck('status_reason_system', true))
export class Communication extends PatientRecord {
  @Column('text', { name: 'category_system', nullable: true })
  categorySystem: CodeSystemUri | null;

  @Column('text', { name: 'category_code', nullable: true })
  categoryCode: string | null;

  @Column('text', { name: 'category_display', nullable: true })
  categoryDisplay: string | null;

  @Column('text')
  status: EventStatus;

  /** `statusReason`: why it was not communicated. */
  @Column('text', { name: 'status_reason_system', nullable: true })
  statusReasonSystem: CodeSystemUri | null;

  @Column('text', { name: 'status_reason_code', nullable: true })
  statusReasonCode: string | null;

  @Column('timestamptz', { name: 'sent_at', nullable: true })
  sentAt: Date | null;

  @Column('timestamptz', { name: 'received_at', nullable: true })
  receivedAt: Date | null;

  /** QI-Core's `qicore-recorded` extension. */
  @Column('timestamptz', { name: 'recorded_at', nullable: true })
  recordedAt: Date | null;
}
