import { DataSource } from 'typeorm';
import { AccessGate, CohortRepository, PatientProbe } from '../../src/cohort/cohort.repository';
import { CHART_TABLES, COHORT_STATEMENTS } from '../../src/cohort/cohort.statements';
import { dataSourceOptions } from '../../src/data-source';
import { trailingYear } from '../../src/clinical/shared/clinical-dates';
import { careGapEncounterFilter } from '../../src/clinical/care-gaps/cql/encounter-retrieves';
import { careGapObservationFilter } from '../../src/clinical/care-gaps/cql/observation-retrieves';
import { missingDataObservationCodes } from '../../src/clinical/missing-data';
import { patientIdOf, patients } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { openGate } from '../setup/open-gate';
import { statementsRunBy } from '../setup/statement-capture';

const PERIOD = trailingYear('2026-06-30');
const CARE_GAP_FILTERS = { observations: careGapObservationFilter(PERIOD), encounters: careGapEncounterFilter(PERIOD) };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
/** Every table a tool's rows come from: the chart's, the notes, and the attestations' (approved proposals). */
const RECORD_TABLES = [...CHART_TABLES, 'clinical_notes', 'proposals'];

class Refused extends Error {}

/** A gate as `AccessService` makes one, recording the probes it is shown; `admits` decides. */
function recordingGate(patientId: string, careTeamIds: string[], breakGlass: boolean, admits: (probe: PatientProbe) => boolean) {
  const probes: PatientProbe[] = [];
  const gate: AccessGate = {
    patientId,
    careTeamIds,
    breakGlass,
    admit: (probe) => {
      probes.push(probe);
      if (!admits(probe)) throw new Refused();
    },
  };
  return { gate, probes };
}

const READS = {
  labs: (read: CohortRepository, gate: AccessGate) => read.laboratoryResults(gate, { from: null, to: null }, null, 200),
  encounters: (read: CohortRepository, gate: AccessGate) => read.encounters(gate, { from: null, to: null }, null, 100),
  chart: (read: CohortRepository, gate: AccessGate) => read.gatedChart(gate),
  chartWithAttestations: (read: CohortRepository, gate: AccessGate) => read.gatedChartWithAttestations(gate, PERIOD),
  careGapChart: (read: CohortRepository, gate: AccessGate) => read.gatedCareGapChart(gate, PERIOD, CARE_GAP_FILTERS),
  missingDataChart: (read: CohortRepository, gate: AccessGate) => read.gatedMissingDataChart(gate, missingDataObservationCodes()),
} as const;
const STATEMENTS = {
  labs: COHORT_STATEMENTS.gatedLaboratoryResults,
  encounters: COHORT_STATEMENTS.gatedEncounters,
  chart: COHORT_STATEMENTS.gatedChart,
  chartWithAttestations: COHORT_STATEMENTS.gatedChartWithAttestations,
  careGapChart: COHORT_STATEMENTS.gatedCareGapChart,
  missingDataChart: COHORT_STATEMENTS.gatedMissingDataChart,
};

/**
 * The tools' reads with the access probe folded into their one statement: the probe's answer goes
 * to the gate before any row is used, a caller off the patient's teams without break glass reads no
 * record (the record tables are not even scanned), and the rows are those of the statements they
 * replace, byte for byte.
 */
