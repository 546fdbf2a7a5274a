import { Check, Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { NoteType } from '../enum';
import { enumCheck } from './check';
import { Encounter } from './encounter.entity';
import { PatientRecord } from './patient-record.base';

/**
 * Free text written by people: the untrusted channel. It may contain anything (other scripts,
 * instructions aimed at a model, SQL-looking text) and is only ever stored and returned as data.
 */
@Entity('clinical_notes')
@Index('IDX_clinical_notes_patient_authored', ['patientId', 'authoredAt'])
@Index('IDX_clinical_notes_encounter', ['encounterId'])
@Check('CHK_clinical_notes_note_type', enumCheck('note_type', NoteType))
export class ClinicalNote extends PatientRecord {
  @Column('uuid', { name: 'encounter_id', nullable: true })
  encounterId: string | null;

  @ManyToOne(() => Encounter, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'encounter_id' })
  encounter?: Encounter;

  @Column('text', { name: 'note_type' })
  noteType: NoteType;

  @Column('text', { name: 'author_display', nullable: true })
  authorDisplay: string | null;

  @Column('timestamptz', { name: 'authored_at' })
  authoredAt: Date;

  @Column('text')
  text: string;
}
