import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { StaffRole } from '../../common/roles';
import { enumCheck } from './check';

/** A person who uses Vigil. Roles live here, not in token claims. */
@Entity('staff_users')
@Check('CHK_staff_users_role', enumCheck('role', StaffRole))
// Each outside identifier names at most one person (e-mail's index, on lower(email), is the migration's: TypeORM cannot declare it).
@Index('UQ_staff_users_identity_subject', ['identitySubject'], { unique: true, where: '"identity_subject" IS NOT NULL' })
@Index('UQ_staff_users_npi', ['npi'], { unique: true, where: '"npi" IS NOT NULL' })
@Index('UQ_staff_users_fhir_practitioner_id', ['fhirPractitionerId'], { unique: true, where: '"fhir_practitioner_id" IS NOT NULL' })
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

  /** The identity provider's subject (`sub`), when identities are matched by it. */
  @Column('text', { name: 'identity_subject', nullable: true })
  identitySubject: string | null;

  /** Work e-mail; matched case-insensitively. */
  @Column('text', { nullable: true })
  email: string | null;

  /** US National Provider Identifier. */
  @Column('text', { nullable: true })
  npi: string | null;

  /** The FHIR Practitioner this person was imported from: a re-import updates this row. */
  @Column('text', { name: 'fhir_practitioner_id', nullable: true })
  fhirPractitionerId: string | null;

  @Column('boolean', { default: true })
  active: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
