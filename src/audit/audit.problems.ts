import { HttpStatus } from '@nestjs/common';
import { ProblemException } from '../common/http/problem';

/** A PHI access whose audit record could not be written in time: nothing is returned, try again. */
export const auditUnavailable = () =>
  new ProblemException(
    HttpStatus.SERVICE_UNAVAILABLE,
    'audit_unavailable',
    'Service Unavailable',
    'The access could not be recorded in the audit trail, so no data was returned. Try again shortly.',
    undefined,
    { 'retry-after': '5' },
  );
