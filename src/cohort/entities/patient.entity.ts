import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { DemographicCoding } from '../chart.types';
import { CATEGORY_CODE_PATTERN, Sex } from '../enum';
import { enumCheck } from './check';

/** Demographics and contact details: nearly every column here is a direct identifier (PHI). */
@Entity('patients')
@Index('IDX_patients_mrn', ['mrn'])
// The orders a care-team worklist pages in (migration Worklists).
@Index('IDX_patients_name_order', ['familyName', 'givenName', 'id'])
@Index('IDX_patients_birth_order', ['birthDate', 'id'])
// Patient search's name keys and case-free MRNs (migration PatientSearchNameKeys): expressions TypeORM cannot declare.
@Index('IDX_patients_family_name_key', { synchronize: false })
@Index('IDX_patients_family_given_key', { synchronize: false })
@Index('IDX_patients_given_family_key', { synchronize: false })
@Index('IDX_patients_mrn_upper', { synchronize: false })
@Check('CHK_patients_sex', enumCheck('sex', Sex))
@Check('CHK_patients_sex_code', `"sex_code" IS NULL OR "sex_code" ~ '${CATEGORY_CODE_PATTERN}'`)
@Check('CHK_patients_deceased_after_birth', '"deceased_at" IS NULL OR "deceased_at" >= "birth_date"')
export class Patient {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /**
   * An attribute, not a key: two source systems (or two test decks) can give different patients
   * the same MRN, and refusing the second patient would lose their record. Indexed for look-ups.
   */
  @Column('text')
  mrn: string;

  @Column('text', { name: 'given_name' })
  givenName: string;

  @Column('text', { name: 'family_name' })
  familyName: string;

  /** Calendar date, kept as `YYYY-MM-DD` so no time zone can shift it. */
  @Column('date', { name: 'birth_date' })
  birthDate: string;

  @Column('text')
  sex: Sex;

  /** US Core's sex extension (a SNOMED CT code), which QI-Core 6 measures read as `Patient.sex`; null when the source gave none. */
  @Column('text', { name: 'sex_code', nullable: true })
  sexCode: string | null;

  /** US Core's race and ethnicity extensions, as their codings (`part`: `ombCategory` or `detailed`); null when none given. */
  @Column('jsonb', { nullable: true })
  race: DemographicCoding[] | null;

  @Column('jsonb', { nullable: true })
  ethnicity: DemographicCoding[] | null;

  @Column('text', { nullable: true })
  phone: string | null;

  @Column('text', { nullable: true })
  email: string | null;

  @Column('text', { name: 'address_line', nullable: true })
  addressLine: string | null;

  @Column('text', { nullable: true })
  city: string | null;

  @Column('text', { nullable: true })
  state: string | null;

  @Column('text', { name: 'postal_code', nullable: true })
  postalCode: string | null;

  @Column('timestamptz', { name: 'deceased_at', nullable: true })
  deceasedAt: Date | null;

  /**
   * Changes, in the same transaction, whenever the patient's row or any row the measures read
   * (encounters, observations, conditions, medications, procedures, allergies, requests, adverse
   * events) or an executed proposal's effect changes: set by triggers (migration
   * MeasureResultsStore), never by the application. One value per writing transaction; compare
   * with `=`/`<>`, never `<` (see `vigil_data_version()`).
   */
  @Column('bigint', { name: 'data_version', default: () => 'vigil_data_version()' })
  dataVersion: string;

  /**
   * A secret random key (migration PopulationRecordKeys), drawn by the database on insert and never
   * changed, read or published by the application: only sums of it, inside the population counts'
   * statement, seed their perturbation. Not selected with the entity.
   */
  @Column('bigint', { name: 'population_record_key', default: () => 'vigil_population_record_key()', select: false })
  populationRecordKey?: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
