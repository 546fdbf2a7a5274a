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
  volumes?: string[];
}

describe('docker-compose.yml and Dockerfile', () => {
  const compose = parse(read('docker-compose.yml')) as { services: Record<string, ComposeService>; volumes?: Record<string, unknown> };
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
    // The same words, flags included (API_NODE_FLAGS), as an exec-form CMD.
    const words = pkg.scripts.start.replace(/^exec /, '').split(' ');
    expect(dockerfile).toContain(`CMD [${words.map((word) => JSON.stringify(word)).join(', ')}]`);
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
  });

  describe('the audit checkpoints and the key that signs them', () => {
    /** The app's mount holding `path`: a named volume (`name:/target`), or undefined. */
    const mountOf = (path: string) =>
      (app.volumes ?? [])
        .map((entry) => entry.split(':'))
        .map(([name, target]) => ({ name, target }))
        .find(({ target }) => path === target || path.startsWith(`${target}/`));
    const keyFile = app.environment?.AUDIT_CHECKPOINT_KEY_FILE ?? '';
    const checkpointDir = app.environment?.AUDIT_CHECKPOINT_DIR ?? '';

    // Every key file, not only the checkpoints' one: a re-created container must keep its pseudonyms and tokens too.
    const keyFiles = Object.entries(app.environment ?? {}).filter(([name]) => name.endsWith('_KEY_FILE'));

    it('names the key files it keeps', () => {
      expect(keyFiles.map(([name]) => name).sort()).toEqual(['AUDIT_CHECKPOINT_KEY_FILE', 'AUTH_DEV_KEY_FILE', 'PSEUDONYM_KEY_FILE']);
    });

    it.each(keyFiles)('keeps %s with the deployment’s secrets: on a named volume that outlives the container, never in its /tmp', (_name, file) => {
      expect(file).toMatch(/^\//);
      expect(file).not.toMatch(/^\/tmp\//);
      const mount = mountOf(String(file));
      expect(mount).toBeDefined();
      expect(Object.keys(compose.volumes ?? {})).toContain(mount?.name);
      expect(mount?.name).toBe(mountOf(keyFile)?.name);
    });

    it('keeps the key apart from the checkpoints it signs, each on a volume of its own', () => {
      const checkpoints = mountOf(checkpointDir);
      expect(checkpoints).toBeDefined();
      expect(Object.keys(compose.volumes ?? {})).toContain(checkpoints?.name);
      expect(checkpoints?.name).not.toBe(mountOf(keyFile)?.name);
    });

    it('the image makes both directories, the app’s own, the key’s readable by the app alone', () => {
      const keyDir = mountOf(keyFile)?.target ?? '';
      const checkpointsDir = mountOf(checkpointDir)?.target ?? '';
      expect(dockerfile).toMatch(new RegExp(`mkdir -p [^\n]*${checkpointsDir}\\b`));
      expect(dockerfile).toMatch(new RegExp(`mkdir -p [^\n]*${keyDir}\\b`));
      expect(dockerfile).toMatch(new RegExp(`chown node:node [^\n]*${checkpointsDir} [^\n]*${keyDir}`));
      expect(dockerfile).toMatch(new RegExp(`chmod 700 ${keyDir}$`, 'm'));
    });
  });

  it('copies only paths that exist in the repository', () => {
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((match) => match[1].split(/\s+/));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(existsSync(join(root, source))).toBe(true);
  });
});
