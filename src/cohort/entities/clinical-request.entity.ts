import { Check, Column, Entity, Index } from 'typeorm';
import { CodeSystemUri, RequestIntent, RequestKind, RequestStatus } from '../enum';
import { codeSystemCheck, enumCheck } from './check';
import { PatientRecord } from './patient-record.base';

/**
 * A ServiceRequest or DeviceRequest (`kind`): an order for a service (hospice care, a referral…) or
 * a device (a walker, a wheelchair…). The eCQMs read both the same way, so they share one table.
 */
@Entity('clinical_requests')
@Index('IDX_clinical_requests_patient', ['patientId'])
@Index('IDX_clinical_requests_code', ['codeSystem', 'code'])
@Check('CHK_clinical_requests_kind', enumCheck('kind', RequestKind))
@Check('CHK_clinical_requests_status', enumCheck('status', RequestStatus))
@Check('CHK_clinical_requests_intent', enumCheck('intent', RequestIntent))
@Check('CHK_clinical_requests_code_system', codeSystemCheck('code_system'))
@Check('CHK_clinical_requests_reason_system', codeSystemCheck('reason_system', true))
@Check('CHK_clinical_requests_refusal_reason_system', codeSystemCheck('refusal_reason_system', true))
export class ClinicalRequest extends PatientRecord {
  @Column('text')
  kind: RequestKind;

  @Column('text', { name: 'code_system' })
  codeSystem: CodeSystemUri;

  @Column('text')
  code: string;

  @Column('text')
  display: string;

  @Column('text')
  status: RequestStatus;

  @Column('text')
  intent: RequestIntent;

  /** The request says *not* to do it (`doNotPerform`, or the QI-Core modifier extension on a DeviceRequest). */
  @Column('boolean', { name: 'do_not_perform', default: false })
  doNotPerform: boolean;

  @Column('timestamptz', { name: 'authored_at', nullable: true })
  authoredAt: Date | null;

  @Column('text', { name: 'reason_system', nullable: true })
  reasonSystem: CodeSystemUri | null;

  @Column('text', { name: 'reason_code', nullable: true })
  reasonCode: string | null;

  /** Why it is not to be done: QI-Core's `doNotPerformReason` extension (`reasonRefused`) of a ServiceRequest. */
  @Column('text', { name: 'refusal_reason_system', nullable: true })
  refusalReasonSystem: CodeSystemUri | null;

  @Column('text', { name: 'refusal_reason_code', nullable: true })
  refusalReasonCode: string | null;
}
