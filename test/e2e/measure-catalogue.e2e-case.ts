import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { COMMANDS } from '../../src/cli/commands';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { baseUrlOf } from '../setup/event-stream';
import { connectMcp } from '../setup/mcp-client';
import { collectionBundle, elmLibrary, expandedValueSet, proportionMeasure } from '../setup/measure-bundles';

const SNOMED = 'http://snomed.info/sct';
const USER: Record<StaffRole, string> = {
  [StaffRole.Clinician]: 'dr.okafor',
  [StaffRole.CareCoordinator]: 'cc.mensah',
  [StaffRole.Reviewer]: 'rev.santos',
  [StaffRole.Analyst]: 'an.whitfield',
  [StaffRole.PrivacyOfficer]: 'po.achebe',
};
type Row = Record<string, unknown>;

/** Two editions of an invented measure, loaded with the operators' command, then read through `GET /measures` and `vigil://measures`. */
describe('the measure catalogue lists loaded measures beside the built-in ones', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let folder: string;
  const http = () => request(sut.app.getHttpServer());
  const as = async (username: string) => ({ authorization: `Bearer ${await sut.tokenFor(username)}` });

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'vigil-catalogue-'));
    const editions = [
      { name: 'edition-2025', version: '1.0.000', period: { start: '2025-01-01', end: '2025-12-31' } },
      { name: 'edition-2026', version: '2.0.000', period: { start: '2026-01-01', end: '2026-12-31' } },
    ];
    for (const { name, version, period } of editions) {
      const resources = [
        proportionMeasure('CMS9999', version, 'Invented', period),
        elmLibrary('Invented', version, [['Shared', '1.0.000']], [['Diabetes', '9.1']]),
        elmLibrary('Shared', '1.0.000', [], [['Hospice', '9.2']]),
        expandedValueSet('9.1', [[SNOMED, '44054006']]),
        expandedValueSet('9.2', [[SNOMED, '385763009']]),
      ];
      writeFileSync(join(folder, `${name}.json`), JSON.stringify(collectionBundle(resources)));
      const lines: string[] = [];
      expect(await COMMANDS['measures-load'].run(database().dataSource, [join(folder, `${name}.json`)], (line) => lines.push(line))).toBe(0);
      expect(lines[0]).toMatch(new RegExp(`^CMS9999 ${version} \\(${name}\\): loaded: 2 libraries, 2 value sets \\(2 codes\\)`));
    }
    sut = await createTestApp({ databaseUrl: database().url });
    await sut.app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await sut?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const loadedEntry = (edition: string, version: string, start: string, end: string) => ({
    key: 'CMS9999',
    title: 'Invented measure CMS9999',
    version,
    url: 'https://example.org/Measure/CMS9999',
    edition,
    scoring: 'proportion',
    basis: 'boolean',
    groups: [{
      id: 'Group_1', scoring: 'proportion', basis: 'boolean', improvementNotation: null, stratifiers: [],
      populations: [
        { code: 'initial-population', id: 'initial-population', expression: 'Initial Population' },
        { code: 'denominator', id: 'denominator', expression: 'Denominator' },
        { code: 'numerator', id: 'numerator', expression: 'Numerator' },
      ],
    }],
    measurementPeriod: { start, end },
    loadedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
    libraries: 2,
    valueSets: 2,
    valueSetsFromSupplement: 0,
    // A patient-based proportion measure: care_gap_lookup reads it as a care gap.
    evaluable: true,
  });

  it.each(Object.values(StaffRole))('GET /measures as %s: the six evaluated measures and every loaded edition, one audit row naming no patient', async (role) => {
    const res = await http().get('/measures').set(await as(USER[role]));
    expect(res.status).toBe(200);
    expect(res.body.measures.map((measure: Row) => [measure.key, measure.evaluable])).toEqual([
      ['CMS122', true], ['CMS165', true], ['CMS125', true], ['CMS130', true], ['CMS347', true], ['CMS951', true],
    ]);
    expect(res.body.loaded).toEqual([loadedEntry('edition-2025', '1.0.000', '2025-01-01', '2025-12-31'), loadedEntry('edition-2026', '2.0.000', '2026-01-01', '2026-12-31')]);
    const audit = await database().dataSource.query(`SELECT action, outcome, patient_id AS "patientId", actor_role AS "actorRole", row_count AS "rowCount" FROM audit_events WHERE correlation_id = $1`, [res.headers['x-correlation-id']]);
    expect(audit).toEqual([{ action: 'measures.catalogue.read', outcome: 'success', patientId: null, actorRole: role, rowCount: 8 }]);
  });

  it('filters by key, and refuses a key that is not one (400) or a caller without a token (401)', async () => {
    const headers = await as('dr.okafor');
    const loadedOnly = await http().get('/measures?key=CMS9999').set(headers).expect(200);
    expect({ measures: loadedOnly.body.measures, loaded: loadedOnly.body.loaded.map((measure: Row) => measure.version) }).toEqual({ measures: [], loaded: ['1.0.000', '2.0.000'] });
    const builtIn = await http().get('/measures?key=CMS122').set(headers).expect(200);
    expect({ measures: builtIn.body.measures.map((measure: Row) => measure.version), loaded: builtIn.body.loaded }).toEqual({ measures: ['CMS122v13'], loaded: [] });
    const none = await http().get('/measures?key=CMS1').set(headers).expect(200);
    expect(none.body).toEqual({ measures: [], loaded: [] });
    expect((await http().get('/measures?key=CMS-122').set(headers)).status).toBe(400);
    expect((await http().get('/measures')).status).toBe(401);
  });

  it('lists the loaded measures in the MCP resource vigil://measures too, marked not evaluated', async () => {
    const token = await sut.tokenFor('dr.okafor');
    const mcp = await connectMcp(baseUrlOf(sut.app.getHttpServer()), patientIdOf('complete-record'), () => token);
    try {
      const catalogue = JSON.parse(((await mcp.client.readResource({ uri: 'vigil://measures' })).contents[0] as { text: string }).text) as Row;
      expect((catalogue.measures as Row[]).map((measure) => [measure.id, measure.version, measure.evaluable])).toEqual(
        expect.arrayContaining([['CMS122', 'CMS122v13', true], ['CMS951', 'CMS951v3', true]]),
      );
      expect(catalogue.loaded).toEqual([loadedEntry('edition-2025', '1.0.000', '2025-01-01', '2025-12-31'), loadedEntry('edition-2026', '2.0.000', '2026-01-01', '2026-12-31')]);
      expect(catalogue.valueSetExpansion).toMatchObject({ valueSetCount: expect.any(Number) });
    } finally {
      await mcp.close();
    }
  });
});
