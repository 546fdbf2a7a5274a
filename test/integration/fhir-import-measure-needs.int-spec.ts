import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMANDS } from '../../src/cli/commands';
import { corpusAvailable, corpusMissingMessage, ECQM_MEASURES_DIR } from '../elm/ecqm-measures';
import { useSeededDatabase } from '../setup/database';

/**
 * The import summary's section on the loaded measures' data requirements, through the real command:
 * CMS139 of the 2025 edition loaded as data, then two of its official test cases imported (a visit
 * with a Coverage, and a visit with a fall-risk screening). The summary names what the measure
 * needed and the data met (an encounter, the screening), what it needed and the data lacked (a
 * hospice encounter), and what Vigil does not store (the Coverage it carried).
 */
jest.setTimeout(300_000);

const EDITION_2025 = join(ECQM_MEASURES_DIR, '2025-qicore6');
const CASES = join(EDITION_2025, 'test-cases', 'CMS139');
/** SDEPass SDECoverage (Coverage, Encounter, Patient) and NumPass FutureFallRiskScreened (Encounter, Observation, Patient). */
const BUNDLES = ['8bc317cf-', '67723351-'];

const available = corpusAvailable();
(available ? describe : describe.skip)(
  available ? 'the import summary against a loaded measure’s data requirements (real Postgres)' : `the import summary against a loaded measure’s data requirements [skipped: ${corpusMissingMessage}]`,
  () => {
    const database = useSeededDatabase();
    let folder: string;
    let lines: string[];

    beforeAll(async () => {
      const { dataSource } = database();
      expect(await COMMANDS['measures-load'].run(dataSource, [EDITION_2025, '--measure', 'CMS139'], () => undefined)).toBe(0);
      folder = mkdtempSync(join(tmpdir(), 'vigil-needs-'));
      for (const file of readdirSync(CASES).filter((name) => name.endsWith('.bundle.json') && BUNDLES.some((prefix) => name.startsWith(prefix)))) copyFileSync(join(CASES, file), join(folder, file));
      lines = [];
      const code = await COMMANDS['import-fhir'].run(dataSource, [folder, '--care-team', 'primary-care-north', '--patient-bundles', '--all-needs'], (line) => lines.push(line));
      expect(code).toBe(0);
    });
    afterAll(() => rmSync(folder, { recursive: true, force: true }));

    const section = () => lines.slice(lines.findIndex((line) => line.startsWith('Data the loaded measures read')));
    const row = (type: string) => section().find((line) => line.startsWith(`  ${type} `))?.trim().split(/\s{2,}/);

    it('says which editions it read: the loaded measure, in its 2025 edition', () => {
      expect(section()[0]).toMatch(/^Data the loaded measures read \(their ELM retrieves\) against this import: 1 loaded measure, .*2025-qicore6/);
    });

    it('names needs the data met: per type, how many needs were met and how many resources met one', () => {
      const [, needs, met, resources, measures] = row('Encounter') ?? [];
      expect(Number(met)).toBeGreaterThanOrEqual(1);
      expect(Number(met)).toBeLessThan(Number(needs));
      expect([resources, measures]).toEqual(['2', '1']);
      expect(row('Patient')).toEqual(['Patient', '1', '1', '2', '1']);
      const [, , obsMet, obsResources] = row('Observation') ?? [];
      expect([obsMet, obsResources]).toEqual(['1', '1']);
    });

    it('names needs the data lacked, within the types it holds, and says what Vigil does not store', () => {
      const unmet = section().slice(section().findIndex((line) => line.startsWith('Needed, none in this import')));
      expect(unmet).toContain('  Encounter "Hospice Encounter" [qicore-encounter] → 1 measure: CMS139');
      expect(row('Coverage')).toEqual(['Coverage', '1', '1', '1', '1', 'not stored by Vigil']);
      expect(section()).toContain('  Coverage (1 in this import meet a need) → 1 measure: CMS139');
    });

    it('holds no patient data: no name, birth date or id of the imported patients', () => {
      for (const name of readdirSync(folder)) {
        const bundle = JSON.parse(readFileSync(join(folder, name), 'utf8')) as { entry: { resource: { resourceType: string; id: string; birthDate?: string; name?: { family?: string }[] } }[] };
        const patient = bundle.entry.map((entry) => entry.resource).find((resource) => resource.resourceType === 'Patient');
        for (const value of [patient?.id, patient?.birthDate, patient?.name?.[0]?.family]) if (value) expect(section().join('\n')).not.toContain(value);
      }
    });
  },
);
