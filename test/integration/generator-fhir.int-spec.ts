import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { COMMANDS } from '../../src/cli/commands';
import { exportCohortFhir } from '../../src/generator/fhir/fhir-export';
import { generateCohort, GeneratorRefusal, resolveCareTeams } from '../../src/generator/generate-cohort';
import { createTestApp, TestApp } from '../setup/app';
import { useSeededDatabase } from '../setup/database';
import { countsOf, importFhir } from '../setup/fhir-import';
import { TEST_ANCHOR_DATE } from '../setup/test-database';

/**
 * The generator's FHIR output (`db:generate -- --fhir FOLDER`) read back by the real importer gives
 * the same clinical facts as the COPY load of the same cohort: every row of every table the
 * importer writes, compared by content (ids differ: the importer derives its own from the source
 * ids), and the same care-gap answers. Nothing is skipped and nothing is warned about.
 */
jest.setTimeout(120_000);

const COHORT = { patients: 150, seed: 7, anchor: TEST_ANCHOR_DATE };
const TEAM = 'primary-care-north';

/**
 * Each table's rows by content, keyed to the patient's MRN and (for records made in a visit) to the
 * visit's start, so the comparison needs no ids. Two differences are by design and spelled here:
 * lab panels are exported one result per Observation (the panel grouping is kept for blood
 * pressure only, as one Observation with components), and clinical notes have no FHIR form.
 */
const generated = `SELECT id, mrn FROM patients WHERE mrn LIKE 'SYN-%'`;
const FACTS: Record<string, string> = {
  patients: `SELECT mrn, given_name, family_name, birth_date, sex, phone, email, address_line, city, state, postal_code, deceased_at FROM patients WHERE mrn LIKE 'SYN-%'`,
  patient_care_teams: `SELECT p.mrn, t.code FROM patient_care_teams x JOIN (${generated}) p ON p.id = x.patient_id JOIN care_teams t ON t.id = x.care_team_id`,
  encounters: `SELECT p.mrn, class, status, type_system, type_code, type_display, reason_system, reason_code, reason_display, start_at, end_at, disposition,
      discharge_disposition_system, discharge_disposition_code FROM encounters x JOIN (${generated}) p ON p.id = x.patient_id`,
  observations: `SELECT p.mrn, e.start_at AS visit, (x.panel_id IS NOT NULL AND x.category = 'vital-signs') AS blood_pressure_panel, x.category, x.status,
      code_system, code, display, value_numeric, value_text, unit, reference_low, reference_high, reference_text, interpretation, effective_at,
      effective_end_at, value_system, value_code, data_absent_reason
      FROM observations x JOIN (${generated}) p ON p.id = x.patient_id LEFT JOIN encounters e ON e.id = x.encounter_id`,
  conditions: `SELECT p.mrn, code_system, code, display, clinical_status, onset_date, abatement_date, recorded_at, verification_status, category,
      body_site_system, body_site_code FROM conditions x JOIN (${generated}) p ON p.id = x.patient_id`,
  medications: `SELECT p.mrn, code_system, code, display, status, start_date, end_date, dosage_text, intent, do_not_perform, authored_at, reason_system,
      reason_code, supply FROM medications x JOIN (${generated}) p ON p.id = x.patient_id`,
  procedures: `SELECT p.mrn, e.start_at AS visit, code_system, code, display, x.status, performed_at, performed_end_at, status_reason_system,
      status_reason_code, body_site_system, body_site_code
      FROM procedures x JOIN (${generated}) p ON p.id = x.patient_id LEFT JOIN encounters e ON e.id = x.encounter_id`,
  allergies: `SELECT p.mrn, code_system, code, display, clinical_status, recorded_at, onset_at, onset_end_at FROM allergies x JOIN (${generated}) p ON p.id = x.patient_id`,
};

async function facts(dataSource: DataSource): Promise<Record<string, { rows: number; md5: string }>> {
  const result: Record<string, { rows: number; md5: string }> = {};
  for (const [table, sql] of Object.entries(FACTS)) {
    const [row] = await dataSource.query(`SELECT count(*)::int AS rows, md5(coalesce(string_agg(f::text, E'\\n' ORDER BY f::text), '')) AS md5 FROM (${sql}) f`);
    result[table] = row;
  }
  return result;
}

