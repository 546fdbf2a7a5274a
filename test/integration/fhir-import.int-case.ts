import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMANDS } from '../../src/cli/commands';
import { UnknownCareTeamError } from '../../src/fhir-import';
import { useSeededDatabase } from '../setup/database';
import { cohortSnapshot, countsOf, FHIR_FIXTURES, importFhir } from '../setup/fhir-import';

/** fixtures/fhir: a transaction Bundle, a collection Bundle and an NDJSON folder, each with malformed and duplicate input. */
const EXPECTED_COUNTS = {
  Patient: [4, 0, 0, 3],
  Encounter: [6, 0, 0, 3],
  Observation: [11, 0, 0, 4],
  Condition: [3, 0, 0, 0],
  MedicationRequest: [1, 0, 0, 1],
  MedicationDispense: [0, 0, 0, 0],
  Procedure: [1, 0, 0, 0],
  AllergyIntolerance: [1, 0, 0, 0],
  ServiceRequest: [0, 0, 0, 0],
  DeviceRequest: [0, 0, 0, 0],
  AdverseEvent: [0, 0, 0, 0],
  Immunization: [0, 0, 0, 0],
  Communication: [0, 0, 0, 0],
  MedicationAdministration: [0, 0, 0, 0],
  Task: [0, 0, 0, 0],
};
const ALREADY_PRESENT = Object.fromEntries(Object.entries(EXPECTED_COUNTS).map(([type, [loaded, , , skipped]]) => [type, [0, 0, loaded, skipped]]));

/** Rows the fixtures add: the BP panel is two observation rows, every other resource one. */
const EXPECTED_ROWS = { patients: 4, patient_care_teams: 4, encounters: 6, observations: 12, conditions: 3, medications: 1, procedures: 1, allergies: 1 };

const PATIENT_A = '6f1a0c2e-0001-4a00-8000-000000000001';

async function rowCounts(query: (sql: string) => Promise<{ count: number }[]>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of Object.keys(EXPECTED_ROWS)) counts[table] = (await query(`SELECT count(*)::int AS count FROM "${table}"`))[0].count;
  return counts;
}

