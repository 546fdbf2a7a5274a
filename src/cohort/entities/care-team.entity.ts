import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity('care_teams')
@Index('UQ_care_teams_fhir_care_team_id', ['fhirCareTeamId'], { unique: true, where: '"fhir_care_team_id" IS NOT NULL' })
export class CareTeam {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Short stable handle (e.g. `cardiometabolic-north`), used by fixtures and tokens. */
  @Column('text', { unique: true })
  code: string;

  @Column('text')
  name: string;

  /** The FHIR CareTeam this team was imported from: a re-import updates this row. */
  @Column('text', { name: 'fhir_care_team_id', nullable: true })
  fhirCareTeamId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
