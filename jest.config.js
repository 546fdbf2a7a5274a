/**
 * Three tiers (see README "Tests"): unit specs beside the code, integration tests against real
 * Postgres and Redis, e2e tests over HTTP. Type checking is `npm run typecheck`'s job; Jest only
 * transpiles, which keeps the suite fast.
 */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: { ...require("./tsconfig.json").compilerOptions, isolatedModules: true } }] };
const common = { testEnvironment: 'node', transform, moduleFileExtensions: ['ts', 'js', 'json'] };

/** @type {import('jest').Config} */
module.exports = {
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/bench/**/*.spec.ts'] },
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
  ],
};
