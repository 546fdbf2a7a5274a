import { Injectable } from '@nestjs/common';
import { CohortRepository } from '../cohort/cohort.repository';
import { StaffRole } from '../cohort/enum';
import { forbidden, patientNotFound } from './auth.problems';
import { Caller } from './caller';

export const BREAK_GLASS_HEADER = 'x-break-glass-reason';
// Printable text only: a control character could forge log lines or hide text from a reviewer.
// eslint-disable-next-line no-control-regex
const BREAK_GLASS_REASON = /^[^\u0000-\u001f\u007f]{10,500}$/u;

/** Why a caller may read a patient: their care team, or an audited emergency ("break glass"). */
export interface AccessGrant {
  patientId: string;
  breakGlass: boolean;
  breakGlassReason: string | null;
}

/**
 * The one place that answers "may this caller read this patient". A patient outside the caller's
 * teams and a patient that does not exist get the same exception from the same single query.
 * Break glass is for treating clinicians only, needs a reason, and is flagged on the grant so the
 * response and the audit trail both carry it.
 */
@Injectable()
export class PatientAccessService {
  constructor(private readonly cohort: CohortRepository) {}

  async grant(caller: Caller, patientId: string, breakGlassReason?: string): Promise<AccessGrant> {
    const reason = breakGlassReason?.trim() || null;
    if (reason !== null) assertBreakGlassAllowed(caller, reason);
    const access = await this.cohort.patientAccess(patientId, caller.careTeamIds);
    if (!access.exists) throw patientNotFound();
    if (access.onCareTeam) return { patientId, breakGlass: false, breakGlassReason: null };
    if (reason !== null) return { patientId, breakGlass: true, breakGlassReason: reason };
    throw patientNotFound();
  }
}

function assertBreakGlassAllowed(caller: Caller, reason: string): void {
  if (caller.role !== StaffRole.Clinician) throw forbidden('Emergency access is only available to treating clinicians.');
  if (!BREAK_GLASS_REASON.test(reason)) {
    throw forbidden(`The ${BREAK_GLASS_HEADER} header must give a reason of 10 to 500 printable characters.`);
  }
}
