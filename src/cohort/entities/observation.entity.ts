import { Check, Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { CATEGORY_CODE_PATTERN, CodeSystem, CodeSystemUri, Interpretation, OBSERVATION_CATEGORY_SYSTEM, ObservationCategoryCode, ObservationStatus } from '../enum';
import { codeSystemCheck, enumCheck } from './check';
import { Encounter } from './encounter.entity';
import { PatientRecord } from './patient-record.base';

/**
 * A lab result, vital sign, survey answer or any other observation. Components of a panel (systolic and diastolic
 * of one blood-pressure reading) are separate rows sharing a `panel_id`. A row may have no value
 * (a test done without a result is what some measures count), but then it says why (`data_absent_reason`).
 */
@Entity('observations')
@Index('IDX_observations_patient_effective', ['patientId', 'effectiveAt'])
@Index('IDX_observations_patient_code_effective', ['patientId', 'code', 'effectiveAt'])
@Index('IDX_observations_code', ['codeSystem', 'code'])
@Index('IDX_observations_encounter', ['encounterId'])
@Check('CHK_observations_category', `"category" IS NULL OR "category" ~ '${CATEGORY_CODE_PATTERN}'`)
@Check('CHK_observations_category_system', codeSystemCheck('category_system', true))
@Check('CHK_observations_not_done_reason_system', codeSystemCheck('not_done_reason_system', true))
@Check('CHK_observations_category_pair', '("category" IS NULL) = ("category_system" IS NULL)')
@Check('CHK_observations_status', enumCheck('status', ObservationStatus))
@Check('CHK_observations_interpretation', enumCheck('interpretation', Interpretation, true))
@Check('CHK_observations_code_system', codeSystemCheck('code_system'))
@Check('CHK_observations_value_system', codeSystemCheck('value_system', true))
@Check(
  'CHK_observations_value_or_absent',
  '"value_numeric" IS NOT NULL OR "value_text" IS NOT NULL OR "value_code" IS NOT NULL OR "data_absent_reason" IS NOT NULL',
)
export class Observation extends PatientRecord {
  @Column('uuid', { name: 'encounter_id', nullable: true })
  encounterId: string | null;

  @ManyToOne(() => Encounter, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'encounter_id' })
  encounter?: Encounter;

  @Column('uuid', { name: 'panel_id', nullable: true })
  panelId: string | null;

  /**
   * The category code exactly as the source gave it, of any system (`category_system`); null when the
   * source gave none (R4 makes it optional). With several, the one `observationCategory` in the
   * importer prefers. Only `laboratory` of the HL7 system makes a row a laboratory result.
   */
  @Column('text', { nullable: true })
  category: ObservationCategoryCode | null;

  @Column('text', { name: 'category_system', nullable: true, default: OBSERVATION_CATEGORY_SYSTEM })
  categorySystem: CodeSystemUri | null;

  @Column('text')
  status: ObservationStatus;

  @Column('text', { name: 'code_system', default: CodeSystem.Loinc })
  codeSystem: CodeSystemUri;

  @Column('text')
  code: string;

  @Column('text')
  display: string;

  /** Exact decimal as recorded; the pg driver returns it as a string so no precision is lost. */
  @Column('numeric', { name: 'value_numeric', nullable: true })
  valueNumeric: string | null;

  @Column('text', { name: 'value_text', nullable: true })
  valueText: string | null;

  /** UCUM unit code exactly as recorded (variants such as `mL/min` vs `mL/min/{1.73_m2}` are kept). */
  @Column('text', { nullable: true })
  unit: string | null;

  @Column('numeric', { name: 'reference_low', nullable: true })
  referenceLow: string | null;

  @Column('numeric', { name: 'reference_high', nullable: true })
  referenceHigh: string | null;

  @Column('text', { name: 'reference_text', nullable: true })
  referenceText: string | null;

  @Column('text', { nullable: true })
  interpretation: Interpretation | null;

  @Column('timestamptz', { name: 'effective_at' })
  effectiveAt: Date;

  /** The end of `effectivePeriod`; null for a point in time. */
  @Column('timestamptz', { name: 'effective_end_at', nullable: true })
  effectiveEndAt: Date | null;

  /** `effectivePeriod` had a start and no end: still going (CQL reads it to the end of time). */
  @Column('boolean', { name: 'effective_period_open', default: false })
  effectivePeriodOpen: boolean;

  /** A coded answer (`valueCodeableConcept`); `value_text` holds its display. */
  @Column('text', { name: 'value_system', nullable: true })
  valueSystem: CodeSystemUri | null;

  @Column('text', { name: 'value_code', nullable: true })
  valueCode: string | null;

  @Column('text', { name: 'data_absent_reason', nullable: true })
  dataAbsentReason: string | null;

  /** `issued`: when the result was made available (a cancelled observation's exceptions are dated by it). */
  @Column('timestamptz', { name: 'issued_at', nullable: true })
  issuedAt: Date | null;

  /** Why it was not done: QI-Core's `notDoneReason` extension of a cancelled Observation. */
  @Column('text', { name: 'not_done_reason_system', nullable: true })
  notDoneReasonSystem: CodeSystemUri | null;

  @Column('text', { name: 'not_done_reason_code', nullable: true })
  notDoneReasonCode: string | null;

  /** The Procedure this observation is `partOf`: the row id it has or will have (no foreign key: it may come later, or never). */
  @Column('uuid', { name: 'part_of_procedure_id', nullable: true })
  partOfProcedureId: string | null;

  /** True for the row of a panel itself (its own code and value), false for its components and for an observation that is no panel. */
  @Column('boolean', { name: 'panel_own_value', default: false })
  panelOwnValue: boolean;
}
