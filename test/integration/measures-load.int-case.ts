import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { operatingSystemUser } from '../../src/cli/cli-audit';
import { COMMANDS } from '../../src/cli/commands';
import { dataSourceOptions } from '../../src/data-source';
import { MeasureCatalogueService, MeasurePackagesRepository } from '../../src/measure-packages';
import type { AuditedAccess } from '../../src/access/audited-access.service';
import { DataSource } from 'typeorm';
import { useSeededDatabase } from '../setup/database';

const ROOT = join(__dirname, '..', '..', '..', 'shared', 'external-data', 'ecqm-measures');
const EDITIONS = { 2024: join(ROOT, '2024-qicore4'), 2025: join(ROOT, '2025-qicore6') };
const available = existsSync(join(EDITIONS[2024], 'index.json')) && existsSync(join(EDITIONS[2025], 'index.json'));
if (!available) console.warn('[vigil tests] ecqm-measures corpus absent (../shared/external-data/ecqm-measures, see its README): the measure-load tests are skipped');

type Index = { measures: Record<string, { measure: string; libraries: { file: string | null }[]; valuesets: { status: string; file: string | null }[] }> };
const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const print = (text: string) => process.stdout.write(`\n${text}\n`);

/** The measures whose index lists a value set that is not complete (`truncated n/total`, `missing`, `compose-only`). */
const incompleteIn = (index: Index) => Object.keys(index.measures).filter((key) => index.measures[key].valuesets.some((valueSet) => valueSet.status !== 'ok')).sort();

