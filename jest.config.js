/**
 * Three tiers (see README "Tests"): unit specs beside the code, integration tests against real
 * Postgres and Redis, e2e tests over HTTP. Type checking is `npm run typecheck`'s job; Jest only
 * transpiles, which keeps the suite fast.
 */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: { ...require("./tsconfig.json").compilerOptions, isolatedModules: true } }] };
const common = { testEnvironment: 'node', transform, moduleFileExtensions: ['ts', 'js', 'json'] };
/**
 * Tests that start the app, a database or a Redis server wait on the machine, not on the code: on a
 * shared two-core runner an app start has taken more than Jest's default 5 s, which failed a hook,
 * not a behaviour. A hang still fails, after a minute.
 */
// Jest ignores `testTimeout` in a project's own config; a setup file's jest.setTimeout applies per project.
const startsServices = { ...common, setupFilesAfterEnv: ['<rootDir>/test/setup/service-timeout.ts'] };

/** @type {import('jest').Config} */
module.exports = {
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/bench/**/*.spec.ts'] },
    { ...startsServices, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts'] },
    { ...startsServices, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
  ],
};
