import { DeliveryFailure } from '../enum';

/**
 * A failed attempt, as the delivery's state keeps it: a reason code from a closed vocabulary, the
 * HTTP status if there was an answer, and whether another attempt could help. Never the answer's
 * body or an error's message: a server's diagnostics can quote the resource, and so PHI.
 */
export class DeliveryError extends Error {
  constructor(
    readonly reason: DeliveryFailure,
    readonly permanent: boolean,
    readonly httpStatus: number | null = null,
    /** What the server asked for in `Retry-After`, in ms. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(`delivery failed: ${reason}${httpStatus === null ? '' : ` (HTTP ${httpStatus})`}`);
    this.name = 'DeliveryError';
  }
}

/**
 * What an HTTP status means for the delivery. 408, 429 and 5xx are the server's trouble and are
 * retried; 401 is retried once the token is fetched again; a 412 on a conditional create means
 * several resources already carry the identifier (a person must look); any other 4xx refuses the
 * content itself, which another attempt would send unchanged: dead-lettered at once.
 */
export function httpFailure(status: number, retryAfter: string | null = null, now = Date.now()): DeliveryError {
  const wait = retryAfterMs(retryAfter, now);
  if (status === 408 || status === 429 || status >= 500) return new DeliveryError(DeliveryFailure.ServerError, false, status, wait);
  if (status === 401) return new DeliveryError(DeliveryFailure.AuthFailed, false, status);
  if (status === 403) return new DeliveryError(DeliveryFailure.Forbidden, true, status);
  if (status === 412) return new DeliveryError(DeliveryFailure.DuplicateIdentifier, true, status);
  return new DeliveryError(DeliveryFailure.Rejected, true, status);
}

/** A request that got no answer: the timeout (the server may have committed all the same) or no connection. */
export function transportFailure(error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new DeliveryError(DeliveryFailure.Timeout, false);
  return new DeliveryError(DeliveryFailure.Unreachable, false);
}

/** `Retry-After` as seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d{1,9}$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/**
 * The wait before the attempt after `attempt` (1 for the first retry's wait): exponential, capped,
 * with "equal jitter" (half the step fixed, half drawn), so a burst of failures against one server
 * spreads out instead of retrying in lockstep, while no wait collapses to nothing. A server's
 * `Retry-After` is honoured up to the cap.
 */
export function backoffDelayMs(attempt: number, policy: BackoffPolicy, retryAfter: number | null = null, random: () => number = Math.random): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, Math.min(30, attempt - 1)));
  const drawn = Math.round(step / 2 + random() * (step / 2));
  return Math.min(policy.maxMs, Math.max(drawn, retryAfter ?? 0));
}
