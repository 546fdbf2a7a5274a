import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Patient } from '../../cohort/entities/patient.entity';
import { MeasurePackageRecord } from '../../measure-packages/entities/measure-package.entity';
import { enumCheck } from '../../schema/enum-check';
import { StoredGapStatus } from '../enum';

/**
 * One measure's result for one patient over one measurement period, as `care_gap_lookup` would
 * answer it, computed ahead of time by the recompute workers. `data_version` is the patient's
 * `patients.data_version` the computation read (in the same snapshot as the chart): a row whose
 * version differs from the patient's current one is stale, which SQL can tell without evaluating.
 */
@Entity('measure_results')
@Index('IDX_measure_results_worklist', ['periodEnd', 'periodStart', 'measureId', 'status', 'patientId'])
// Expression indexes (migrations 1764549500000, 1764555000000): TypeORM cannot declare them, only leave them alone.
@Index('IDX_measure_results_last_evidence', { synchronize: false })
@Index('IDX_measure_results_any_last_evidence', { synchronize: false })
@Index('IDX_measure_results_status_last_evidence', { synchronize: false })
@Index('IDX_measure_results_measure_status_last_evidence', { synchronize: false })
@Check('CHK_measure_results_status', enumCheck('status', StoredGapStatus))
export class MeasureResult {
  @PrimaryColumn('uuid', { name: 'patient_id' })
  patientId: string;

  // Key order (migration 1764549000000): a patient's rows of one period, then the measure.
  @PrimaryColumn('date', { name: 'period_start' })
  periodStart: string;

  @PrimaryColumn('date', { name: 'period_end' })
  periodEnd: string;

  @PrimaryColumn('text', { name: 'measure_id' })
  measureId: string;

  @Column('text')
  status: StoredGapStatus;

  @Column('text', { name: 'reason_code' })
  reasonCode: string;

  /** The clinician's sentence the live tool gives (never a patient's date or age). */
  @Column('text')
  reason: string;

  /** Every population group: its populations, status, reason and citations (the live tool's `groups`). */
  @Column('jsonb')
  populations: unknown;

  /** Citations (`obs:<uuid>`, …) of the rows that decided the status. */
  @Column('jsonb')
  evidence: unknown;

  @Column('text', { name: 'to_close' })
  toClose: string;

  @Column('jsonb', { name: 'data_quality' })
  dataQuality: unknown;

  /** The chart was longer than Vigil reads at once (the live tool's `partial`). */
  @Column('boolean', { default: false })
  partial: boolean;

  @Column('bigint', { name: 'data_version' })
  dataVersion: string;

  /** The run (generation) that wrote the row. */
  @Column('bigint', { name: 'run_id' })
  runId: string;

  /** The day of the most recent row the result cites: what a worklist sorts by as "the last relevant result". */
  @Column('date', { name: 'last_evidence_on', nullable: true })
  lastEvidenceOn: string | null;

  @Column('timestamptz', { name: 'computed_at' })
  computedAt: Date;

  /** SHA-256 of the content as the recompute wrote it (`resultContentHash`); NULL for rows written before it was kept. */
  @Column('bytea', { name: 'content_hash', nullable: true })
  contentHash: Buffer | null;

  /**
   * The loaded edition (`measure_packages` row) a loaded measure's result was computed with; NULL for
   * the built-in measures. Current only while the period still takes that edition.
   */
  @Column('uuid', { name: 'measure_package_id', nullable: true })
  measurePackageId: string | null;

  @ManyToOne(() => Patient, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'patient_id' })
  patient?: Patient;

  @ManyToOne(() => MeasurePackageRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'measure_package_id', foreignKeyConstraintName: 'FK_measure_results_package' })
  measurePackage?: MeasurePackageRecord;
}
