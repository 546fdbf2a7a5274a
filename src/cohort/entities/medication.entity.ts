import { Check, Column, Entity, Index } from 'typeorm';
import { CodeSystem, MedicationStatus } from '../enum';
import { enumCheck } from './check';
import { PatientRecord } from './patient-record.base';

/** A medication order (RxNorm). A plan is intent, not a record of doses taken. */
@Entity('medications')
@Index('IDX_medications_patient_start', ['patientId', 'startDate'])
@Index('IDX_medications_code', ['codeSystem', 'code'])
@Check('CHK_medications_code_system', `"code_system" IN ('${CodeSystem.RxNorm}')`)
@Check('CHK_medications_status', enumCheck('status', MedicationStatus))
@Check('CHK_medications_period', '"end_date" IS NULL OR "end_date" >= "start_date"')
export class Medication extends PatientRecord {
  @Column('text', { name: 'code_system', default: CodeSystem.RxNorm })
  codeSystem: CodeSystem;

  @Column('text')
  code: string;

  @Column('text')
  display: string;

  @Column('text')
  status: MedicationStatus;

  @Column('date', { name: 'start_date' })
  startDate: string;

  @Column('date', { name: 'end_date', nullable: true })
  endDate: string | null;

  @Column('text', { name: 'dosage_text', nullable: true })
  dosageText: string | null;
}
