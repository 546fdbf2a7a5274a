import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { TOOL_NAMES } from '../../src/tools/tool-names';
import { createTestApp, TestApp } from '../setup/app';
import { useSeededDatabase } from '../setup/database';

const SNAPSHOT = join(__dirname, '..', '..', 'docs', 'openapi.json');

/**
 * The OpenAPI document is part of the product: a committed snapshot (`docs/openapi.json`) that this
 * test compares with what the app serves. After an intended API change, refresh it with
 * `npm run openapi:sync` and review the diff.
 */
describe('OpenAPI document', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let document: {
    paths: Record<string, Record<string, { operationId: string; security?: unknown[]; responses: Record<string, unknown>; parameters?: Array<{ name: string }> }>>;
    components: { securitySchemes?: Record<string, unknown> };
  };
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    document = (await request(sut.app.getHttpServer()).get('/docs-json').expect(200)).body;
    if (process.env.UPDATE_OPENAPI_SNAPSHOT === '1') writeFileSync(SNAPSHOT, `${JSON.stringify(document, null, 2)}\n`);
  });
  afterAll(() => sut.close());

  it('matches the committed snapshot', () => {
    expect(existsSync(SNAPSHOT)).toBe(true);
    expect(document).toEqual(JSON.parse(readFileSync(SNAPSHOT, 'utf8')));
  });

  it.each(TOOL_NAMES.map((tool) => [tool]))('documents %s as an operation with the bearer scheme and its errors', (tool) => {
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    const operation = operations.find((candidate) => candidate.operationId === tool);
    expect(operation).toBeDefined();
    expect(operation!.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(operation!.responses).sort()).toEqual(['200', '400', '401', '403', '404', '408', '429', '431', '500']);
  });

  it('declares the bearer security scheme', () => {
    expect(document.components.securitySchemes).toHaveProperty('bearer');
  });
});
