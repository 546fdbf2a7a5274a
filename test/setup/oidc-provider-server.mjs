// A real OpenID Connect provider (the certified `oidc-provider` package) for the authentication
// tests, run as a child process because the package is ES-module only. It issues RFC 9068 JWT access
// tokens for Vigil (audience `vigil`) by the client-credentials grant: each client is named after a
// staff user, so the token's `sub` is that username. Its signing keys (private JWKs, the first one
// signs) come from OIDC_JWKS; it listens on 127.0.0.1:OIDC_PORT (0: any free port) and prints one
// JSON line {"issuer": ...} once it serves.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const keys = JSON.parse(process.env.OIDC_JWKS ?? '{"keys":[]}');
const clients = (process.env.OIDC_CLIENTS ?? '').split(',').filter(Boolean);
const ttlSeconds = Number(process.env.OIDC_TOKEN_TTL_SECONDS ?? '300');
const RESOURCE = 'urn:vigil:api';

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
    clients: clients.map((clientId) => ({
      client_id: clientId,
      client_secret: 'test-secret',
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
    })),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'vigil',
          audience: 'vigil',
          accessTokenTTL: ttlSeconds,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: keys.keys[0]?.alg ?? 'RS256' } },
        }),
      },
    },
  });
  handle = provider.callback();
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
