import { HttpStatus } from '@nestjs/common';
import { ProblemException } from '../common/http/problem';
import { Period } from '../clinical/shared/clinical-dates';

/**
 * When to ask again after a `results_not_ready`: the first recompute of a cohort takes seconds to
 * minutes, so half a minute neither hammers the service nor keeps an analyst waiting long.
 */
const RETRY_AFTER_SECONDS = 30;

/** The 503's headers, as the OpenAPI document declares them. */
export const RESULTS_NOT_READY_HEADERS = {
  'Retry-After': {
    description: 'Seconds to wait before asking again: the first recompute run is still under way.',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 3600 },
  },
};

/**
 * Before the first period's results are complete there is nothing to count: 503, because the
 * route exists and will answer once the rollover run finishes (a 404 would say "no such thing"),
 * with `Retry-After` saying when to ask again.
 */
export const resultsNotReady = () =>
  new ProblemException(
    HttpStatus.SERVICE_UNAVAILABLE,
    'results_not_ready',
    'Service Unavailable',
    'No measurement period has complete stored results yet; counts are published once the first recompute run finishes.',
    undefined,
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  );

/** A period other than the one the store holds complete: names the one that is available. */
export const periodNotAvailable = (available: Period) =>
  new ProblemException(
    HttpStatus.NOT_FOUND,
    'period_not_available',
    'Not Found',
    `Counts are published only for the period with complete stored results: ${available.start} to ${available.end} (periodEnd=${available.end}).`,
  );
