import { IdentityClaim, parseRoleMap } from './auth-environment';
import { ConfigError, loadConfig } from './load-config';

const problemsOf = (env: NodeJS.ProcessEnv): string[] => {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
};
const PROVIDER = { AUTH_JWKS_URL: 'https://idp.example.org/jwks', AUTH_ISSUER: 'https://idp.example.org' };

describe('sign-in settings', () => {
  it('keep today’s behaviour by default: tokens name a username, roles come from the staff rows, no OpenID sign-in', () => {
    expect(loadConfig({}).auth).toMatchObject({ identity: { claim: IdentityClaim.Username, npiClaim: 'npi', roleClaim: undefined, roleMap: {} }, signIn: undefined });
  });

  it('read the identity claim, the NPI claim and the groups mapping', () => {
    const sut = loadConfig({ ...PROVIDER, AUTH_IDENTITY_CLAIM: 'npi', AUTH_NPI_CLAIM: 'https://example.org/npi', AUTH_ROLE_CLAIM: 'groups', AUTH_ROLE_MAP: 'vigil-clinicians=clinician, vigil-reviewers = reviewer' });
    expect(sut.auth.identity).toEqual({
      claim: IdentityClaim.Npi,
      npiClaim: 'https://example.org/npi',
      roleClaim: 'groups',
      roleMap: { 'vigil-clinicians': 'clinician', 'vigil-reviewers': 'reviewer' },
      cache: true,
    });
  });

  it('cache identities unless AUTH_IDENTITY_CACHE=false', () => {
    expect(loadConfig({}).auth.identity.cache).toBe(true);
    expect(loadConfig({ AUTH_IDENTITY_CACHE: 'false' }).auth.identity.cache).toBe(false);
  });

  it('keep verified tokens unless AUTH_TOKEN_CACHE=false', () => {
    expect(loadConfig({}).auth.tokenCache).toBe(true);
    expect(loadConfig({ AUTH_TOKEN_CACHE: 'false' }).auth.tokenCache).toBe(false);
  });

  it.each<[string, NodeJS.ProcessEnv, string]>([
    ['an unknown identity claim', { AUTH_IDENTITY_CLAIM: 'preferred_username' }, 'AUTH_IDENTITY_CLAIM'],
    ['a groups claim without a mapping', { AUTH_ROLE_CLAIM: 'groups' }, 'AUTH_ROLE_MAP: required when AUTH_ROLE_CLAIM is set'],
    ['a mapping without a groups claim', { AUTH_ROLE_MAP: 'g=reviewer' }, 'AUTH_ROLE_CLAIM: required when AUTH_ROLE_MAP is set'],
    ['a mapping entry without a role', { AUTH_ROLE_CLAIM: 'groups', AUTH_ROLE_MAP: 'vigil-reviewers' }, 'AUTH_ROLE_MAP: each entry must be group=role'],
    ['a claim name with a space', { AUTH_NPI_CLAIM: 'my npi' }, 'AUTH_NPI_CLAIM'],
    ['a page client without a JWKS', { AUTH_ISSUER: 'https://idp.example.org', OIDC_CLIENT_ID: 'vigil-review' }, 'AUTH_JWKS_URL: required with OIDC_CLIENT_ID'],
    ['a page client whose issuer is no URL', { AUTH_JWKS_URL: 'https://idp.example.org/jwks', OIDC_CLIENT_ID: 'vigil-review' }, 'OIDC_ISSUER: required with OIDC_CLIENT_ID'],
    ['a clear-text issuer in production', { NODE_ENV: 'production', AUTH_JWKS_URL: 'https://idp.example.org/jwks', DATABASE_URL: 'postgres://x@db/x', OIDC_CLIENT_ID: 'c', OIDC_ISSUER: 'http://idp.example.org' }, 'OIDC_ISSUER, OIDC_REDIRECT_URI: must be https'],
    ['scopes without openid', { OIDC_SCOPE: 'profile' }, 'OIDC_SCOPE'],
  ])('refuse %s', (_name, env, problem) => {
    expect(problemsOf(env).join('\n')).toContain(problem);
  });

  it('give the page its client: the issuer defaults to AUTH_ISSUER, the redirect to PUBLIC_BASE_URL’s page', () => {
    expect(loadConfig({ ...PROVIDER, OIDC_CLIENT_ID: 'vigil-review', PUBLIC_BASE_URL: 'https://vigil.example.org' }).auth.signIn).toEqual({
      issuer: 'https://idp.example.org',
      clientId: 'vigil-review',
      redirectUri: 'https://vigil.example.org/review',
      scope: 'openid offline_access',
      resource: undefined,
    });
    expect(loadConfig({ ...PROVIDER, OIDC_CLIENT_ID: 'c', OIDC_ISSUER: 'https://login.example.org/realms/x/', OIDC_SCOPE: 'openid offline_access api://vigil/access' }).auth.signIn).toMatchObject({
      issuer: 'https://login.example.org/realms/x',
      redirectUri: undefined,
      scope: 'openid offline_access api://vigil/access',
    });
  });
});

describe(parseRoleMap.name, () => {
  it('reads the JSON form, for group names with commas and equals signs', () => {
    expect(parseRoleMap('{"cn=Vigil Reviewers,ou=Groups,dc=example,dc=org": "reviewer"}')).toEqual({ map: { 'cn=Vigil Reviewers,ou=Groups,dc=example,dc=org': 'reviewer' } });
  });
  it.each(['[]', '{"g": 1}', '{"g": ""}', '{', '', ' , ', 'g=', '=reviewer'])('refuses %j', (text) => {
    expect(parseRoleMap(text)).toHaveProperty('problem');
  });
});
