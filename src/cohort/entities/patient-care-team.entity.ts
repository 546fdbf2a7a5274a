import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { CareTeam } from './care-team.entity';
import { Patient } from './patient.entity';

/** Which care teams look after a patient: the basis of every access decision. */
@Entity('patient_care_teams')
// With the patient id, a care team's patients come in id order: the keyset order of worklists over stored results.
@Index('IDX_patient_care_teams_care_team', ['careTeamId', 'patientId'])
export class PatientCareTeam {
  @PrimaryColumn('uuid', { name: 'patient_id' })
  patientId: string;

  @PrimaryColumn('uuid', { name: 'care_team_id' })
  careTeamId: string;

  @ManyToOne(() => Patient, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'patient_id' })
  patient?: Patient;

  @ManyToOne(() => CareTeam, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'care_team_id' })
  careTeam?: CareTeam;
}
