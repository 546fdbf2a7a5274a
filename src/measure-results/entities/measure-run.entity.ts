import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { enumCheck } from '../../schema/enum-check';
import { MeasureRunReason } from '../enum';

/**
 * A request to recompute stored results: the whole cohort (`patient_ids` NULL) or named patients,
 * for one period. Written in Postgres first (an outbox row: nothing is lost while Redis is down),
 * then planned into chunks and relayed to BullMQ. Its id is the generation the jobs and rows carry.
 */
@Entity('measure_runs')
@Index('UQ_measure_runs_period', ['periodStart', 'periodEnd'], { unique: true, where: `"reason" = 'period'` })
@Index('IDX_measure_runs_unplanned', ['id'], { where: '"planned_at" IS NULL' })
@Index('IDX_measure_runs_unfinished', ['id'], { where: '"finished_at" IS NULL' })
// Descending keys (migration 1764558000000): TypeORM cannot declare them, only leave them alone.
@Index('IDX_measure_runs_complete_periods', { synchronize: false })
@Check('CHK_measure_runs_reason', enumCheck('reason', MeasureRunReason))
@Check('CHK_measure_runs_chunk_size', '"chunk_size" BETWEEN 1 AND 10000')
export class MeasureRun {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('text')
  reason: MeasureRunReason;

  @Column('date', { name: 'period_start' })
  periodStart: string;

  @Column('date', { name: 'period_end' })
  periodEnd: string;

  /** Recompute even patients whose stored results are current (once per run). */
  @Column('boolean', { default: false })
  force: boolean;

  /** The patients to recompute; NULL: every patient. */
  @Column('uuid', { name: 'patient_ids', array: true, nullable: true })
  patientIds: string[] | null;

  @Column('integer', { name: 'chunk_size' })
  chunkSize: number;

  /** How many chunks the planner made (NULL until planned). */
  @Column('integer', { nullable: true })
  chunks: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'planned_at', nullable: true })
  plannedAt: Date | null;

  @Column('timestamptz', { name: 'finished_at', nullable: true })
  finishedAt: Date | null;
}

/**
 * One job's share of a run: an id range of the cohort (`after_id` exclusive, `through_id`
 * inclusive, NULL meaning open), or, for a run of named patients, the `chunk_no`-th slice of the
 * run's sorted `patient_ids` (both bounds NULL). Finished, with its counts, in the same
 * transaction as its results: a chunk is written once per run, whatever workers die or retry.
 */
@Entity('measure_run_chunks')
export class MeasureRunChunk {
  @PrimaryColumn('bigint', { name: 'run_id' })
  runId: string;

  @PrimaryColumn('integer', { name: 'chunk_no' })
  chunkNo: number;

  @Column('uuid', { name: 'after_id', nullable: true })
  afterId: string | null;

  @Column('uuid', { name: 'through_id', nullable: true })
  throughId: string | null;

  /** Patients evaluated and written by this chunk. */
  @Column('integer', { nullable: true })
  computed: number | null;

  /** Patients in the chunk whose stored results were already current. */
  @Column('integer', { nullable: true })
  skipped: number | null;

  @Column('timestamptz', { name: 'finished_at', nullable: true })
  finishedAt: Date | null;

  @ManyToOne(() => MeasureRun, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id' })
  run?: MeasureRun;
}
