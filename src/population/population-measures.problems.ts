import { HttpStatus } from '@nestjs/common';
import { ProblemException } from '../common/http/problem';
import { Period } from '../clinical/shared/clinical-dates';

/**
 * Before the first period's results are complete there is nothing to count: 503, because the
 * route exists and will answer once the rollover run finishes (a 404 would say "no such thing").
 */
export const resultsNotReady = () =>
  new ProblemException(
    HttpStatus.SERVICE_UNAVAILABLE,
    'results_not_ready',
    'Service Unavailable',
    'No measurement period has complete stored results yet; counts are published once the first recompute run finishes.',
  );

/** A period other than the one the store holds complete: names the one that is available. */
export const periodNotAvailable = (available: Period) =>
  new ProblemException(
    HttpStatus.NOT_FOUND,
    'period_not_available',
    'Not Found',
    `Counts are published only for the period with complete stored results: ${available.start} to ${available.end} (periodEnd=${available.end}).`,
  );
