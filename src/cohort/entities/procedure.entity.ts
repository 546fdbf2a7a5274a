import { Check, Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { CodeSystem, ProcedureStatus } from '../enum';
import { enumCheck } from './check';
import { Encounter } from './encounter.entity';
import { PatientRecord } from './patient-record.base';

/** A procedure (CPT, SNOMED CT or LOINC-coded, e.g. a colonoscopy or a screening mammogram). */
@Entity('procedures')
@Index('IDX_procedures_patient_performed', ['patientId', 'performedAt'])
@Index('IDX_procedures_code', ['codeSystem', 'code'])
@Index('IDX_procedures_encounter', ['encounterId'])
@Check(
  'CHK_procedures_code_system',
  `"code_system" IN ('${CodeSystem.Cpt}', '${CodeSystem.SnomedCt}', '${CodeSystem.Loinc}')`,
)
@Check('CHK_procedures_status', enumCheck('status', ProcedureStatus))
export class Procedure extends PatientRecord {
  @Column('uuid', { name: 'encounter_id', nullable: true })
  encounterId: string | null;

  @ManyToOne(() => Encounter, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'encounter_id' })
  encounter?: Encounter;

  @Column('text', { name: 'code_system' })
  codeSystem: CodeSystem;

  @Column('text')
  code: string;

  @Column('text')
  display: string;

  @Column('text')
  status: ProcedureStatus;

  @Column('timestamptz', { name: 'performed_at' })
  performedAt: Date;
}
