import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Patient } from '../../cohort/entities/patient.entity';
import { MeasurePackageRecord } from '../../measure-packages/entities/measure-package.entity';

/**
 * A loaded measure that failed on one patient's record for one period, in place of the result it
 * could not give. It counts as current, like a result, while the patient's data version and the
 * period's edition are the ones it failed on: the recompute does not retry it every sweep, only once
 * the record changes or another edition is loaded. `detail` names the measure, the edition and the
 * ELM statement (the problem's detail), never a patient or a value.
 */
@Entity('measure_result_failures')
export class MeasureResultFailure {
  @PrimaryColumn('uuid', { name: 'patient_id', primaryKeyConstraintName: 'PK_measure_result_failures' })
  patientId: string;

  @PrimaryColumn('date', { name: 'period_start', primaryKeyConstraintName: 'PK_measure_result_failures' })
  periodStart: string;

  @PrimaryColumn('date', { name: 'period_end', primaryKeyConstraintName: 'PK_measure_result_failures' })
  periodEnd: string;

  /** The loaded measure's key. */
  @PrimaryColumn('text', { name: 'measure_id', primaryKeyConstraintName: 'PK_measure_result_failures' })
  measureId: string;

  @Column('uuid', { name: 'measure_package_id' })
  measurePackageId: string;

  /** The patient's data version the failed evaluation read. */
  @Column('bigint', { name: 'data_version' })
  dataVersion: string;

  @Column('text')
  detail: string;

  @Column('bigint', { name: 'run_id' })
  runId: string;

  @Column('timestamptz', { name: 'failed_at', default: () => 'now()' })
  failedAt: Date;

  @ManyToOne(() => Patient, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'patient_id', foreignKeyConstraintName: 'FK_measure_result_failures_patient' })
  patient?: Patient;

  @ManyToOne(() => MeasurePackageRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'measure_package_id', foreignKeyConstraintName: 'FK_measure_result_failures_package' })
  measurePackage?: MeasurePackageRecord;
}
