import { Check, Column, Entity, Index } from 'typeorm';
import { AllergyClinicalStatus, CodeSystemUri } from '../enum';
import { codeSystemCheck, enumCheck } from './check';
import { PatientRecord } from './patient-record.base';

/**
 * An allergy or intolerance. "No known allergies" is itself a recorded fact (SNOMED 716186003),
 * which is how `missing_data_check` tells "none" from "never asked".
 */
@Entity('allergies')
@Index('IDX_allergies_patient', ['patientId'])
@Check('CHK_allergies_code_system', codeSystemCheck('code_system'))
@Check('CHK_allergies_clinical_status', enumCheck('clinical_status', AllergyClinicalStatus))
export class Allergy extends PatientRecord {
  @Column('text', { name: 'code_system' })
  codeSystem: CodeSystemUri;

  @Column('text')
  code: string;

  @Column('text')
  display: string;

  @Column('text', { name: 'clinical_status' })
  clinicalStatus: AllergyClinicalStatus;

  @Column('timestamptz', { name: 'recorded_at' })
  recordedAt: Date;

  /** `onsetDateTime`, or the start of `onsetPeriod`. */
  @Column('timestamptz', { name: 'onset_at', nullable: true })
  onsetAt: Date | null;

  @Column('timestamptz', { name: 'onset_end_at', nullable: true })
  onsetEndAt: Date | null;

  /** `onsetPeriod` had a start and no end: still going (CQL reads it to the end of time). */
  @Column('boolean', { name: 'onset_period_open', default: false })
  onsetPeriodOpen: boolean;
}