(available ? describe : describe.skip)('measures-load: both editions of the stewards’ published eCQMs', () => {
  const database = useSeededDatabase();
  const query = <T = Record<string, unknown>>(sql: string, parameters: unknown[] = []) => database().dataSource.query<T[]>(sql, parameters);
  const load = async (...args: string[]) => {
    const lines: string[] = [];
    const started = Date.now();
    const code = await COMMANDS['measures-load'].run(database().dataSource, args, (line) => lines.push(line));
    return { code, lines, seconds: (Date.now() - started) / 1000 };
  };
  /** The keys of the measure lines that end in `outcome`. */
  const keysWith = (lines: string[], outcome: RegExp) => lines.filter((line) => outcome.test(line)).map((line) => line.split(' ')[0]).sort();
  const counts = async () =>
    (await query(`SELECT (SELECT count(*)::int FROM measure_packages) AS packages, (SELECT count(*)::int FROM measure_libraries) AS libraries,
      (SELECT count(*)::int FROM value_set_expansions) AS "valueSets", (SELECT count(*)::int FROM value_set_codes) AS codes`))[0];
  // Read only where the corpus is: a describe body runs even when the describe is skipped.
  const index = available
    ? { 2024: readJson<Index>(join(EDITIONS[2024], 'index.json')), 2025: readJson<Index>(join(EDITIONS[2025], 'index.json')) }
    : { 2024: { measures: {} }, 2025: { measures: {} } };
  const timings: string[] = [];

  it('loads each edition, refusing by name every measure with a value set cut short or missing (71 and 74 measures)', async () => {
    for (const year of [2024, 2025] as const) {
      const run = await load(EDITIONS[year]);
      const keys = Object.keys(index[year].measures).sort();
      timings.push(`${year} edition: ${keys.length} measures in ${run.seconds.toFixed(1)} s`);
      expect(run.code).toBe(1);
      expect(run.lines).toHaveLength(keys.length + 1);
      expect(keysWith(run.lines, /: refused: /)).toEqual(incompleteIn(index[year]));
      expect(keysWith(run.lines, /: loaded: /)).toEqual(keys.filter((key) => !incompleteIn(index[year]).includes(key)));
    }
    expect(incompleteIn(index[2024])).toHaveLength(10);
    expect(incompleteIn(index[2025])).toHaveLength(33);
    expect(await counts()).toMatchObject({ packages: 61 + 41 });
  });

  it('names the value set and how short it is: Advanced Illness cut at 1,000 of 1,997 codes for the 2025 CMS122 and CMS125', async () => {
    const run = await load(EDITIONS[2025], '--measure', 'CMS125', '--measure', 'CMS122');
    expect(run.code).toBe(1);
    const stub = ': refused: value set "Advanced Illness" (2.16.840.1.113883.3.464.1003.110.12.1082) cut short: 1,000 of 1,997 codes (a stand-in is in the supplement: --supplement loads it)';
    expect(run.lines).toEqual([
      // In the edition's order, whatever the order asked.
      `CMS122 1.0.000 (2025-qicore6)${stub}`,
      `CMS125 1.0.000 (2025-qicore6)${stub}`,
      '2 measures from 2025-qicore6: 0 loaded, 0 already loaded, 2 refused (' + run.lines[2].split('(')[1],
    ]);
  });

  it('with --supplement loads the stand-ins, checked as strictly; what has no complete copy anywhere stays refused', async () => {
    const run2025 = await load(EDITIONS[2025], '--supplement');
    timings.push(`2025 edition with --supplement: ${run2025.seconds.toFixed(1)} s`);
    expect(run2025.code).toBe(1);
    expect(keysWith(run2025.lines, /: refused: /)).toEqual(['CMS108', 'CMS1218', 'CMS1244', 'CMS1264', 'CMS145', 'CMS816', 'CMS832', 'CMS996', 'NHSNACHMonthly1', 'NHSNHypoglycemia']);
    expect(run2025.lines).toContain(
      'CMS108 1.0.000 (2025-qicore6): refused: value set "Mental Health Diagnoses" (2.16.840.1.113883.3.464.1003.105.12.1004) cut short: 1,000 of 2,422 codes, and its supplement too: cut short: 2,410 of 2,422 codes',
    );
    expect(run2025.lines).toContain('CMS816 1.0.000 (2025-qicore6): refused: value set "Positive Pregnancy Status" (2.16.840.1.113762.1.4.1099.24) missing');
    expect(run2025.lines.at(-1)).toMatch(/^74 measures from 2025-qicore6: 23 loaded, 41 already loaded, 10 refused \(/);
    expect(run2025.lines.find((line) => line.startsWith('CMS125 '))).toMatch(/: loaded: \d+ libraries, \d+ value sets \([\d,]+ codes, 1 from the supplement\)/);

    const run2024 = await load(EDITIONS[2024], '--supplement');
    expect(keysWith(run2024.lines, /: refused: /)).toEqual(['CMS1017', 'CMS1218', 'CMS1244', 'CMS1264', 'CMS145', 'CMS506', 'CMS832', 'CMS986']);
    expect(run2024.lines.at(-1)).toMatch(/^71 measures from 2024-qicore4: 2 loaded, 61 already loaded, 8 refused \(/);

    // Every edition side by side; libraries and expansions shared by content across measures and editions.
    expect(await counts()).toEqual({ packages: 127, libraries: 164, valueSets: 903, codes: 174_680 });
    expect(await query(`SELECT edition, count(*)::int AS n FROM measure_packages GROUP BY edition ORDER BY edition`)).toEqual([
      { edition: '2024-qicore4', n: 63 }, { edition: '2025-qicore6', n: 64 },
    ]);
    // The 2025 Diabetes set has 774 codes; HCPCS keeps each edition's own system URI (nothing maps one to the other).
    const [diabetes] = await query(
      `SELECT v.code_count AS n, array_agg(DISTINCT c.system ORDER BY c.system) AS systems FROM measure_packages p
       JOIN measure_package_value_sets l ON l.measure_package_id = p.id JOIN value_set_expansions v ON v.id = l.value_set_id JOIN value_set_codes c ON c.value_set_id = v.id
       WHERE p.key = 'CMS122' AND p.edition = '2025-qicore6' AND 'Diabetes' = ANY(l.names) GROUP BY v.code_count`,
    );
    expect(diabetes).toEqual({ n: 774, systems: ['http://hl7.org/fhir/sid/icd-10-cm', 'http://snomed.info/sct'] });
    const hcpcs = await query(`SELECT DISTINCT p.edition, c.system FROM measure_packages p JOIN measure_package_value_sets l ON l.measure_package_id = p.id
      JOIN value_set_codes c ON c.value_set_id = l.value_set_id WHERE c.system LIKE '%hcpcs%' OR c.system LIKE '%HCPCS%' ORDER BY 1, 2`);
    expect(hcpcs).toEqual([
      { edition: '2024-qicore4', system: 'http://www.nlm.nih.gov/research/umls/hcpcs' },
      { edition: '2025-qicore6', system: 'http://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets' },
    ]);
  });

  it('a re-load is a no-op: every measure already loaded, nothing written', async () => {
    const before = await counts();
    const run = await load(EDITIONS[2025], '--supplement');
    timings.push(`2025 edition again: ${run.seconds.toFixed(1)} s`);
    expect(run.lines.at(-1)).toMatch(/^74 measures from 2025-qicore6: 0 loaded, 64 already loaded, 10 refused \(/);
    expect(await counts()).toEqual(before);
  });

  describe('from a FHIR Bundle', () => {
    let folder: string;
    beforeAll(() => {
      folder = mkdtempSync(join(tmpdir(), 'vigil-measures-load-'));
    });
    afterAll(() => rmSync(folder, { recursive: true, force: true }));

    /** CMS2 of the 2025 edition (every value set complete) as one collection Bundle, its Measure changed by `change`. */
    const bundleOfCms2 = (change: (measure: Record<string, unknown>) => void) => {
      const entry = index[2025].measures.CMS2;
      const measure = readJson<Record<string, unknown>>(join(EDITIONS[2025], entry.measure));
      change(measure);
      const resources = [
        measure,
        ...entry.libraries.map((library) => readJson(join(EDITIONS[2025], 'libraries', library.file as string))),
        ...entry.valuesets.map((valueSet) => readJson(join(EDITIONS[2025], 'valuesets', valueSet.file as string))),
      ];
      const path = join(folder, 'cms2-bundle.json');
      writeFileSync(path, JSON.stringify({ resourceType: 'Bundle', type: 'collection', entry: resources.map((resource) => ({ resource })) }));
      return path;
    };

    it('finds the same content as the edition folder: already loaded', async () => {
      const run = await load(bundleOfCms2(() => undefined));
      expect(run).toMatchObject({ code: 0, lines: ['CMS2 1.0.000 (cms2-bundle): already loaded (from 2025-qicore6)', expect.stringMatching(/^1 measure from cms2-bundle: 0 loaded, 1 already loaded, 0 refused/)] });
    });

    it('refuses other content under a loaded url and version, and writes nothing', async () => {
      const before = await counts();
      const run = await load(bundleOfCms2((measure) => (measure.title = 'Screening for Depression, edited')), '--edition', 'edited');
      expect(run.code).toBe(1);
      expect(run.lines[0]).toBe(
        'CMS2 1.0.000 (edited): refused: other content is loaded under this url and version (from 2025-qicore6); a loaded measure never changes, a changed one needs a new version',
      );
      expect(await counts()).toEqual(before);
    });
  });

  it('keeps loaded content immutable in the database too', async () => {
    await expect(query(`UPDATE measure_packages SET title = 'x' WHERE key = 'CMS2'`)).rejects.toMatchObject({ code: 'VM001' });
    await expect(query(`UPDATE value_set_codes SET display = 'x' WHERE false`)).rejects.toMatchObject({ code: 'VM001' });
  });

  it('lets the service’s own role (vigil_app) read the loaded measures, never write them', async () => {
    const role = `vigil_test_app_${randomBytes(4).toString('hex')}`;
    await query(`CREATE ROLE ${role} LOGIN IN ROLE vigil_app`);
    const url = new URL(database().url);
    url.username = role;
    const asApp = await new DataSource(dataSourceOptions({ url: url.toString(), poolSize: 1 })).initialize();
    try {
      expect(await new MeasurePackagesRepository(asApp).catalogue()).toHaveLength(127);
      for (const table of ['measure_packages', 'measure_libraries', 'value_set_expansions', 'value_set_codes', 'measure_package_libraries', 'measure_package_value_sets']) {
        await expect(asApp.query(`DELETE FROM ${table}`)).rejects.toMatchObject({ code: '42501' });
      }
      await expect(asApp.query(`INSERT INTO value_set_codes (value_set_id, system, code) SELECT id, 'x', 'y' FROM value_set_expansions LIMIT 1`)).rejects.toMatchObject({ code: '42501' });
    } finally {
      await asApp.destroy();
      await query(`DROP ROLE IF EXISTS ${role}`);
    }
  });

  it('audits every measure once (channel cli, no patient), the loaded ones in their own transaction with the correlation id kept on the package', async () => {
    const rows = await query<{ outcome: string; n: number }>(`SELECT outcome, count(*)::int AS n FROM audit_events WHERE action = 'measures.load' GROUP BY outcome ORDER BY outcome`);
    // 71 + 74 + 2 + 74 + 71 + 74 measure attempts, and the two Bundle runs.
    expect(rows).toEqual([
      { outcome: 'conflict', n: 1 },
      { outcome: 'empty', n: 41 + 61 + 64 + 1 },
      { outcome: 'invalid', n: 10 + 33 + 2 + 10 + 8 + 10 },
      { outcome: 'success', n: 127 },
    ]);
    expect(await query(`SELECT DISTINCT actor_id AS "actorId", actor_role AS "actorRole", actor_name AS "actorName", patient_id AS "patientId", channel FROM audit_events WHERE action = 'measures.load'`)).toEqual([
      { actorId: null, actorRole: 'cli', actorName: operatingSystemUser(), patientId: null, channel: 'cli' },
    ]);
    const unmatched = await query(`SELECT p.key FROM measure_packages p WHERE NOT EXISTS (
      SELECT 1 FROM audit_events a WHERE a.correlation_id = p.load_correlation_id::text AND a.action = 'measures.load' AND a.outcome = 'success')`);
    expect(unmatched).toEqual([]);
    expect(await query(`SELECT DISTINCT loaded_by AS "loadedBy" FROM measure_packages`)).toEqual([{ loadedBy: operatingSystemUser() }]);
  });

  it('picks the edition for a period from what is loaded, and lists every loaded measure in the catalogue', async () => {
    const sut = new MeasureCatalogueService(new MeasurePackagesRepository(database().dataSource), {} as AuditedAccess);
    expect(await sut.measureForPeriod('CMS122', { start: '2025-01-01', end: '2025-12-31' })).toEqual({ chosen: expect.objectContaining({ version: '0.1.002', edition: '2024-qicore4' }) });
    expect(await sut.measureForPeriod('CMS122', { start: '2026-01-01', end: '2026-12-31' })).toEqual({ chosen: expect.objectContaining({ version: '1.0.000', edition: '2025-qicore6' }) });
    expect(await sut.measureForPeriod('CMS122', { start: '2026-01-01', end: '2026-12-31' }, '0.1.002')).toEqual({ chosen: expect.objectContaining({ edition: '2024-qicore4' }) });
    expect(await sut.measureForPeriod('CMS1264', { start: '2027-01-01', end: '2027-12-31' })).toMatchObject({ refused: 'unknown-measure' });
    const loaded = await sut.loaded();
    expect(loaded).toHaveLength(127);
    expect(loaded.filter((measure) => measure.key === 'CMS986')).toEqual([
      expect.objectContaining({ edition: '2025-qicore6', scoring: 'continuous-variable', basis: 'Encounter', evaluable: false, measurementPeriod: { start: '2026-01-01', end: '2026-12-31' } }),
    ]);
    expect(loaded.find((measure) => measure.key === 'CMS986')?.groups).toHaveLength(6);
    print(`measures-load timings (${timings.length} runs): ${timings.join('; ')}`);
  });
});
