import { HttpStatus } from '@nestjs/common';
import { ProblemException } from '../common/http/problem';

/** One body for every authentication failure: the caller learns nothing about which check failed. */
export const unauthenticated = () =>
  new ProblemException(HttpStatus.UNAUTHORIZED, 'unauthenticated', 'Unauthorized', 'A valid bearer token is required.');

export const forbidden = (detail = 'Your role may not use this route.') =>
  new ProblemException(HttpStatus.FORBIDDEN, 'forbidden', 'Forbidden', detail);

/**
 * The answer for a patient that does not exist AND for one outside the caller's care teams:
 * identical status, body and headers, so the response never tells the two apart.
 */
export const patientNotFound = () =>
  new ProblemException(HttpStatus.NOT_FOUND, 'patient_not_found', 'Not Found', 'No patient with this id is available to you.');
