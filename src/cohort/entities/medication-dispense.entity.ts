import { Check, Column, Entity, Index } from 'typeorm';
import { DosageTiming } from '../chart.types';
import { CodeSystemUri, MedicationDispenseStatus } from '../enum';
import { codeSystemCheck, enumCheck } from './check';
import { PatientRecord } from './patient-record.base';

/**
 * A MedicationDispense: a supply handed to the patient (usually RxNorm). The adherence measures
 * (antidepressant continuation, for one) count the days dispenses cover, so the elements
 * CumulativeMedicationDuration reads are kept as given.
 */
@Entity('medication_dispenses')
@Index('IDX_medication_dispenses_patient', ['patientId'])
@Index('IDX_medication_dispenses_code', ['codeSystem', 'code'])
@Check('CHK_medication_dispenses_code_system', codeSystemCheck('code_system'))
@Check('CHK_medication_dispenses_status', enumCheck('status', MedicationDispenseStatus))
export class MedicationDispense extends PatientRecord {
  @Column('text', { name: 'code_system' })
  codeSystem: CodeSystemUri;

  @Column('text')
  code: string;

  @Column('text')
  display: string;

  @Column('text')
  status: MedicationDispenseStatus;

  /** The code came from a referenced Medication (`medicationReference`), not the dispense's own concept. */
  @Column('boolean', { name: 'code_from_reference', default: false })
  codeFromReference: boolean;

  /** `whenHandedOver`. */
  @Column('timestamptz', { name: 'handed_over_at', nullable: true })
  handedOverAt: Date | null;

  /** `whenPrepared`. */
  @Column('timestamptz', { name: 'prepared_at', nullable: true })
  preparedAt: Date | null;

  /** `daysSupply` in days. */
  @Column('double precision', { name: 'days_supply', nullable: true })
  daysSupply: number | null;

  /** `quantity.value`. */
  @Column('double precision', { nullable: true })
  quantity: number | null;

  /** The first dosage's timing and dose (`DosageTiming`). */
  @Column('jsonb', { nullable: true })
  dosage: DosageTiming | null;
}
