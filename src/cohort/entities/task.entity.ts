import { Check, Column, Entity, Index } from 'typeorm';
import { CodeSystemUri, TaskStatus } from '../enum';
import { codeSystemCheck, enumCheck } from './check';
import { PatientRecord } from './patient-record.base';

/**
 * A Task about a request: a referral whose consultant report came back (completed, CMS50), or an
 * order a pharmacy or performer rejected, and why (QI-Core TaskRejected, which the tobacco and
 * stroke measures read so a rejected order does not count). The measures select it by code
 * (`fulfill`) and follow `focus` and `basedOn` to the request by id: those are kept as references to
 * the row ids the requests have in this import (no foreign key: the request may come later, or never).
 */
@Entity('tasks')
@Index('IDX_tasks_patient', ['patientId'])
@Check('CHK_tasks_code_system', codeSystemCheck('code_system', true))
@Check('CHK_tasks_status', enumCheck('status', TaskStatus))
@Check('CHK_tasks_status_reason_system', codeSystemCheck('status_reason_system', true))
@Check('CHK_tasks_reason_system', codeSystemCheck('reason_system', true))
export class Task extends PatientRecord {
  @Column('text', { name: 'code_system', nullable: true })
  codeSystem: CodeSystemUri | null;

  @Column('text', { nullable: true })
  code: string | null;

  @Column('text', { nullable: true })
  display: string | null;

  @Column('text')
  status: TaskStatus;

  @Column('text', { nullable: true })
  intent: string | null;

  /** `statusReason`: why it was rejected. */
  @Column('text', { name: 'status_reason_system', nullable: true })
  statusReasonSystem: CodeSystemUri | null;

  @Column('text', { name: 'status_reason_code', nullable: true })
  statusReasonCode: string | null;

  /** `reasonCode` (a consultant report, say). */
  @Column('text', { name: 'reason_system', nullable: true })
  reasonSystem: CodeSystemUri | null;

  @Column('text', { name: 'reason_code', nullable: true })
  reasonCode: string | null;

  /** `focus`, as `Type/<row id>`. */
  @Column('text', { nullable: true })
  focus: string | null;

  /** `basedOn`, each as `Type/<row id>`; null when there was none. */
  @Column('jsonb', { name: 'based_on', nullable: true })
  basedOn: string[] | null;

  @Column('timestamptz', { name: 'authored_at', nullable: true })
  authoredAt: Date | null;

  /** `executionPeriod`. */
  @Column('timestamptz', { name: 'execution_start_at', nullable: true })
  executionStartAt: Date | null;

  @Column('timestamptz', { name: 'execution_end_at', nullable: true })
  executionEndAt: Date | null;
}
