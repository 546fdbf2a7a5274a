import { Transform } from 'class-transformer';
import { IsBoolean, IsEnum, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import type { AuthConfig } from './app-config';
import { QueueEnvironmentVariables } from './queue-environment';
import { emptyToUndefined, toBool, toInt } from './transforms';

/** Which claim of an identity provider's token names the staff member, and the column it is matched against. */
export enum IdentityClaim {
  /** `sub` is the staff username (what development tokens carry). */
  Username = 'username',
  /** `sub` against `staff_users.identity_subject`. */
  Subject = 'sub',
  /** `email` against `staff_users.email`, without regard to case. */
  Email = 'email',
  /** The claim named by AUTH_NPI_CLAIM against `staff_users.npi`. */
  Npi = 'npi',
}

/** A claim name as providers write them: printable, no spaces (a URL-namespaced name such as Auth0's included). */
const CLAIM_NAME = /^[\x21-\x7e]{1,200}$/;
const CLAIM_NAME_MESSAGE = { message: 'must be a claim name: 1-200 printable characters without spaces' };

/**
 * Sign-in: how tokens are verified, which staff member a token names, where roles come from, and the
 * review page's OpenID Connect client. Part of `EnvironmentVariables`; `authConfig` reads them.
 */
export class AuthEnvironmentVariables extends QueueEnvironmentVariables {
  /** JWKS of the identity provider whose access tokens Vigil accepts (RS256/ES256). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  AUTH_JWKS_URL?: string;

  /** Longest token lifetime accepted (`exp` − `iat`, or `exp` − now without `iat`); `exp` is always required. */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(86400)
  AUTH_MAX_TOKEN_LIFETIME_SECONDS = 3600;

  /** How long the JWKS is trusted before it is fetched again: a key removed at the provider stops working within this. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86400)
  AUTH_JWKS_CACHE_SECONDS = 300;

  @IsString()
  AUTH_ISSUER = 'vigil-dev';

  @IsString()
  AUTH_AUDIENCE = 'vigil';

  /**
   * Development tokens signed with a local key (`npm run token -- <user>`). Defaults to on outside
   * production and when no JWKS is configured; never allowed in production.
   */
  @Transform(toBool)
  @IsOptional()
  @IsBoolean()
  AUTH_DEV_MODE?: boolean;

  /** Where the local development signing key lives (created on first use). */
  @IsString()
  AUTH_DEV_KEY_FILE = '.data/dev-signing-key';

  /** Which claim of the identity provider's tokens names the staff member (development tokens always name the username). */
  @IsEnum(IdentityClaim)
  AUTH_IDENTITY_CLAIM: IdentityClaim = IdentityClaim.Username;

  /**
   * Answer a request's identity (staff row and care teams) from the process's cache while no identity
   * has changed (the identity generation; README "Who a token is"); false: read it on every request.
   */
  @Transform(toBool)
  @IsBoolean()
  AUTH_IDENTITY_CACHE = true;

  /**
   * Keep the tokens this process has verified, until their `exp` and while the keys that verified
   * them are current, instead of checking the signature on every request; false: check every time.
   */
  @Transform(toBool)
  @IsBoolean()
  AUTH_TOKEN_CACHE = true;

  /** The claim holding the NPI when AUTH_IDENTITY_CLAIM is `npi`. */
  @Matches(CLAIM_NAME, CLAIM_NAME_MESSAGE)
  AUTH_NPI_CLAIM = 'npi';

  /** A claim listing the person's groups at the identity provider (`groups`); unset: roles come from the staff rows alone. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(CLAIM_NAME, CLAIM_NAME_MESSAGE)
  AUTH_ROLE_CLAIM?: string;

  /** Which group grants which role: `group=role,group=role`, or a JSON object `{"group": "role"}`. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  AUTH_ROLE_MAP?: string;

  /** The review page's client id at the identity provider; unset: the page signs in with development tokens only. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[\x21-\x7e]{1,200}$/, { message: 'must be 1-200 printable characters without spaces' })
  OIDC_CLIENT_ID?: string;

  /** The OpenID issuer the page signs in with (its discovery document); unset: AUTH_ISSUER. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/[^\s?#]+$/, { message: 'must be an http(s) URL without a query or fragment' })
  OIDC_ISSUER?: string;

  /** Where the provider sends the browser back; unset: PUBLIC_BASE_URL + `/review`, else the page's own address. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/[^\s?#]+$/, { message: 'must be an http(s) URL without a query or fragment' })
  OIDC_REDIRECT_URI?: string;

  /** The scopes the page asks for: `openid`, and `offline_access` for a refresh token. */
  @Matches(/^openid( [\x21-\x7e]+)*$/, { message: 'must be space-separated scopes starting with openid' })
  OIDC_SCOPE = 'openid offline_access';

  /** An RFC 8707 resource indicator sent with the page's requests, for providers that choose the access token's audience by it. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[\x21-\x7e]{1,500}$/, { message: 'must be an absolute URI without spaces' })
  OIDC_RESOURCE?: string;
}

/**
 * AUTH_ROLE_MAP as a map from group to role name, or what is wrong with its form (never echoing a
 * value). Whether each name is a Vigil role is the auth module's to check at start-up: the roles are
 * a vocabulary above the configuration (`checkRoleMap`).
 */
export function parseRoleMap(text: string): { map: Record<string, string> } | { problem: string } {
  let pairs: Array<[string, unknown]>;
  if (text.trim().startsWith('{')) {
    // The JSON form, for group names holding commas or equals signs (an LDAP distinguished name).
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { problem: 'must be a JSON object of group to role' };
      pairs = Object.entries(parsed);
    } catch {
      return { problem: 'is not valid JSON' };
    }
  } else {
    pairs = text.split(',').filter((entry) => entry.trim() !== '').map((entry) => {
      const at = entry.lastIndexOf('=');
      return at < 0 ? ['', ''] : [entry.slice(0, at).trim(), entry.slice(at + 1).trim()];
    });
  }
  const map: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [group, role] of pairs) {
    if (group === '' || typeof role !== 'string' || role === '') return { problem: 'each entry must be group=role' };
    map[group] = role;
  }
  if (Object.keys(map).length === 0) return { problem: 'names no group' };
  return { map };
}

