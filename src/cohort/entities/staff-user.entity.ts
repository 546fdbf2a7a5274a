import { Check, Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { StaffRole } from '../../common/roles';
import { enumCheck } from './check';

/** A person who uses Vigil. Roles live here, not in token claims. */
@Entity('staff_users')
@Check('CHK_staff_users_role', enumCheck('role', StaffRole))
export class StaffUser {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Login handle; the subject of development tokens. */
  @Column('text', { unique: true })
  username: string;

  @Column('text', { name: 'display_name' })
  displayName: string;

  @Column('text')
  role: StaffRole;

  @Column('boolean', { default: true })
  active: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
