import { Check, Column, Entity, Index } from 'typeorm';
import { CodeSystem, ConditionClinicalStatus } from '../enum';
import { enumCheck } from './check';
import { PatientRecord } from './patient-record.base';

/** A problem-list entry or diagnosis, coded in ICD-10-CM or SNOMED CT (both occur in real data). */
@Entity('conditions')
@Index('IDX_conditions_patient', ['patientId'])
@Index('IDX_conditions_code', ['codeSystem', 'code'])
@Check('CHK_conditions_code_system', `"code_system" IN ('${CodeSystem.Icd10Cm}', '${CodeSystem.SnomedCt}')`)
@Check('CHK_conditions_clinical_status', enumCheck('clinical_status', ConditionClinicalStatus))
export class Condition extends PatientRecord {
  @Column('text', { name: 'code_system' })
  codeSystem: CodeSystem;

  @Column('text')
  code: string;

  @Column('text')
  display: string;

  @Column('text', { name: 'clinical_status' })
  clinicalStatus: ConditionClinicalStatus;

  @Column('date', { name: 'onset_date', nullable: true })
  onsetDate: string | null;

  @Column('date', { name: 'abatement_date', nullable: true })
  abatementDate: string | null;

  @Column('timestamptz', { name: 'recorded_at' })
  recordedAt: Date;
}
