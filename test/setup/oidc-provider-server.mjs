// A real OpenID Connect provider (the certified `oidc-provider` package) for the authentication
// tests, run as a child process because the package is ES-module only. It issues RFC 9068 JWT access
// tokens for Vigil (audience `vigil`) by the client-credentials grant: each client is named after a
// staff user, so the token's `sub` is that username. Its signing keys (private JWKs, the first one
// signs) come from OIDC_JWKS; it listens on 127.0.0.1:OIDC_PORT (0: any free port) and prints one
// JSON line {"issuer": ...} once it serves.
//
// People sign in by the authorization code grant with PKCE through public clients
// (OIDC_PUBLIC_CLIENTS: [{ client_id, redirect_uris }]), on the package's development login and
// consent pages (any login is an account id; any password). OIDC_ACCOUNTS ({ accountId: claims })
// gives an account the claims its access tokens carry besides `sub` (email, npi, groups). Refresh
// tokens rotate, as the package does for public clients; revocation and RP-initiated logout are on.
//
// SMART Backend Services (OIDC_SMART: { resource, scope, ttlSeconds, clients: [{ client_id, jwks,
// alg }] }): each client authenticates by a `private_key_jwt` assertion verified with its registered
// public JWKS (RS384 or ES384, as SMART requires) and gets, by the client-credentials grant, an
// RFC 9068 JWT access token for the FHIR server: audience `resource` (chosen for it, since SMART
// clients send no resource indicator), the requested `system/…` scopes that `scope` allows, and a
// lifetime of `ttlSeconds`.
import { createServer } from 'node:http';
import Provider, { errors } from 'oidc-provider';

const keys = JSON.parse(process.env.OIDC_JWKS ?? '{"keys":[]}');
const clients = (process.env.OIDC_CLIENTS ?? '').split(',').filter(Boolean);
const publicClients = JSON.parse(process.env.OIDC_PUBLIC_CLIENTS ?? '[]');
const accounts = JSON.parse(process.env.OIDC_ACCOUNTS ?? '{}');
const ttlSeconds = Number(process.env.OIDC_TOKEN_TTL_SECONDS ?? '300');
const smart = JSON.parse(process.env.OIDC_SMART ?? 'null');
const smartClients = new Set((smart?.clients ?? []).map((client) => client.client_id));
const RESOURCE = 'urn:vigil:api';
const originOf = (uri) => new URL(uri).origin;

let handle = (_req, res) => {
  res.statusCode = 503;
  res.end();
};
const server = createServer((req, res) => handle(req, res));
server.listen(Number(process.env.OIDC_PORT ?? '0'), '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    jwks: keys,
    cookies: { keys: ['vigil-test-cookie-key'] },
    clients: [
      ...clients.map((clientId) => ({
        client_id: clientId,
        client_secret: 'test-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      })),
      ...publicClients.map((client) => ({
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        post_logout_redirect_uris: client.redirect_uris,
        ...client,
      })),
      ...(smart?.clients ?? []).map((client) => ({
        client_id: client.client_id,
        token_endpoint_auth_method: 'private_key_jwt',
        token_endpoint_auth_signing_alg: client.alg,
        jwks: client.jwks,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      })),
    ],
    // The package enables only the 256-bit variants for client assertions; SMART requires RS384 or ES384.
    enabledJWA: { clientAuthSigningAlgValues: ['HS256', 'RS256', 'PS256', 'ES256', 'EdDSA', 'RS384', 'ES384'] },
    // A browser page calls the token, revocation and discovery endpoints from its own origin.
    clientBasedCORS: (_ctx, origin, client) => (client.redirectUris ?? []).some((uri) => originOf(uri) === origin),
    findAccount: (_ctx, accountId) => ({ accountId, claims: () => ({ sub: accountId }) }),
    extraTokenClaims: (_ctx, token) => (token.accountId ? accounts[token.accountId] : undefined),
    // The package grants offline_access only with prompt=consent (OpenID Connect Core 11); like the
    // providers that issue refresh tokens to their browser clients anyway, this one issues them to
    // every client allowed the grant, bound to the sign-in session (ending it ends them).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    features: {
      devInteractions: { enabled: publicClients.length > 0 },
      revocation: { enabled: true },
      // Clients may register themselves (RFC 7591), as MCP clients do where a provider allows it.
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, client) => (smartClients.has(client?.clientId) ? smart.resource : RESOURCE),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource, client) => {
          const jwt = { sign: { alg: keys.keys[0]?.alg ?? 'RS256' } };
          if (resource !== smart?.resource) return { scope: 'vigil', audience: 'vigil', accessTokenTTL: ttlSeconds, accessTokenFormat: 'jwt', jwt };
          // Only the SMART clients may have tokens for the FHIR server.
          if (!smartClients.has(client?.clientId)) throw new errors.InvalidTarget();
          return { scope: smart.scope, audience: smart.resource, accessTokenTTL: smart.ttlSeconds, accessTokenFormat: 'jwt', jwt };
        },
      },
    },
  });
  handle = provider.callback();
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
