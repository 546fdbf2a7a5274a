import { loadConfig } from '../config/load-config';
import { loadOrCreateDevKey } from '../auth/dev-signing-key';
import { mintDevToken } from '../auth/token.service';

/**
 * `npm run token -- <username> [--ttl seconds]`: a development bearer token for a staff user.
 * It needs no database (the service checks the user when the token is used) and refuses to run
 * when development auth is off, as it always is in production.
 */
export async function tokenCommand(args: string[], out: (line: string) => void): Promise<number> {
  const config = loadConfig();
  if (!config.auth.devMode) {
    out('Development auth is off (production, or AUTH_JWKS_URL set without AUTH_DEV_MODE): no token minted.');
    return 2;
  }
  const [username] = args.filter((arg, index) => !arg.startsWith('--') && args[index - 1] !== '--ttl');
  const ttlIndex = args.indexOf('--ttl');
  // The service refuses tokens living longer than AUTH_MAX_TOKEN_LIFETIME_SECONDS: never mint one.
  const maxTtl = config.auth.maxTokenLifetimeSeconds;
  const ttlSeconds = ttlIndex >= 0 ? Number(args[ttlIndex + 1]) : Math.min(3600, maxTtl);
  if (!username || !Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > maxTtl) {
    out(`usage: npm run token -- <username> [--ttl seconds (1-${maxTtl}, AUTH_MAX_TOKEN_LIFETIME_SECONDS)]   e.g. npm run token -- dr.okafor (po.achebe: the privacy officer)`);
    return 2;
  }
  const key = loadOrCreateDevKey(config.auth.devKeyFile);
  out(await mintDevToken(key, username, { issuer: config.auth.issuer, audience: config.auth.audience, ttlSeconds }));
  return 0;
}
