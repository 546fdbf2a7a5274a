import { Check, Column, Entity, Index } from 'typeorm';
import { CodeSystemUri, ConditionCategory, ConditionClinicalStatus, ConditionVerificationStatus } from '../enum';
import { codeSystemCheck, enumCheck } from './check';
import { PatientRecord } from './patient-record.base';

/**
 * A problem-list entry, encounter diagnosis or health concern, in whatever system the source coded it.
 * Refuted and entered-in-error entries are stored with that status: the measure logic decides what counts.
 */
@Entity('conditions')
@Index('IDX_conditions_patient', ['patientId'])
@Index('IDX_conditions_code', ['codeSystem', 'code'])
@Check('CHK_conditions_code_system', codeSystemCheck('code_system'))
@Check('CHK_conditions_clinical_status', enumCheck('clinical_status', ConditionClinicalStatus, true))
@Check('CHK_conditions_verification_status', enumCheck('verification_status', ConditionVerificationStatus, true))
@Check('CHK_conditions_category', enumCheck('category', ConditionCategory, true))
@Check('CHK_conditions_body_site_system', codeSystemCheck('body_site_system', true))
@Check('CHK_conditions_severity_system', codeSystemCheck('severity_system', true))
export class Condition extends PatientRecord {
  @Column('text', { name: 'code_system' })
  codeSystem: CodeSystemUri;

  @Column('text')
  code: string;

  @Column('text')
  display: string;

  /** Nullable: R4 requires none for entered-in-error, and sources omit it. */
  @Column('text', { name: 'clinical_status', nullable: true })
  clinicalStatus: ConditionClinicalStatus | null;

  @Column('text', { name: 'verification_status', nullable: true })
  verificationStatus: ConditionVerificationStatus | null;

  @Column('text', { nullable: true })
  category: ConditionCategory | null;

  @Column('text', { name: 'body_site_system', nullable: true })
  bodySiteSystem: CodeSystemUri | null;

  @Column('text', { name: 'body_site_code', nullable: true })
  bodySiteCode: string | null;

  @Column('date', { name: 'onset_date', nullable: true })
  onsetDate: string | null;

  @Column('date', { name: 'abatement_date', nullable: true })
  abatementDate: string | null;

  /** `severity` (the AHA measures count a moderate or severe LVSD), as its stored coding. */
  @Column('text', { name: 'severity_system', nullable: true })
  severitySystem: CodeSystemUri | null;

  @Column('text', { name: 'severity_code', nullable: true })
  severityCode: string | null;

  /** The onset and abatement instants, when the source wrote a time (the days above are their calendar days). */
  @Column('timestamptz', { name: 'onset_at', nullable: true })
  onsetAt: Date | null;

  @Column('timestamptz', { name: 'abatement_at', nullable: true })
  abatementAt: Date | null;

  /** The code's other codings (`[{system, code}]`), beyond the one stored in `code_system`/`code`; null when it had none. */
  @Column('jsonb', { name: 'other_codings', nullable: true })
  otherCodings: { system: string; code: string }[] | null;

  @Column('timestamptz', { name: 'recorded_at' })
  recordedAt: Date;
}
