/** Integration and e2e tests wait on started services; see jest.config.js for why a minute. */
jest.setTimeout(60_000);