describe('FHIR import (fixtures/fhir)', () => {
  const database = useSeededDatabase();
  const query = (sql: string, params: unknown[] = []) => database().dataSource.query(sql, params);
  let before: Record<string, number>;

  beforeAll(async () => {
    before = await rowCounts(query);
  });

  it('refuses an unknown care team, naming the known ones, and writes nothing', async () => {
    await expect(importFhir(database().dataSource, FHIR_FIXTURES, { careTeamCode: 'no-such-team' })).rejects.toEqual(
      expect.objectContaining({ knownCodes: ['primary-care-north', 'primary-care-south'] }),
    );
    await expect(importFhir(database().dataSource, FHIR_FIXTURES, { careTeamCode: 'no-such-team' })).rejects.toBeInstanceOf(UnknownCareTeamError);
    const lines: string[] = [];
    const code = await COMMANDS['import-fhir'].run(database().dataSource, [FHIR_FIXTURES, '--care-team', 'no-such-team'], (line) => lines.push(line));
    expect(code).toBe(2);
    expect(lines.join('\n')).toContain('Known care team codes: primary-care-north, primary-care-south');
    expect(await rowCounts(query)).toEqual(before);
    expect((await query(`SELECT count(*)::int AS count FROM care_teams`))[0].count).toBe(2);
  });

  it('loads bundles and NDJSON with exact counts, reporting every skip with its position', async () => {
    const summary = await importFhir(database().dataSource, FHIR_FIXTURES);
    expect(countsOf(summary)).toEqual(EXPECTED_COUNTS);
    const after = await rowCounts(query);
    expect(Object.fromEntries(Object.entries(after).map(([table, count]) => [table, count - before[table]]))).toEqual(EXPECTED_ROWS);

    const skips = Object.fromEntries([...summary.skips.entries()].map(([reason, { count, positions }]) => [reason, [count, positions]]));
    expect(skips).toMatchObject({
      'not valid JSON': [1, ['ndjson/Patient.ndjson:3']],
      'Patient: birthDate missing': [1, ['ndjson/Patient.ndjson:2']],
      'Patient: birthDate is impossible': [1, ['ndjson/Patient.ndjson:4']],
      'Patient: same id as an earlier resource in this import (the first one is kept)': [1, ['ndjson/Patient.ndjson:7']],
      'Encounter: period.end is before period.start': [1, ['ndjson/Encounter.ndjson:2']],
      'Encounter: subject patient was itself skipped': [1, ['ndjson/Encounter.ndjson:3']],
      'Encounter: subject reference does not resolve to a Patient in this import': [1, ['ndjson/Encounter.ndjson:4']],
      'Observation: component code has no code system URI': [1, ['ndjson/Observation.ndjson:1']],
      'Observation: effective[x] is impossible': [1, ['ndjson/Observation.ndjson:5']],
      'Observation: encounter belongs to another patient': [1, ['ndjson/Observation.ndjson:7']],
      'Observation: subject reference does not resolve to a Patient in this import': [1, ['ndjson/Observation.ndjson:4']],
      'MedicationRequest: medication reference does not resolve to a Medication in this import': [1, ['bundles/collection.json entry[11]']],
      'Bundle entry request DELETE not supported (only POST and PUT)': [1, ['bundles/transaction.json entry[11]']],
    });
    expect(Object.keys(skips)).toHaveLength(13);
    // A Claim is administrative: read and counted, not stored, never "unsupported".
    expect(Object.fromEntries(summary.accepted)).toEqual({ Claim: 2 });
    expect([...summary.warnings.keys()].sort()).toEqual([
      "Encounter: starts after the patient's death (kept)",
      "Observation: dated after the patient's death (kept)",
      'Observation: encounter reference does not resolve (loaded without the encounter link)',
      'Patient: MRN also held by another patient (imported; MRN is not an identity)',
    ]);
    // The MRN another patient (a fixture one) already has: imported, reported by position only.
    expect(summary.warnings.get('Patient: MRN also held by another patient (imported; MRN is not an identity)')?.positions).toEqual(['ndjson/Patient.ndjson:6']);
  });

  it('writes what the resources say: systems, panels, references in both forms, cleaned text, the care team', async () => {
    const [patient] = await query(`SELECT p.*, t.code AS team FROM patients p JOIN patient_care_teams l ON l.patient_id = p.id JOIN care_teams t ON t.id = l.care_team_id WHERE p.mrn = 'FHIRFIX-A'`);
    expect(patient).toMatchObject({ given_name: 'Ada Q', family_name: 'Fhirfixture', team: 'primary-care-north', phone: '555-0100' });
    expect((await query(`SELECT mrn FROM patients WHERE mrn LIKE 'fhir:%'`)).map((row: { mrn: string }) => row.mrn)).toEqual(['fhir:pat-b']);

    const bp = await query(`SELECT code, value_numeric::float8 AS value, panel_id FROM observations WHERE patient_id = $1 AND panel_id IS NOT NULL ORDER BY code`, [patient.id]);
    expect(bp.map((row: { code: string; value: number }) => [row.code, row.value])).toEqual([['8462-4', 88], ['8480-6', 142]]);
    expect(bp[0].panel_id).toBe(bp[1].panel_id);
    // obs-a-glucose (NDJSON) names patient A and its encounter by urn:uuid, across files.
    const [glucose] = await query(`SELECT o.encounter_id, e.type_code FROM observations o JOIN encounters e ON e.id = o.encounter_id WHERE o.patient_id = $1 AND o.code = '2339-0'`, [patient.id]);
    expect(glucose.type_code).toBe('185349003');
    // Any code system is kept now: the ICD-9-CM condition too.
    expect(await query(`SELECT code_system, code FROM conditions WHERE patient_id = $1 ORDER BY code`, [patient.id])).toEqual([
      { code_system: 'http://hl7.org/fhir/sid/icd-9-cm', code: '250.00' },
      { code_system: 'http://snomed.info/sct', code: '44054006' },
    ]);
    expect(await query(`SELECT code_system FROM procedures WHERE patient_id = $1`, [patient.id])).toEqual([{ code_system: 'http://www.ama-assn.org/go/cpt' }]);

    const b = await query(`SELECT code, category, display, unit, value_text FROM observations o JOIN patients p ON p.id = o.patient_id WHERE p.mrn = 'fhir:pat-b' ORDER BY code`);
    // Categories are kept as given, Synthea's misspelt `vital-sign` too (no tool reads vital signs by category).
    expect(b).toEqual([
      { code: '29463-7', category: 'vital-sign', display: 'Body Weight', unit: 'kg', value_text: null },
      { code: '32465-7', category: 'exam', display: 'Physical findings of Prostate', unit: null, value_text: 'Normal' },
      { code: '33914-3', category: 'laboratory', display: 'Glomerular filtration rate/1.73 sq M.predicted', unit: 'mL/min', value_text: null },
      { code: '71802-3', category: 'social-history', display: 'Housing status', unit: null, value_text: 'Stable housing' },
      { code: '72166-2', category: 'survey', display: 'Tobacco smoking status NHIS', unit: null, value_text: 'Former smoker' },
    ]);
    const encounters = await query(`SELECT class, status, disposition FROM encounters e JOIN patients p ON p.id = e.patient_id WHERE p.mrn = 'fhir:pat-b' ORDER BY start_at`);
    expect(encounters).toEqual([
      { class: 'emergency', status: 'finished', disposition: null },
      // FLD (a field visit, outside a bed) is ambulatory; it used to be a skip.
      { class: 'ambulatory', status: 'finished', disposition: null },
      { class: 'virtual', status: 'arrived', disposition: null },
      { class: 'inpatient', status: 'finished', disposition: 'home' },
    ]);
  });

  it('never half-loads a resource: nothing of the panel with a bad component, nor of skipped patients', async () => {
    expect(await query(`SELECT count(*)::int AS count FROM observations o JOIN patients p ON p.id = o.patient_id WHERE p.mrn = 'FHIRFIX-C' AND o.panel_id IS NOT NULL`)).toEqual([{ count: 0 }]);
    expect(await query(`SELECT count(*)::int AS count FROM patients WHERE mrn IN ('FHIRFIX-D', 'FHIRFIX-E')`)).toEqual([{ count: 0 }]);
    // Fay shares her MRN with a fixture patient: she is imported (a warning, not a refusal), and both keep it.
    expect(await query(`SELECT count(*)::int AS count FROM patients WHERE mrn = 'VGL-000101'`)).toEqual([{ count: 2 }]);
    expect(await query(`SELECT count(*)::int AS count FROM patients WHERE mrn IN ('FHIRFIX-A', 'FHIRFIX-C', 'fhir:pat-b')`)).toEqual([{ count: 3 }]);
  });

  it('changes nothing when the same data is imported again (counts, content, timestamps)', async () => {
    const snapshot = await cohortSnapshot(database().dataSource, true);
    const again = await importFhir(database().dataSource, FHIR_FIXTURES, { batchSize: 3 });
    expect(countsOf(again)).toEqual(ALREADY_PRESENT);
    expect(await cohortSnapshot(database().dataSource, true)).toEqual(snapshot);
  });

  it('prints a summary through the CLI command with positions and reasons, and no PHI', async () => {
    const lines: string[] = [];
    const code = await COMMANDS['import-fhir'].run(database().dataSource, [FHIR_FIXTURES, '--care-team', 'primary-care-north'], (line) => lines.push(line));
    const output = lines.join('\n');
    expect(code).toBe(0);
    expect(output).toMatch(/Patient\s+0\s+0\s+4\s+3/);
    expect(output).toContain('Accepted (not stored: administrative, no cohort table): 2 (2 Claim)');
    expect(output).toContain('ndjson/Patient.ndjson:3');
    for (const phi of ['Fhirfixture', 'Ada', 'FHIRFIX', 'VGL-000101', '999-00', '555-01', '1960-05-14', 'pat-b', PATIENT_A, 'Stable housing', 'Former smoker']) {
      expect(output).not.toContain(phi);
    }
  });
  it('updates a changed resource in place, touching only its rows', async () => {
    const bundle = JSON.parse(readFileSync(join(FHIR_FIXTURES, 'bundles', 'transaction.json'), 'utf8'));
    bundle.entry[0].resource.telecom[0].value = '555-0199';
    const dir = mkdtempSync(join(tmpdir(), 'vigil-fhir-'));
    writeFileSync(join(dir, 'changed.json'), JSON.stringify(bundle));
    const others = await query(`SELECT id, updated_at FROM patients WHERE mrn <> 'FHIRFIX-A' ORDER BY id`);
    const [{ updated_at: before }] = await query(`SELECT updated_at FROM patients WHERE mrn = 'FHIRFIX-A'`);
    const summary = await importFhir(database().dataSource, dir);
    expect(countsOf(summary).Patient).toEqual([0, 1, 0, 0]);
    expect(countsOf(summary).Observation).toEqual([0, 0, 3, 0]);
    const [after] = await query(`SELECT phone, updated_at FROM patients WHERE mrn = 'FHIRFIX-A'`);
    expect(after.phone).toBe('555-0199');
    expect(after.updated_at.getTime()).toBeGreaterThan(before.getTime());
    expect(await query(`SELECT id, updated_at FROM patients WHERE mrn <> 'FHIRFIX-A' ORDER BY id`)).toEqual(others);
  });

});

