import { HttpStatus } from '@nestjs/common';
import { ProblemException } from '../common/http/problem';

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
