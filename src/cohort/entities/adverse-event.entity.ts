import { Check, Column, Entity, Index } from 'typeorm';
import { CodeSystemUri } from '../enum';
import { codeSystemCheck } from './check';
import { PatientRecord } from './patient-record.base';

/** An AdverseEvent (e.g. a reaction to a statin): a measure exclusion, so it is kept by the code it names. */
@Entity('adverse_events')
@Index('IDX_adverse_events_patient', ['patientId'])
@Check('CHK_adverse_events_code_system', codeSystemCheck('code_system'))
export class AdverseEvent extends PatientRecord {
  @Column('text', { name: 'code_system' })
  codeSystem: CodeSystemUri;

  @Column('text')
  code: string;

  @Column('text')
  display: string;

  /** `recordedDate`, else `date`. */
  @Column('timestamptz', { name: 'recorded_at' })
  recordedAt: Date;

  @Column('timestamptz', { name: 'occurred_at', nullable: true })
  occurredAt: Date | null;
}
