import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { MeasureLibraryRecord } from './measure-library.entity';
import { ValueSetExpansionRecord } from './value-set-expansion.entity';
import type { MeasureGroupDefinition } from '../measure-content';

/**
 * One published measure, as its steward published it: the FHIR `Measure`, what Vigil reads of it
 * (key, scoring, groups, measurement period), its primary library and, through the two link tables,
 * the include closure of its ELM and the value-set expansions that ELM names. Several editions of a
 * measure live side by side, one row per canonical url and version; a row is never updated (a
 * trigger refuses it): a changed measure is a new version.
 */
@Entity('measure_packages')
@Index('UQ_measure_packages_url_version', ['url', 'version'], { unique: true })
@Index('IDX_measure_packages_key', ['key'])
@Check('CHK_measure_packages_period', '"period_start" IS NULL OR "period_end" IS NULL OR "period_start" <= "period_end"')
export class MeasurePackageRecord {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** `Measure.url`, the canonical url. */
  @Column('text')
  url: string;

  /** `Measure.version`, as published (`1.0.000`, `Draft based on 0.4.003`). */
  @Column('text')
  version: string;

  /** What people call it: `CMS122`, or the short name where there is no CMS number (`NHSNACHMonthly1`). */
  @Column('text')
  key: string;

  @Column('text')
  title: string;

  /** The edition it came from: the folder's `index.json` edition, `--edition`, or the file's name. */
  @Column('text')
  edition: string;

  /** `proportion`, `ratio`, `continuous-variable`, `cohort`, or `mixed` when its groups differ. */
  @Column('text')
  scoring: string;

  /** `boolean` (patient-based), the episode's resource type (`Encounter`…), or `mixed`. */
  @Column('text')
  basis: string;

  /** Every population group: id, scoring, basis, populations (code, id, CQL expression), stratifiers. */
  @Column('jsonb')
  groups: MeasureGroupDefinition[];

  /** The default measurement period: `Measure.effectivePeriod`, else the edition index's. */
  @Column('date', { name: 'period_start', nullable: true })
  periodStart: string | null;

  @Column('date', { name: 'period_end', nullable: true })
  periodEnd: string | null;

  @Column('integer', { name: 'primary_library_id' })
  primaryLibraryId: number;

  @ManyToOne(() => MeasureLibraryRecord)
  @JoinColumn({ name: 'primary_library_id' })
  primaryLibrary?: MeasureLibraryRecord;

  /** The `Measure` resource unchanged (supplemental data, descriptions, improvement notation…). */
  @Column('jsonb')
  measure: object;

  /** SHA-256 of the Measure, its libraries and its expansions: a re-load with equal content is a no-op. */
  @Column('character', { name: 'content_hash', length: 64 })
  contentHash: string;

  @Column('timestamptz', { name: 'loaded_at', default: () => 'now()' })
  loadedAt: Date;

  /** The operating-system user who ran the load. */
  @Column('text', { name: 'loaded_by' })
  loadedBy: string;

  /** The correlation id of the load's audit event. */
  @Column('uuid', { name: 'load_correlation_id' })
  loadCorrelationId: string;
}

/** A library of a measure's include closure (its primary library among them). */
@Entity('measure_package_libraries')
export class MeasurePackageLibraryRecord {
  @PrimaryColumn('uuid', { name: 'measure_package_id' })
  measurePackageId: string;

  @ManyToOne(() => MeasurePackageRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'measure_package_id' })
  measurePackage?: MeasurePackageRecord;

  @PrimaryColumn('integer', { name: 'library_id' })
  libraryId: number;

  @ManyToOne(() => MeasureLibraryRecord)
  @JoinColumn({ name: 'library_id' })
  library?: MeasureLibraryRecord;
}

/** A value-set expansion a measure's ELM names, and where it came from. */
@Entity('measure_package_value_sets')
export class MeasurePackageValueSetRecord {
  @PrimaryColumn('uuid', { name: 'measure_package_id' })
  measurePackageId: string;

  @ManyToOne(() => MeasurePackageRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'measure_package_id' })
  measurePackage?: MeasurePackageRecord;

  @PrimaryColumn('integer', { name: 'value_set_id' })
  valueSetId: number;

  @ManyToOne(() => ValueSetExpansionRecord)
  @JoinColumn({ name: 'value_set_id' })
  valueSet?: ValueSetExpansionRecord;

  /** The names the ELM declares it under (`Diabetes`), in its libraries. */
  @Column('text', { array: true })
  names: string[];

  /** True when the expansion is the operator's supplement (`--supplement`), not the edition's own. */
  @Column('boolean', { name: 'from_supplement', default: false })
  fromSupplement: boolean;
}
