import type { Bundle, OperationOutcome } from '@medplum/fhirtypes';
import { createRemoteJWKSet, jwtVerify } from 'jose';

/** A SMART v2 interaction: create, read, update, delete, search. */
type Interaction = 'c' | 'r' | 'u' | 'd' | 's';

/** One request the FHIR server let through, by what its token said (never the token itself). */
export interface AcceptedToken {
  jti: string;
  clientId: string;
  scope: string;
  iat: number;
  exp: number;
}

export interface Refusal {
  status: 401 | 403;
  body: OperationOutcome;
}

/**
 * The FHIR server's side of SMART Backend Services, for the test FHIR server's `authorize` hook:
 * every request needs an RFC 9068 JWT access token from the test OpenID provider, verified with
 * `jose` against the provider's JWKS (issuer, audience = the FHIR base URL, `typ` `at+jwt`, expiry),
 * whose `system/…` scopes permit each interaction the request makes (a transaction: each entry's).
 * Anything else is refused: no or a bad token 401, too narrow a scope 403, as SMART says. It
 * also publishes the server's `.well-known/smart-configuration`, naming the provider's token endpoint.
 */
export class SmartResourceServer {
  /** The token of each request let through, in order. */
  readonly accepted: AcceptedToken[] = [];
  readonly refused: { status: number; why: string; jti?: string }[] = [];
  /** Token ids the server no longer accepts (as after a revocation at the resource server). */
  readonly revoked = new Set<string>();
  /** The next so many requests find their (valid) token revoked: each is answered 401, and that token stays refused. */
  revokeNext = 0;
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly options: { issuer: string; jwksUrl: string; tokenEndpoint: string; audience: string }) {
    this.keys = createRemoteJWKSet(new URL(options.jwksUrl));
  }

  /** SMART App Launch's discovery document, as far as Backend Services reads it. */
  get smartConfiguration(): Record<string, unknown> {
    return {
      issuer: this.options.issuer,
      token_endpoint: this.options.tokenEndpoint,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
      capabilities: ['client-confidential-asymmetric', 'permission-v2'],
    };
  }

  async authorize(request: { method: string; path: string; authorization: string | undefined; body: unknown }): Promise<Refusal | undefined> {
    const token = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(request.authorization ?? '')?.[1];
    if (!token) return this.refuse(401, 'no bearer token');
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.keys, { issuer: this.options.issuer, audience: this.options.audience, typ: 'at+jwt' }));
    } catch (error) {
      return this.refuse(401, `token not verified (${(error as { code?: string }).code ?? 'error'})`);
    }
    const jti = String(payload.jti);
    if (this.revokeNext > 0) {
      this.revokeNext -= 1;
      this.revoked.add(jti);
    }
    if (this.revoked.has(jti)) return this.refuse(401, 'token revoked', jti);
    const scopes = String(payload.scope ?? '').split(' ');
    const needed = interactions(request.method, request.path, request.body);
    const missing = needed.find(([type, interaction]) => !permits(scopes, type, interaction));
    if (needed.length === 0 || missing) return this.refuse(403, `scope does not permit ${missing ? missing.join('.') : request.method}`);
    this.accepted.push({ jti, clientId: String(payload.client_id), scope: String(payload.scope), iat: Number(payload.iat), exp: Number(payload.exp) });
    return undefined;
  }

  private refuse(status: 401 | 403, why: string, jti?: string): Refusal {
    this.refused.push({ status, why, jti });
    return { status, body: { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: status === 401 ? 'login' : 'forbidden', details: { text: why } }] } };
  }
}

/** What a request does, as (resource type, interaction) pairs: a transaction's entries each, a conditional create also searches. */
function interactions(method: string, path: string, body: unknown): [string, Interaction][] {
  const [type, id] = path.split('/').filter(Boolean);
  if (method === 'GET' && type) return [[type, id ? 'r' : 's']];
  if (method === 'POST' && type) return [[type, 'c']];
  const bundle = body as Bundle | undefined;
  if (method !== 'POST' || bundle?.resourceType !== 'Bundle' || (bundle.type !== 'transaction' && bundle.type !== 'batch')) return [];
  return (bundle.entry ?? []).flatMap((entry): [string, Interaction][] => {
    const entryType = entry.resource?.resourceType ?? entry.request?.url.split(/[/?]/)[0] ?? '';
    switch (entry.request?.method) {
      case 'POST':
        return entry.request.ifNoneExist ? [[entryType, 'c'], [entryType, 's']] : [[entryType, 'c']];
      case 'PUT':
        return [[entryType, 'u']];
      case 'DELETE':
        return [[entryType, 'd']];
      default:
        return [[entryType, entry.request?.url.includes('?') ? 's' : 'r']];
    }
  });
}

/**
 * Whether `system/` scopes permit an interaction on a type: SMART v2 (`system/Patient.rs`, the
 * letters in `cruds` order) and v1 (`read`: read and search, `write`: create, update, delete, `*`).
 */
export function permits(scopes: string[], type: string, interaction: Interaction): boolean {
  return scopes.some((scope) => {
    const match = /^system\/([A-Za-z]+|\*)\.([a-z*]+)$/.exec(scope);
    if (!match || (match[1] !== '*' && match[1] !== type)) return false;
    const access = match[2];
    if (access === '*') return true;
    if (access === 'read') return interaction === 'r' || interaction === 's';
    if (access === 'write') return interaction === 'c' || interaction === 'u' || interaction === 'd';
    return /^c?r?u?d?s?$/.test(access) && access.includes(interaction);
  });
}
