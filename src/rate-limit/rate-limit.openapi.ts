import { OpenAPIObject } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE } from '../common/http/problem';
import { RATE_LIMIT_HEADER, RATE_LIMIT_POLICY_HEADER } from './rate-limit.middleware';

type Responses = Record<string, { description?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const HEADERS = {
  [RATE_LIMIT_POLICY_HEADER]: {
    description:
      'The limits that applied to this request (draft-ietf-httpapi-ratelimit-headers): `"user"` per token subject or `"address"` ' +
      'per client address without a valid token, and `"break-glass"` on requests with X-Break-Glass-Reason; `q` requests per `w` seconds.',
    schema: { type: 'string', maxLength: 256, example: '"user";q=600;w=60' },
  },
  [RATE_LIMIT_HEADER]: {
    description: 'What is left of each limit in `RateLimit-Policy`: `r` requests remaining, `t` seconds until the window resets.',
    schema: { type: 'string', maxLength: 256, example: '"user";r=599;t=60' },
  },
  'Retry-After': {
    description: 'Seconds until the spent limit allows another request.',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 604800 },
  },
};

/**
 * Every operation is rate limited (RateLimitMiddleware runs before any route), so the document says so
 * in one place rather than on every controller: each 2XX and 4XX response carries `RateLimit` and
 * `RateLimit-Policy`, and each operation may answer 429 with `Retry-After`.
 */
export function declareRateLimits(document: OpenAPIObject): OpenAPIObject {
  document.components = { ...document.components, headers: { ...document.components?.headers, ...HEADERS } };
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
  const limitHeaders = { [RATE_LIMIT_HEADER]: ref(RATE_LIMIT_HEADER), [RATE_LIMIT_POLICY_HEADER]: ref(RATE_LIMIT_POLICY_HEADER) };
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const responses = operation.responses as Responses;
      responses['429'] ??= {
        description: 'A request limit is spent (see `RateLimit-Policy`); `Retry-After` says when to try again.',
        content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/ProblemDto' } } },
      };
      responses['429'].headers = { ...responses['429'].headers, 'Retry-After': ref('Retry-After') };
      for (const [status, response] of Object.entries(responses)) {
        if (/^[24]/.test(status)) response.headers = { ...response.headers, ...limitHeaders };
      }
    }
  }
  return document;
}