describe('the gated tool reads', () => {
  const database = useSeededDatabase();
  let dataSource: DataSource;
  let sut: CohortRepository;
  const teamsOf = async (patientId: string) =>
    (await dataSource.query<{ id: string }[]>('SELECT care_team_id::text AS id FROM patient_care_teams WHERE patient_id = $1', [patientId])).map((row) => row.id);
  const otherTeams = async (patientId: string) =>
    (await dataSource.query<{ id: string }[]>('SELECT id::text AS id FROM care_teams WHERE id NOT IN (SELECT care_team_id FROM patient_care_teams WHERE patient_id = $1)', [patientId])).map((row) => row.id);

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions({ url: database().url, poolSize: 1 })).initialize();
    sut = new CohortRepository(dataSource);
  });
  afterAll(() => dataSource.destroy());

  /**
   * Runs `read` in one transaction and counts the scans of the record tables it caused: the
   * backend's counts before and after, inside the transaction (they may hold earlier transactions'
   * counts not yet reported, but nothing is reported in the middle of one).
   */
  const scansOf = (read: (cohort: CohortRepository) => Promise<unknown>) =>
    sut.inOneRead(async (cohortRead) => {
      const count = async () => {
        const [{ scans }] = await cohortRead.readStatements((query) =>
          query<{ scans: number }>('SELECT coalesce(sum(seq_scan + coalesce(idx_scan, 0)), 0)::int AS scans FROM pg_stat_xact_user_tables WHERE relname = ANY($1)', [RECORD_TABLES]),
        );
        return scans;
      };
      const before = await count();
      const outcome = await read(cohortRead as unknown as CohortRepository).then(() => 'read', (error) => (error instanceof Refused ? 'refused' : Promise.reject(error)));
      return { outcome, scans: (await count()) - before };
    });

  it.each(Object.keys(READS) as (keyof typeof READS)[])('%s: one statement; off the teams without break glass, refused before any record table is scanned', async (name) => {
    const id = patientIdOf('complete-record');
    const refuseOffTeam = (probe: PatientProbe) => probe.exists && probe.onCareTeam;
    const cohortStatements = new Set(Object.values(COHORT_STATEMENTS).map((text) => text.trim()));
    const onTeam = recordingGate(id, await teamsOf(id), false, refuseOffTeam);
    const statements = await statementsRunBy(dataSource, async () => expect(await scansOf((read) => READS[name](read, onTeam.gate))).toEqual({ outcome: 'read', scans: expect.any(Number) }));
    expect(statements.filter((text) => cohortStatements.has(text))).toEqual([STATEMENTS[name].trim()]);
    expect(onTeam.probes).toEqual([{ exists: true, onCareTeam: true }]);

    const offTeam = recordingGate(id, await otherTeams(id), false, refuseOffTeam);
    expect(await scansOf((read) => READS[name](read, offTeam.gate))).toEqual({ outcome: 'refused', scans: 0 });
    expect(offTeam.probes).toEqual([{ exists: true, onCareTeam: false }]);

    const unknown = recordingGate(UNKNOWN, await otherTeams(id), false, refuseOffTeam);
    expect(await scansOf((read) => READS[name](read, unknown.gate))).toEqual({ outcome: 'refused', scans: 0 });
    expect(unknown.probes).toEqual([{ exists: false, onCareTeam: false }]);

    // Break glass allowed for the call: the statement reads the record off the caller's teams.
    const breakGlass = recordingGate(id, await otherTeams(id), true, (probe) => probe.exists);
    const read = await scansOf((cohort) => READS[name](cohort, breakGlass.gate));
    expect(read.outcome).toBe('read');
    expect(read.scans).toBeGreaterThan(0);
    expect(breakGlass.probes).toEqual([{ exists: true, onCareTeam: false }]);
  });

  it('gives every fixture patient\'s labs and encounters (with notes) as the statements by id give the same rows, and the charts as chart does', async () => {
    for (const patient of patients) {
      const id = patientIdOf(patient);
      const gate = openGate(id);
      const labs = await sut.laboratoryResults(gate, { from: null, to: null }, null, 5000);
      const encounters = await sut.encounters(gate, { from: null, to: null }, null, 5000);
      // The rows by id, through the driver (`observationsByIds`, `encountersByIds` and `notesOfEncounters`: each row's columns and order as before).
      const byIds = await sut.citedRows(id, { observations: labs.rows.map((row) => row.id), encounters: encounters.rows.map((row) => row.id), conditions: [] });
      // Serialised, so the order of every row and of every key counts, as in a tool's answer.
      expect(JSON.stringify(labs.rows)).toBe(JSON.stringify(byIds.observations));
      expect(JSON.stringify(encounters.rows)).toBe(JSON.stringify(byIds.encounters));
      expect(JSON.stringify(labs.patient)).toBe(JSON.stringify(await sut.patient(id)));
      expect(JSON.stringify(encounters.patient)).toBe(JSON.stringify(await sut.patient(id)));
      const chart = JSON.stringify(await sut.chart(id));
      expect(JSON.stringify(await sut.gatedChart(gate))).toBe(chart);
      const { attestations, ...withAttestations } = await sut.gatedChartWithAttestations(gate, PERIOD);
      expect(JSON.stringify(withAttestations)).toBe(chart);
      expect(attestations).toEqual(new Map());
    }
  });

  it('cuts the labs and encounters at the cap, newest first, and says so', async () => {
    // The fixture patient with the most encounters.
    const [{ id }] = await dataSource.query<{ id: string }[]>('SELECT patient_id::text AS id FROM encounters GROUP BY patient_id ORDER BY count(*) DESC, patient_id LIMIT 1');
    const all = await sut.encounters(openGate(id), { from: null, to: null }, null, 5000);
    const capped = await sut.encounters(openGate(id), { from: null, to: null }, null, 2);
    expect(all.rows.length).toBeGreaterThan(2);
    expect({ rows: JSON.stringify(capped.rows), truncated: capped.truncated }).toEqual({ rows: JSON.stringify(all.rows.slice(0, 2)), truncated: true });
    const labs = await sut.laboratoryResults(openGate(id), { from: null, to: null }, null, 5000);
    const cappedLabs = await sut.laboratoryResults(openGate(id), { from: null, to: null }, null, 1);
    expect(labs.rows.length).toBeGreaterThan(1);
    expect({ rows: JSON.stringify(cappedLabs.rows), truncated: cappedLabs.truncated }).toEqual({ rows: JSON.stringify(labs.rows.slice(0, 1)), truncated: true });
  });
});
