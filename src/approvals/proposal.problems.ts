import { HttpStatus } from '@nestjs/common';
import { FieldProblem, ProblemException } from '../common/http/problem';

export const proposalNotFound = () =>
  new ProblemException(HttpStatus.NOT_FOUND, 'proposal_not_found', 'Not Found', 'No proposal with this id is available to you.');

export const illegalTransition = (detail: string) => new ProblemException(HttpStatus.CONFLICT, 'illegal_transition', 'Conflict', detail);

export const staleVersion = () =>
  new ProblemException(HttpStatus.CONFLICT, 'stale_version', 'Conflict', 'The proposal has a newer version; review it and decide on that one.');

export const notAllowed = (detail: string) => new ProblemException(HttpStatus.FORBIDDEN, 'forbidden', 'Forbidden', detail);

export const invalidProposal = (field: string, reason: string, message: string) =>
  new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', message, [{ field, reason, message }]);

/** An edit after which the care team could no longer give the approvals the kind needs. */
export const quorumUnreachable = (detail: string) => new ProblemException(HttpStatus.CONFLICT, 'quorum_unreachable', 'Conflict', detail);

/**
 * A live proposal (draft, pending, approved or executing) of the same patient, kind and content
 * identity exists. Its id is named only when the caller may see it: someone else's draft is not.
 */
export const duplicateProposal = (visibleId: string | null) =>
  new ProblemException(
    HttpStatus.CONFLICT,
    'duplicate_proposal',
    'Conflict',
    visibleId
      ? `Proposal ${visibleId} already proposes this for this patient and is still live; decide or withdraw it instead.`
      : 'A live proposal already proposes this for this patient.',
  );

/** `close_care_gap` for a measure that is not an open gap for the patient now: there is nothing to close. */
export const careGapNotOpen = () =>
  new ProblemException(HttpStatus.CONFLICT, 'care_gap_not_open', 'Conflict', 'This measure is not an open care gap for the patient today; there is nothing to close.');

/** A draft whose content no longer passes the checks a new proposal must pass (a cited row gone, the patient off your teams). */
export const draftNoLongerValid = (detail: string, errors?: FieldProblem[]) => new ProblemException(HttpStatus.CONFLICT, 'draft_invalid', 'Conflict', detail, errors);
