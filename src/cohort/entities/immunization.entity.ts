import { Check, Column, Entity, Index } from 'typeorm';
import { CodeSystemUri, ImmunizationStatus } from '../enum';
import { codeSystemCheck, enumCheck } from './check';
import { PatientRecord } from './patient-record.base';

/** An Immunization (usually CVX): a vaccine given, or recorded as not given and why. The childhood immunization measures count them. */
@Entity('immunizations')
@Index('IDX_immunizations_patient', ['patientId'])
@Index('IDX_immunizations_code', ['codeSystem', 'code'])
@Check('CHK_immunizations_code_system', codeSystemCheck('code_system'))
@Check('CHK_immunizations_status', enumCheck('status', ImmunizationStatus))
@Check('CHK_immunizations_status_reason_system', codeSystemCheck('status_reason_system', true))
export class Immunization extends PatientRecord {
  @Column('text', { name: 'code_system' })
  codeSystem: CodeSystemUri;

  @Column('text')
  code: string;

  @Column('text')
  display: string;

  @Column('text')
  status: ImmunizationStatus;

  /** `occurrenceDateTime`. */
  @Column('timestamptz', { name: 'occurred_at', nullable: true })
  occurredAt: Date | null;

  /** `recorded`. */
  @Column('timestamptz', { name: 'recorded_at', nullable: true })
  recordedAt: Date | null;

  @Column('boolean', { name: 'primary_source', nullable: true })
  primarySource: boolean | null;

  /** `statusReason`: why the vaccine was not given. */
  @Column('text', { name: 'status_reason_system', nullable: true })
  statusReasonSystem: CodeSystemUri | null;

  @Column('text', { name: 'status_reason_code', nullable: true })
  statusReasonCode: string | null;
}
