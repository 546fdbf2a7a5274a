/**
 * Three tiers (see docs/development.md "Tests"): unit specs beside the code, which need no database,
 * no Redis and no build; integration tests against real Postgres and Redis; e2e tests over HTTP.
 */
const { availableParallelism, totalmem } = require('node:os');
const { compilerOptions } = require('./tsconfig.json');

/**
 * Jest only transpiles, with swc (type checking is `npm run typecheck`'s job). Its output must behave
 * as tsc's does: legacy decorators with their design-time metadata (Nest's injection, class-validator,
 * class-transformer and TypeORM read it) and the same class-field semantics, all taken from tsconfig.json.
 */
const target = compilerOptions.target.toLowerCase();
// tsc's default: [[Define]] fields from ES2022 on.
const useDefineForClassFields = compilerOptions.useDefineForClassFields ?? (target === 'esnext' || Number(target.slice(2)) >= 2022);
const swc = {
  jsc: {
    target,
    parser: { syntax: 'typescript', decorators: compilerOptions.experimentalDecorators },
    transform: { legacyDecorator: compilerOptions.experimentalDecorators, decoratorMetadata: compilerOptions.emitDecoratorMetadata, useDefineForClassFields },
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};
const common = { testEnvironment: 'node', transform: { '^.+\\.ts$': ['@swc/jest', swc] }, moduleFileExtensions: ['ts', 'js', 'json'] };

/**
 * The tiers that start the app, a database or a Redis server share one global setup (dist/ if stale,
 * one template database; Jest runs it once for both). They wait on the machine, not on the code: on
 * a shared two-core runner an app start has taken more than Jest's default 5 s, which failed a hook,
 * not a behaviour. A hang still fails, after a minute.
 */
// Jest ignores `testTimeout` in a project's own config; a setup file's jest.setTimeout applies per project.
const startsServices = {
  ...common,
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/test/setup/service-timeout.ts'],
};

/**
 * Jest's default (one worker per core but one) runs a two-core machine's files one at a time, while
 * the integration and e2e files spend most of their time waiting, not computing: on Postgres,
 * spawned processes, Chromium and timers (measured on the grouped files, docs/development.md
 * "Where the run's time goes": e2e 251 s of CPU in 700 s of file time, integration 79 s in 410 s).
 * So at least four workers, two per core on a two-core machine (CI's), which keeps its cores busy
 * through those waits; from six cores on, Jest's default. Each worker holds up to about 1.6 GB (the
 * e2e groups' largest), so memory caps the count, never below two.
 */
function workerCount() {
  const byMemory = Math.floor(totalmem() / 2 ** 31);
  return Math.max(2, Math.min(Math.max(4, availableParallelism() - 1), byMemory));
}

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: workerCount(),
  testSequencer: '<rootDir>/test/setup/tier-order.js',
  reporters: ['default', '<rootDir>/test/setup/tier-times.js'],
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/bench/**/*.spec.ts', '<rootDir>/scripts/**/*.spec.ts'],
      // The review page's browser modules are served as written (ES modules); their specs load them as CommonJS.
      transform: { ...common.transform, '/review-page/[^/]+\\.js$': ['@swc/jest', { jsc: { target, parser: { syntax: 'ecmascript' } }, module: { type: 'commonjs' } }] },
    },
    { ...startsServices, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts'] },
    { ...startsServices, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
  ],
};