describe('generator FHIR NDJSON output, read back by the importer', () => {
  const direct = useSeededDatabase();
  const imported = useSeededDatabase();
  let folder: string;
  let exported: ReturnType<typeof exportCohortFhir>;
  let summary: Awaited<ReturnType<typeof importFhir>>;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'vigil-generator-fhir-'));
    await generateCohort(direct().dataSource, { ...COHORT, careTeams: [TEAM] });
    const { careTeamIds } = await resolveCareTeams((sql) => imported().dataSource.query(sql), [TEAM]);
    exported = exportCohortFhir({ ...COHORT, careTeamIds, folder: join(folder, 'ndjson') });
    summary = await importFhir(imported().dataSource, join(folder, 'ndjson'), { careTeamCode: TEAM });
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('imports every exported resource: nothing skipped, nothing warned, nothing unsupported', () => {
    const loaded = Object.fromEntries(Object.entries(exported.resources).map(([type, count]) => [type, [count, 0, 0, 0]]));
    expect(countsOf(summary)).toMatchObject(loaded);
    expect(summary.skips.size).toBe(0);
    expect([...summary.warnings.keys()]).toEqual([]);
    expect(summary.accepted.size).toBe(0);
    expect(exported.resources.Patient).toBe(COHORT.patients);
  });

  it('gives the same clinical facts as the COPY load, table by table', async () => {
    const [want, got] = [await facts(direct().dataSource), await facts(imported().dataSource)];
    expect(want.observations.rows).toBeGreaterThan(COHORT.patients * 20);
    expect(got).toEqual(want);
  });

  it('is deterministic: the same options write byte-identical files', async () => {
    const { careTeamIds } = await resolveCareTeams((sql) => imported().dataSource.query(sql), [TEAM]);
    const again = exportCohortFhir({ ...COHORT, careTeamIds, folder: join(folder, 'again') });
    const md5 = (path: string) => createHash('md5').update(readFileSync(path)).digest('hex');
    expect(again.files.map((file) => md5(join(folder, 'again', file)))).toEqual(exported.files.map((file) => md5(join(folder, 'ndjson', file))));
  });

  it('refuses a folder that is not empty, and writes nothing', () => {
    expect(() => exportCohortFhir({ ...COHORT, careTeamIds: ['x'], folder: join(folder, 'ndjson') })).toThrow(GeneratorRefusal);
  });

  it('care_gap_lookup answers the same on both: status, reason code and every population of every group of every measure, every patient', async () => {
    const answers: unknown[][] = [];
    // One app at a time: Nest's logger is process-wide (the last app's), so two open together would share log lines.
    for (const database of [direct, imported]) {
      const sut: TestApp = await createTestApp({ databaseUrl: database().url });
      try {
        const token = await sut.tokenFor('dr.okafor');
        const patients: { id: string }[] = await database().dataSource.query(`SELECT id FROM patients WHERE mrn LIKE 'SYN-%' ORDER BY mrn`);
        const rows: unknown[] = [];
        for (const { id } of patients) {
          const response = await request(sut.app.getHttpServer()).get(`/patients/${id}/care-gaps?periodStart=2025-01-01&periodEnd=2025-12-31`).set('authorization', `Bearer ${token}`);
          expect(response.status).toBe(200);
          rows.push(
            response.body.rows.map((row: { measureId: string; status: string; reason: { code: string }; groups: { populations: unknown; reason: { code: string } }[] }) => ({
              measure: row.measureId,
              status: row.status,
              reason: row.reason.code,
              groups: row.groups.map((group) => ({ populations: group.populations, reason: group.reason.code })),
            })),
          );
        }
        answers.push(rows);
      } finally {
        await sut.close();
      }
    }
    expect(answers[1]).toEqual(answers[0]);
    // Not a vacuous comparison: the sample has open and closed gaps.
    const statuses = new Set(answers[0].flatMap((rows) => (rows as { status: string }[]).map((row) => row.status)));
    expect([...statuses]).toEqual(expect.arrayContaining(['closed-gap', 'open-gap']));
  });

  it('the command: --fhir writes the files, reads the care teams only, and refuses --replace with it', async () => {
    const lines: string[] = [];
    const out = join(folder, 'cli');
    const code = await COMMANDS.generate.run(imported().dataSource, ['--patients', '3', '--seed', '1', '--anchor', TEST_ANCHOR_DATE, '--fhir', out], (line) => lines.push(line));
    expect(code).toBe(0);
    expect(lines.join('\n')).toMatch(/Exported 3 patients as FHIR R4 NDJSON/);
    expect(readFileSync(join(out, 'Patient.ndjson'), 'utf8').trim().split('\n')).toHaveLength(3);
    expect(await COMMANDS.generate.run(imported().dataSource, ['--patients', '3', '--seed', '1', '--fhir', out, '--replace'], () => undefined)).toBe(2);
  });
});
