import { Check, Column, Entity, Index } from 'typeorm';
import { CodeSystemUri, MedicationAdministrationStatus } from '../enum';
import { codeSystemCheck, enumCheck } from './check';
import { PatientRecord } from './patient-record.base';

/**
 * A MedicationAdministration: a medication given (BCG instilled for bladder cancer, CMS646), or
 * recorded as not given and why (QI-Core MedicationAdministrationNotDone). By the medication it
 * names, flagged when coded through a referenced Medication, as requests and dispenses are.
 */
@Entity('medication_administrations')
@Index('IDX_medication_administrations_patient', ['patientId'])
@Index('IDX_medication_administrations_code', ['codeSystem', 'code'])
@Check('CHK_medication_administrations_code_system', codeSystemCheck('code_system'))
@Check('CHK_medication_administrations_status', enumCheck('status', MedicationAdministrationStatus))
@Check('CHK_medication_administrations_status_reason_system', codeSystemCheck('status_reason_system', true))
export class MedicationAdministration extends PatientRecord {
  @Column('text', { name: 'code_system' })
  codeSystem: CodeSystemUri;

  @Column('text')
  code: string;

  @Column('text')
  display: string;

  @Column('boolean', { name: 'code_from_reference', default: false })
  codeFromReference: boolean;

  @Column('text')
  status: MedicationAdministrationStatus;

  /** `statusReason`: why it was not given. */
  @Column('text', { name: 'status_reason_system', nullable: true })
  statusReasonSystem: CodeSystemUri | null;

  @Column('text', { name: 'status_reason_code', nullable: true })
  statusReasonCode: string | null;

  /** `effectiveDateTime`, or `effectivePeriod`'s start. */
  @Column('timestamptz', { name: 'effective_at', nullable: true })
  effectiveAt: Date | null;

  /** `effectivePeriod`'s end (null for a dateTime). */
  @Column('timestamptz', { name: 'effective_end_at', nullable: true })
  effectiveEndAt: Date | null;

  /** True when `effective` was a Period (given back as one, though it has no end). */
  @Column('boolean', { name: 'effective_is_period', default: false })
  effectiveIsPeriod: boolean;

  /** QI-Core's `qicore-recorded` extension: when one not given was recorded. */
  @Column('timestamptz', { name: 'recorded_at', nullable: true })
  recordedAt: Date | null;
}
