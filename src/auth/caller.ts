import type { RequestRead } from '../cohort/cohort.repository';
import { StaffRole } from '../common/roles';

/** Who is asking: the staff member the token names (the identity rule), with role and teams read from the database. */
export interface Caller {
  userId: string;
  username: string;
  role: StaffRole;
  careTeamIds: string[];
  /** The codes of `careTeamIds`, in the same order. */
  careTeamCodes: string[];
  /** When the caller's token expires (ms since the epoch); long-lived responses (event streams) end then. */
  tokenExpiresAt?: number;
}

/** The request property the auth guard fills in. */
export interface AuthenticatedRequest {
  caller?: Caller;
  /**
   * The route's `@AuditedAction`, set by the auth guard once it admitted the request: any later
   * refusal of the request (a guard, a pipe, the handler) is one audited access of that action.
   */
  auditedAction?: string;
  id?: string;
  /** Where the auth guard's identity lookup leaves its read open, on an `@IdentityInRead` route (see `AccessContext.requestRead`). */
  requestRead?: RequestRead;
  headers: Record<string, string | string[] | undefined>;
  params: Record<string, string>;
}
