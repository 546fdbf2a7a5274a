import { HttpStatus, Injectable, NestMiddleware } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BREAK_GLASS_HEADER } from '../access/break-glass';
import { InvalidTokenError, TokenService } from '../auth/token.service';
import { ProblemException } from '../common/http/problem';
import { PolicyState, rateLimitHeaders, RateLimitService } from './rate-limit.service';

export const RATE_LIMIT_HEADER = 'RateLimit';
export const RATE_LIMIT_POLICY_HEADER = 'RateLimit-Policy';

/** The node request as Fastify's middleware layer hands it over, with the client address Fastify found. */
type MiddlewareRequest = IncomingMessage & { ip?: string };

/**
 * Runs before routing and guards, on every request: counts it against its caller's limit (the
 * token's subject when the token verifies, else the client address) and, with X-Break-Glass-Reason,
 * against the break-glass limit too; sets `RateLimit-Policy` and `RateLimit` on the response
 * whatever its status, and refuses with a 429 problem and `Retry-After` once a limit is spent.
 * Refused tokens count against the address, so guessing tokens is limited as well.
 */
@Injectable()
export class RateLimitMiddleware implements NestMiddleware {
  constructor(
    private readonly limits: RateLimitService,
    private readonly tokens: TokenService,
  ) {}

  async use(request: MiddlewareRequest, response: ServerResponse, next: (error?: unknown) => void): Promise<void> {
    try {
      const caller = await this.callerKey(request);
      const states = [await this.limits.consume(caller.policy, caller.key)];
      if (request.headers[BREAK_GLASS_HEADER] !== undefined) states.push(await this.limits.consume('break-glass', caller.key));
      const headers = rateLimitHeaders(states);
      response.setHeader(RATE_LIMIT_POLICY_HEADER, headers.policy);
      response.setHeader(RATE_LIMIT_HEADER, headers.limit);
      const spent = states.filter((state) => state.exceeded);
      if (spent.length > 0) return next(tooManyRequests(spent));
      next();
    } catch (error) {
      next(error);
    }
  }

  private async callerKey(request: MiddlewareRequest): Promise<{ policy: 'user' | 'address'; key: string }> {
    const match = /^Bearer (\S+)$/.exec(request.headers.authorization?.trim() ?? '');
    if (match) {
      try {
        return { policy: 'user', key: `user:${(await this.tokens.verifyForRequest(request, match[1])).subject}` };
      } catch (error) {
        if (!(error instanceof InvalidTokenError)) throw error;
      }
    }
    return { policy: 'address', key: `address:${request.ip ?? request.socket.remoteAddress ?? 'unknown'}` };
  }
}

function tooManyRequests(spent: PolicyState[]): ProblemException {
  const retryAfter = Math.max(...spent.map((state) => state.resetSeconds));
  const breakGlass = spent.some((state) => state.policy === 'break-glass');
  return new ProblemException(
    HttpStatus.TOO_MANY_REQUESTS,
    breakGlass ? 'break_glass_rate_limited' : 'rate_limited',
    'Too Many Requests',
    breakGlass
      ? `Break-glass requests are limited separately; try again in ${retryAfter} s, or ask to join the patient's care team.`
      : `Request limit reached; try again in ${retryAfter} s.`,
    undefined,
    { 'retry-after': String(retryAfter) },
  );
}