describe('FHIR import: an aborted import, resumed, ends equal to a clean one', () => {
  const clean = useSeededDatabase();
  const resumed = useSeededDatabase();

  it('stops after the batch in flight, and a re-run finishes the job', async () => {
    await importFhir(clean().dataSource, FHIR_FIXTURES);

    const abort = new AbortController();
    let batches = 0;
    const partial = await importFhir(resumed().dataSource, FHIR_FIXTURES, {
      batchSize: 2,
      signal: abort.signal,
      onProgress: () => {
        batches += 1;
        if (batches === 4) abort.abort();
      },
    });
    expect(partial.aborted).toBe(true);
    expect(partial.totals.loaded).toBeGreaterThan(0);
    expect(partial.totals.loaded).toBeLessThan(28);

    const finished = await importFhir(resumed().dataSource, FHIR_FIXTURES);
    expect(finished.aborted).toBe(false);
    expect(await cohortSnapshot(resumed().dataSource, false)).toEqual(await cohortSnapshot(clean().dataSource, false));
  });

  it('imports half the files, then all of them, to the same end', async () => {
    await resumed().dataSource.query(`DELETE FROM patients WHERE id IN (SELECT patient_id FROM patient_care_teams) AND mrn NOT LIKE 'VGL-%'`);
    const half = await importFhir(resumed().dataSource, join(FHIR_FIXTURES, 'bundles'));
    expect(half.types.get('Patient')?.loaded).toBe(2);
    const all = await importFhir(resumed().dataSource, FHIR_FIXTURES);
    // Fay (MRN VGL-…) survives the DELETE above, so she is already present.
    expect(all.types.get('Patient')).toEqual({ loaded: 1, updated: 0, unchanged: 3, skipped: 3 });
    expect(await cohortSnapshot(resumed().dataSource, false)).toEqual(await cohortSnapshot(clean().dataSource, false));
  });
});
