import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { parse } from 'yaml';
import { EnvironmentVariables } from '../../src/config/environment.schema';
import { loadConfig } from '../../src/config/load-config';

/**
 * No Docker engine runs in CI, so these tests hold the compose file and Dockerfile to what the
 * code and scripts actually expect: the closest check short of `docker compose up`.
 */
const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

interface ComposeService {
  build?: string;
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
}

describe('docker-compose.yml and Dockerfile', () => {
  const compose = parse(read('docker-compose.yml')) as { services: Record<string, ComposeService> };
  const dockerfile = read('Dockerfile');
  const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
  const app = compose.services.app;

  it('runs Postgres, Redis and the app built from the Dockerfile', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'postgres', 'redis']);
    expect(app.build).toBe('.');
    expect(app.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
  });

  it('gives Redis the noeviction policy BullMQ requires', () => {
    expect(compose.services.redis.command?.join(' ')).toMatch(/--maxmemory-policy noeviction/);
  });

  it('sets only variables Vigil knows, and they pass its config validation', () => {
    const known = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(EnvironmentVariables, '', true, false)
        .map((metadata) => metadata.propertyName),
    );
    const environment = app.environment ?? {};
    expect(Object.keys(environment).filter((name) => !known.has(name))).toEqual([]);
    expect(() => loadConfig(environment)).not.toThrow();
  });

  it('points the app at the compose services', () => {
    const postgres = compose.services.postgres.environment ?? {};
    expect(app.environment?.DATABASE_URL).toBe(
      `postgres://${postgres.POSTGRES_USER}:${postgres.POSTGRES_PASSWORD}@postgres:5432/${postgres.POSTGRES_DB}`,
    );
    expect(app.environment?.REDIS_URL).toBe('redis://redis:6379');
  });

  it('starts the same entry point as `npm start`, in a multi-stage build', () => {
    const entry = pkg.scripts.start.replace(/^exec node /, '');
    expect(dockerfile).toContain(`CMD ["node", "${entry}"]`);
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
  });

  it('copies only paths that exist in the repository', () => {
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((match) => match[1].split(/\s+/));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(existsSync(join(root, source))).toBe(true);
  });
});