/** The sign-in settings, with every problem found (pushed onto `problems`, never naming a value). */
export function authConfig(vars: AuthEnvironmentVariables & { PUBLIC_BASE_URL?: string }, production: boolean, problems: string[]): AuthConfig {
  if (production && vars.AUTH_DEV_MODE === true) problems.push('AUTH_DEV_MODE: development tokens are never accepted in production');
  const devMode = vars.AUTH_DEV_MODE ?? (!production && !vars.AUTH_JWKS_URL);
  if (!devMode && !vars.AUTH_JWKS_URL) problems.push('AUTH_JWKS_URL: required unless AUTH_DEV_MODE is on (it is off in production)');
  if (production && vars.AUTH_JWKS_URL && !vars.AUTH_JWKS_URL.startsWith('https://'))
    problems.push('AUTH_JWKS_URL: must be an https URL in production (keys fetched in clear text can be replaced on the way)');

  let roleMap: Record<string, string> = {};
  if (vars.AUTH_ROLE_CLAIM && !vars.AUTH_ROLE_MAP) problems.push('AUTH_ROLE_MAP: required when AUTH_ROLE_CLAIM is set (which group grants which role)');
  if (vars.AUTH_ROLE_MAP && !vars.AUTH_ROLE_CLAIM) problems.push('AUTH_ROLE_CLAIM: required when AUTH_ROLE_MAP is set (the claim that lists the groups)');
  if (vars.AUTH_ROLE_MAP) {
    const parsed = parseRoleMap(vars.AUTH_ROLE_MAP);
    if ('problem' in parsed) problems.push(`AUTH_ROLE_MAP: ${parsed.problem}`);
    else roleMap = parsed.map;
  }

  let signIn: AuthConfig['signIn'];
  if (vars.OIDC_CLIENT_ID) {
    const issuer = vars.OIDC_ISSUER ?? (/^https?:\/\//.test(vars.AUTH_ISSUER) ? vars.AUTH_ISSUER : undefined);
    if (!issuer) problems.push('OIDC_ISSUER: required with OIDC_CLIENT_ID when AUTH_ISSUER is not the provider’s URL');
    if (!vars.AUTH_JWKS_URL) problems.push('AUTH_JWKS_URL: required with OIDC_CLIENT_ID (the page’s access tokens are verified with it)');
    const redirectUri = vars.OIDC_REDIRECT_URI ?? (vars.PUBLIC_BASE_URL ? `${vars.PUBLIC_BASE_URL}/review` : undefined);
    if (production && [issuer, redirectUri].some((url) => url !== undefined && !url.startsWith('https://')))
      problems.push('OIDC_ISSUER, OIDC_REDIRECT_URI: must be https URLs in production (codes and tokens travel through them)');
    if (issuer) signIn = { issuer: issuer.replace(/\/$/, ''), clientId: vars.OIDC_CLIENT_ID, redirectUri, scope: vars.OIDC_SCOPE, resource: vars.OIDC_RESOURCE };
  }

  return {
    jwksUrl: vars.AUTH_JWKS_URL,
    issuer: vars.AUTH_ISSUER,
    audience: vars.AUTH_AUDIENCE,
    devMode,
    devKeyFile: vars.AUTH_DEV_KEY_FILE,
    maxTokenLifetimeSeconds: vars.AUTH_MAX_TOKEN_LIFETIME_SECONDS,
    jwksCacheSeconds: vars.AUTH_JWKS_CACHE_SECONDS,
    tokenCache: vars.AUTH_TOKEN_CACHE,
    identity: { claim: vars.AUTH_IDENTITY_CLAIM, npiClaim: vars.AUTH_NPI_CLAIM, roleClaim: vars.AUTH_ROLE_CLAIM, roleMap, cache: vars.AUTH_IDENTITY_CACHE },
    signIn,
  };
}
