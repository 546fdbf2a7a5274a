import { Check, Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { CodeSystemUri, ProcedureStatus } from '../enum';
import { codeSystemCheck, enumCheck } from './check';
import { Encounter } from './encounter.entity';
import { PatientRecord } from './patient-record.base';

/** A procedure (CPT, HCPCS, ICD-10-PCS, SNOMED CT, LOINC…, e.g. a colonoscopy), done or recorded as `not-done`. */
@Entity('procedures')
@Index('IDX_procedures_patient_performed', ['patientId', 'performedAt'])
@Index('IDX_procedures_code', ['codeSystem', 'code'])
@Index('IDX_procedures_encounter', ['encounterId'])
@Check('CHK_procedures_code_system', codeSystemCheck('code_system'))
@Check('CHK_procedures_status', enumCheck('status', ProcedureStatus))
@Check('CHK_procedures_status_reason_system', codeSystemCheck('status_reason_system', true))
@Check('CHK_procedures_body_site_system', codeSystemCheck('body_site_system', true))
@Check('CHK_procedures_reason_system', codeSystemCheck('reason_system', true))
export class Procedure extends PatientRecord {
  @Column('uuid', { name: 'encounter_id', nullable: true })
  encounterId: string | null;

  @ManyToOne(() => Encounter, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'encounter_id' })
  encounter?: Encounter;

  @Column('text', { name: 'code_system' })
  codeSystem: CodeSystemUri;

  @Column('text')
  code: string;

  @Column('text')
  display: string;

  @Column('text')
  status: ProcedureStatus;

  @Column('timestamptz', { name: 'performed_at' })
  performedAt: Date;

  /** The end of `performedPeriod`; null for a point in time. */
  @Column('timestamptz', { name: 'performed_end_at', nullable: true })
  performedEndAt: Date | null;

  /** `performedPeriod` had a start and no end: still going (CQL reads it to the end of time). */
  @Column('boolean', { name: 'performed_period_open', default: false })
  performedPeriodOpen: boolean;

  /** For `not-done`: why (`statusReason`). */
  @Column('text', { name: 'status_reason_system', nullable: true })
  statusReasonSystem: CodeSystemUri | null;

  @Column('text', { name: 'status_reason_code', nullable: true })
  statusReasonCode: string | null;

  @Column('text', { name: 'body_site_system', nullable: true })
  bodySiteSystem: CodeSystemUri | null;

  @Column('text', { name: 'body_site_code', nullable: true })
  bodySiteCode: string | null;

  /** Why it was done (`reasonCode`): a dietary regime counts as follow-up of a high BMI only for it. */
  @Column('text', { name: 'reason_system', nullable: true })
  reasonSystem: CodeSystemUri | null;

  @Column('text', { name: 'reason_code', nullable: true })
  reasonCode: string | null;
}
