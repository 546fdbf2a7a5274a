import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('care_teams')
export class CareTeam {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Short stable handle (e.g. `cardiometabolic-north`), used by fixtures and tokens. */
  @Column('text', { unique: true })
  code: string;

  @Column('text')
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
