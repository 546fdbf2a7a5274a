import { buildIfStale } from '../../scripts/build-if-stale';

/**
 * Builds `dist/` when it is missing or older than the sources, for the tests that spawn the compiled
 * service (the API, the worker, the CLI). CI builds before it tests, and a developer who just built
 * need not wait for it again; a stale `dist/` would test yesterday's code. The rule is the npm
 * scripts' own (scripts/build-if-stale.js), so the tests and `npm start` agree on what is stale.
 */
export function ensureCompiledService(): void {
  try {
    buildIfStale();
  } catch (error) {
    throw new Error(`${(error as Error).message}: the tests that spawn dist/ cannot run`);
  }
}
