import { Check, Column, Entity, Index } from 'typeorm';
import { MedicationSupply } from '../chart.types';
import { CodeSystem, CodeSystemUri, MedicationStatus, RequestIntent } from '../enum';
import { codeSystemCheck, enumCheck } from './check';
import { PatientRecord } from './patient-record.base';

/**
 * A medication order (usually RxNorm). A plan is intent, not a record of doses taken; a row with
 * `do_not_perform` records a decision *not* to prescribe (QI-Core MedicationNotRequested).
 */
@Entity('medications')
@Index('IDX_medications_patient_start', ['patientId', 'startDate'])
@Index('IDX_medications_code', ['codeSystem', 'code'])
@Check('CHK_medications_code_system', codeSystemCheck('code_system'))
@Check('CHK_medications_status', enumCheck('status', MedicationStatus))
@Check('CHK_medications_intent', enumCheck('intent', RequestIntent, true))
@Check('CHK_medications_reason_system', codeSystemCheck('reason_system', true))
@Check('CHK_medications_period', '"end_date" IS NULL OR "end_date" >= "start_date"')
export class Medication extends PatientRecord {
  @Column('text', { name: 'code_system', default: CodeSystem.RxNorm })
  codeSystem: CodeSystemUri;

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

  @Column('text', { nullable: true })
  intent: RequestIntent | null;

  @Column('boolean', { name: 'do_not_perform', default: false })
  doNotPerform: boolean;

  /** The code came from a referenced Medication (`medicationReference`), not the request's own concept. */
  @Column('boolean', { name: 'code_from_reference', default: false })
  codeFromReference: boolean;

  @Column('timestamptz', { name: 'authored_at', nullable: true })
  authoredAt: Date | null;

  @Column('text', { name: 'reason_system', nullable: true })
  reasonSystem: CodeSystemUri | null;

  @Column('text', { name: 'reason_code', nullable: true })
  reasonCode: string | null;

  /** The raw dispense and timing elements (`MedicationSupply`), for cumulative medication duration. */
  @Column('jsonb', { nullable: true })
  supply: MedicationSupply | null;
}
