import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { CareTeam } from './care-team.entity';
import { StaffUser } from './staff-user.entity';

@Entity('care_team_members')
@Index('IDX_care_team_members_staff_user', ['staffUserId'])
export class CareTeamMember {
  @PrimaryColumn('uuid', { name: 'care_team_id' })
  careTeamId: string;

  @PrimaryColumn('uuid', { name: 'staff_user_id' })
  staffUserId: string;

  @ManyToOne(() => CareTeam, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'care_team_id' })
  careTeam?: CareTeam;

  @ManyToOne(() => StaffUser, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'staff_user_id' })
  staffUser?: StaffUser;
}
