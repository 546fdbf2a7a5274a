import { Check, Column, Entity, Index } from 'typeorm';
import { CodeSystemUri, EncounterClass, EncounterStatus } from '../enum';
import { codeSystemCheck, enumCheck } from './check';
import { PatientRecord } from './patient-record.base';
import type { EncounterDiagnosis, EncounterLocation } from '../chart.types';

@Entity('encounters')
@Index('IDX_encounters_patient_start', ['patientId', 'startAt'])
@Check('CHK_encounters_class', enumCheck('class', EncounterClass))
@Check('CHK_encounters_status', enumCheck('status', EncounterStatus))
@Check('CHK_encounters_type_system', codeSystemCheck('type_system', true))
@Check('CHK_encounters_reason_system', codeSystemCheck('reason_system', true))
@Check('CHK_encounters_discharge_disposition_system', codeSystemCheck('discharge_disposition_system', true))
@Check('CHK_encounters_period', '"end_at" IS NULL OR "end_at" >= "start_at"')
export class Encounter extends PatientRecord {
  @Column('text')
  class: EncounterClass;

  /** The class as the source coded it (HL7 v3 ActCode, e.g. `PRENC`): the eCQMs compare the raw code. */
  @Column('text', { name: 'class_code', nullable: true })
  classCode: string | null;

  @Column('text')
  status: EncounterStatus;

  @Column('text', { name: 'type_system', nullable: true })
  typeSystem: CodeSystemUri | null;

  @Column('text', { name: 'type_code', nullable: true })
  typeCode: string | null;

  @Column('text', { name: 'type_display', nullable: true })
  typeDisplay: string | null;

  /** Every `type` coding beyond the stored one (`[{system, code}]`); null when there was none. */
  @Column('jsonb', { name: 'type_other_codings', nullable: true })
  typeOtherCodings: { system: string; code: string }[] | null;

  @Column('text', { name: 'reason_system', nullable: true })
  reasonSystem: CodeSystemUri | null;

  @Column('text', { name: 'reason_code', nullable: true })
  reasonCode: string | null;

  @Column('text', { name: 'reason_display', nullable: true })
  reasonDisplay: string | null;

  @Column('timestamptz', { name: 'start_at' })
  startAt: Date;

  @Column('timestamptz', { name: 'end_at', nullable: true })
  endAt: Date | null;

  /** Discharge disposition as recorded (free text from the source system, e.g. "home"). */
  @Column('text', { nullable: true })
  disposition: string | null;

  /** `hospitalization.dischargeDisposition` as a code: the eCQMs compare it (e.g. discharged to hospice). */
  @Column('text', { name: 'discharge_disposition_system', nullable: true })
  dischargeDispositionSystem: CodeSystemUri | null;

  @Column('text', { name: 'discharge_disposition_code', nullable: true })
  dischargeDispositionCode: string | null;

  /**
   * `diagnosis`: each condition the encounter names (as `Type/<row id>`, the row that Condition has
   * in this import), with its role (`use`) and `rank`; null when there was none. The measures follow
   * the reference to the Condition by id.
   */
  @Column('jsonb', { nullable: true })
  diagnoses: EncounterDiagnosis[] | null;

  /** `reasonReference`, each as `Type/<row id>`: CQMCommon's encounterDiagnosis() follows these to the Conditions. */
  @Column('jsonb', { name: 'reason_references', nullable: true })
  reasonReferences: string[] | null;

  /** `location`: each as `Type/<row id>`, with the Location's type codings (when the import held it), status and period; null when there was none. */
  @Column('jsonb', { nullable: true })
  locations: EncounterLocation[] | null;
}
