import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One population publication: the tables served for one version of one period's stored results,
 * and what the check of the next publication needs of it (its microcells — counts of patients per
 * stratum, status and reason class with their record-key sums, no patient id — and the value every
 * shown number was published as). Kept so that every API process serves the same draw, and so that
 * each new draw is checked together with the one served before it (docs/population-counts.md).
 */
@Entity('population_publications')
@Index('UQ_population_publications_version', ['periodStart', 'periodEnd', 'resultsVersion'], { unique: true })
export class PopulationPublicationRecord {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('date', { name: 'period_start' })
  periodStart: string;

  @Column('date', { name: 'period_end' })
  periodEnd: string;

  /** The version of the period's stored results the tables were drawn from. */
  @Column('text', { name: 'results_version' })
  resultsVersion: string;

  /** The newest `computed_at` of the results counted (null when the period has none). */
  @Column('timestamptz', { name: 'computed_at', nullable: true })
  computedAt: Date | null;

  /** The digest of the inputs: a new version with equal inputs publishes the same tables. */
  @Column('text')
  salt: string;

  /** What is served: the tables and the tables withheld. */
  @Column('jsonb')
  counts: object;

  /** What the next publication's check reads; never served. */
  @Column('jsonb', { name: 'check_record' })
  checkRecord: object;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

export const POPULATION_ENTITIES = [PopulationPublicationRecord];
