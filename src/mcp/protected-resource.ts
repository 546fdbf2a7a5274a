import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RestRefusalAudit } from '../access/rest-access';
import { headerValue } from '../common/http/header-value';
import { ProblemDetailsFilter } from '../common/http/problem-details.filter';
import { APP_CONFIG, AppConfig } from '../config/app-config';

/** RFC 9728: where a protected resource publishes its metadata, and the path of the MCP resource. */
export const WELL_KNOWN_RESOURCE = '/.well-known/oauth-protected-resource';
export const MCP_PATH = '/mcp';

/** The origin clients reach Vigil at: `PUBLIC_BASE_URL`, or this request's own scheme and Host. */
export function publicOrigin(config: AppConfig, request: FastifyRequest): string {
  return config.mcp.publicBaseUrl ?? `${request.protocol}://${headerValue(request, 'host') ?? 'localhost'}`;
}

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for `resourcePath` (`/` for the whole API, `/mcp`
 * for the MCP endpoint). `authorization_servers` names the configured issuer when it is a URL (an
 * OpenID provider); with development tokens there is no authorization server to sign in at, and the
 * document says so (`vigil_token_source`) instead of naming one.
 */
export function protectedResourceMetadata(config: AppConfig, origin: string, resourcePath: string): Record<string, unknown> {
  const issuerIsUrl = /^https?:\/\//.test(config.auth.issuer);
  return {
    resource: resourcePath === '/' ? `${origin}/` : `${origin}${resourcePath}`,
    // With an issuer to sign in at, the scopes to ask it for (MCP_OAUTH_SCOPES; offline_access: a refresh token, so a session outlives a token).
    ...(issuerIsUrl ? { authorization_servers: [config.auth.issuer], scopes_supported: config.mcp.oauthScopes } : {}),
    bearer_methods_supported: ['header'],
    resource_name: 'Vigil',
    resource_documentation: `${origin}/docs`,
    ...(config.auth.devMode
      ? { vigil_token_source: `development tokens signed by this Vigil (npm run token -- <user>); issuer "${config.auth.issuer}", audience "${config.auth.audience}"` }
      : {}),
  };
}

/** `WWW-Authenticate` of a 401 from the MCP endpoint (MCP authorization, RFC 9728 §5.1). */
export function mcpChallenge(config: AppConfig, request: FastifyRequest): string {
  return `Bearer resource_metadata="${publicOrigin(config, request)}${WELL_KNOWN_RESOURCE}${MCP_PATH}"`;
}

/**
 * The MCP endpoint's errors: problem details as everywhere (ProblemDetailsFilter), and on a 401 the
 * `WWW-Authenticate` challenge that tells an MCP client where to discover how to sign in.
 */
@Catch()
@Injectable()
export class McpChallengeFilter implements ExceptionFilter {
  private readonly problems: ProblemDetailsFilter;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    refusals: RestRefusalAudit,
  ) {
    // In place of the global filter, so it does what that one does: the audit of refused requests too.
    this.problems = new ProblemDetailsFilter(refusals);
  }

  catch(exception: unknown, host: ArgumentsHost): void | Promise<void> {
    if (exception instanceof HttpException && exception.getStatus() === HttpStatus.UNAUTHORIZED) {
      const http = host.switchToHttp();
      http.getResponse<FastifyReply>().header('WWW-Authenticate', mcpChallenge(this.config, http.getRequest<FastifyRequest>()));
    }
    return this.problems.catch(exception, host);
  }
}
