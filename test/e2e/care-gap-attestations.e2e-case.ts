import request from 'supertest';
import { ProposalKind } from '../../src/approvals/enum';
import { ProposalExecutor } from '../../src/approvals/proposal-executor';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { renderFact } from '../../src/agent/answer/final-answer';
import { AuditChannel } from '../../src/audit';
import { addDays, trailingYear } from '../../src/clinical/shared/clinical-dates';
import { StaffRole } from '../../src/common/roles';
import { MeasureRecomputeNotifier } from '../../src/measure-results/measure-recompute.notifier';
import { MeasureResultsRepository } from '../../src/measure-results/measure-results.repository';
import { CitationIndex } from '../../src/model-tools/citation-index';
import { ToolEnvelope } from '../../src/tools/envelope';
import { ToolReadService } from '../../src/tools/tool-read.service';
import { createTestApp, TestApp } from '../setup/app';
import { accessOf } from '../setup/callers';
import { patientIdOf, patients } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { storedResultsReady } from '../setup/stored-results';

type Row = Record<string, unknown> & { measureId: string; status: string; citation: string; evidence: string[]; attestations: Record<string, unknown>[] };
type Item = { patient: { handle: string }; results: Row[] };

const TEAM = 'primary-care-north';
const MEASURE = 'CMS122';
const PROPOSER = { username: 'dr.okafor', name: 'Adaeze Okafor, MD', role: StaffRole.Clinician };
const EVERY_FIELD = ['attestedAt', 'attestedBy', 'attestedByRole', 'evidence', 'periodEnd', 'periodStart', 'proposalId', 'remarkCode'];
// The model's projection (the agent, MCP): the role, never the name, and not the proposal.
const MODEL_FIELDS = EVERY_FIELD.filter((field) => field !== 'attestedBy' && field !== 'proposalId');
/** A north user of each role that reads care gaps. */
const PROJECTION_USER = { clinician: 'dr.okafor', care_coordinator: 'cc.mensah', reviewer: 'rev.santos' } as const;

/**
 * An approved `close_care_gap`, read back: an attestation beside the measured status in
 * `care_gap_lookup` (REST, the agent's and MCP's projection), the stored results and the worklist
 * (with its "attested, not yet measured closed" filter); never a change to the measured status,
 * which only evidence in the record changes, and kept as history once it does.
 */
describe('care-gap closures read back as attestations', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let period: { start: string; end: string };
  let patientId: string;
  let proposalId: string;
  /** The live row of the measure before the closure, as a clinician reads it. */
  let before: Row;
  const tokens = new Map<string, string>();

  const http = () => request(sut.app.getHttpServer());
  const get = (username: string, url: string) => http().get(url).set('authorization', `Bearer ${tokens.get(username)}`);
  const careGaps = async (username: string, query = `periodStart=${period.start}&periodEnd=${period.end}`) => {
    const res = await get(username, `/patients/${patientId}/care-gaps?${query}`);
    expect(res.status).toBe(200);
    return res.body as ToolEnvelope & { rows: Row[] };
  };
  const gapOf = (envelope: { rows: Row[] }) => envelope.rows.find((row) => row.measureId === MEASURE)!;
  const worklist = async (query: string): Promise<Item[]> => {
    const res = await get(PROPOSER.username, `/care-teams/${TEAM}/worklist?limit=100&${query}`);
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    return res.body.items;
  };
  /** The patient's stored results once the recompute has caught up with their data. */
  const currentStoredResults = async () => {
    const store = sut.app.get(MeasureResultsRepository);
    for (const deadline = Date.now() + 60_000; ; await new Promise((resolve) => setTimeout(resolve, 200))) {
      const rows = await store.patientResults(patientId, period);
      if (rows.length > 0 && rows.every((row) => !row.stale)) return rows;
      if (Date.now() > deadline) throw new Error('the stored results did not catch up');
    }
  };
  const agentRead = async (channel: AuditChannel) => {
    const access = await accessOf(database().dataSource, PROPOSER.username, { purpose: 'care_gap_lookup', projectionRole: 'agent', channel });
    return (await sut.app.get(ToolReadService).readTool(access, 'care_gap_lookup', patientId, { periodStart: period.start, periodEnd: period.end })) as ToolEnvelope & { rows: Row[] };
  };

  beforeAll(async () => {
    // This file executes the proposal itself, with the executor's "today" pinned to the store's period.
    sut = await createTestApp({ databaseUrl: database().url, queueSettings: { workersInApi: false } });
    for (const username of [PROPOSER.username, 'cc.mensah', 'rev.santos', 'an.whitfield', 'po.achebe']) tokens.set(username, await sut.tokenFor(username));
    period = await storedResultsReady(sut.app);
    sut.app.get(ProposalExecutor).clock = () => new Date(`${period.end}T12:00:00Z`);
    // A patient of the team whose CMS122 gap is open in the stored period (the fixtures' diabetic without a recent HbA1c first).
    const candidates = ['diabetes-a1c-stale', ...patients.filter((patient) => patient.careTeams.includes(TEAM)).map((patient) => patient.key)];
    for (const key of candidates) {
      patientId = patientIdOf(key);
      before = gapOf(await careGaps(PROPOSER.username));
      if (before?.status === 'open-gap') break;
    }
    expect(before).toMatchObject({ status: 'open-gap', attestations: [] });
    expect(await worklist('attestation=attested')).toEqual([]);

    const proposals = sut.app.get(ProposalsService);
    const citations = [before.citation, ...before.evidence.slice(0, 2)];
    const filed = await proposals.create(await accessOf(database().dataSource, PROPOSER.username), patientId, {
      kind: ProposalKind.CloseCareGap, content: { measureId: MEASURE, remarkCode: 'performed-elsewhere' }, rationale: 'HbA1c drawn at an outside lab; the report is in the chart.', citations,
    });
    proposalId = filed.id;
    expect((await proposals.approve(await accessOf(database().dataSource, 'rev.santos'), proposalId, { version: 1 })).status).toBe('approved');
    expect(await sut.app.get(ProposalExecutor).execute(proposalId)).toBe('applied');
  }, 180_000);
  afterAll(() => sut.close());

  const expectedAttestation = () => ({
    proposalId,
    attestedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
    attestedBy: PROPOSER.name,
    attestedByRole: PROPOSER.role,
    // Recorded for the period the executor found the gap open in: the trailing year ending on its day.
    periodStart: trailingYear(period.end).start,
    periodEnd: period.end,
    remarkCode: 'performed-elsewhere',
    evidence: [before.citation, ...before.evidence.slice(0, 2)].sort(),
  });

  describe('while the record still shows the gap open', () => {
    it('care_gap_lookup shows the attestation beside the measured status, which is unchanged', async () => {
      const after = gapOf(await careGaps(PROPOSER.username));
      expect(after.attestations).toEqual([expectedAttestation()]);
      const { attestations: _after, ...measured } = after;
      const { attestations: _before, ...measuredBefore } = before;
      expect(measured).toEqual(measuredBefore);
      // Only the measure the closure was filed for.
      expect((await careGaps(PROPOSER.username)).rows.filter((row) => row.measureId !== MEASURE).every((row) => (row.attestations as unknown[]).length === 0)).toBe(true);
    });

    it('stores nothing of it: the recompute keeps the measured status, and the stored results show it beside the status as the live tool does', async () => {
      const stored = (await currentStoredResults()).find((row) => row.measureId === MEASURE)!;
      expect(stored).toMatchObject({ status: 'open-gap', reasonCode: before.reasonCode, attestations: [expectedAttestation()] });
      const [{ n }] = await database().dataSource.query(`SELECT count(*)::int AS n FROM measure_results WHERE patient_id = $1 AND status <> 'open-gap' AND measure_id = $2`, [patientId, MEASURE]);
      expect(n).toBe(0);
    });

    it('the worklist shows it on the result, and "attested, not yet measured closed" finds exactly it', async () => {
      const attested = { patient: expect.objectContaining({ handle: patientId }), results: [expect.objectContaining({ measureId: MEASURE, status: 'open-gap', attestations: [expectedAttestation()] })] };
      expect(await worklist('attestation=attested-open')).toEqual([attested]);
      expect(await worklist('attestation=attested')).toEqual([attested]);
      // Every order and the one-measure walk find it too; a filter that contradicts it finds nothing.
      for (const query of ['sort=age', 'sort=lastResult', 'sort=lastResult&measure=CMS122', 'sort=name&measure=CMS122', 'order=desc']) {
        expect({ query, items: await worklist(`attestation=attested-open&${query}`) }).toEqual({ query, items: [attested] });
      }
      expect(await worklist('attestation=attested-open&status=closed-gap')).toEqual([]);
      expect(await worklist('attestation=attested-open&measure=CMS165')).toEqual([]);
      // Unfiltered, the patient's result carries it beside the status; the other results carry none.
      const item = (await worklist('')).find((candidate) => candidate.patient.handle === patientId)!;
      expect(item.results.map((result) => [result.measureId, result.attestations.length])).toEqual(item.results.map((result) => [result.measureId, result.measureId === MEASURE ? 1 : 0]));
    });

    it('the agent states it as an attestation, never as a closed gap', async () => {
      const index = new CitationIndex();
      const envelope = await agentRead(AuditChannel.Agent);
      index.add('care_gap_lookup', envelope.rows);
      const fact = renderFact({ kind: 'care_gap', citations: [gapOf(envelope).citation] }, index) as { text: string };
      expect(fact.text).toMatch(/: open gap\..* Attested on \d{4}-\d{2}-\d{2} by a clinician \(remark performed-elsewhere\): an attestation only, not a measured result/);
      expect(fact.text).not.toMatch(/gap closed|Adaeze|Okafor/);
    });
  });

  describe('every role × surface × attestation field', () => {
    it.each([
      [StaffRole.Clinician, PROJECTION_USER.clinician],
      [StaffRole.CareCoordinator, PROJECTION_USER.care_coordinator],
      [StaffRole.Reviewer, PROJECTION_USER.reviewer],
    ])('care_gap_lookup over REST as a %s: every field, the name among them', async (_role, username) => {
      const envelope = await careGaps(username);
      expect(Object.keys(gapOf(envelope).attestations[0]).sort()).toEqual(EVERY_FIELD);
      expect(envelope.redactedFields.filter((field) => field.startsWith('attestations'))).toEqual([]);
    });

    it.each([['the agent', AuditChannel.Agent], ['MCP', AuditChannel.Mcp]])('care_gap_lookup as %s reads it (the model\'s projection): no name, no proposal', async (_surface, channel) => {
      const envelope = await agentRead(channel);
      expect(Object.keys(gapOf(envelope).attestations[0]).sort()).toEqual(MODEL_FIELDS);
      expect(envelope.redactedFields).toEqual(expect.arrayContaining(['attestations.attestedBy', 'attestations.proposalId']));
      expect(JSON.stringify(envelope)).not.toContain(PROPOSER.name);
    });

    it.each([['an analyst', 'an.whitfield'], ['a privacy officer', 'po.achebe']])('care_gap_lookup as %s: 403, nothing of it', async (_role, username) => {
      const res = await get(username, `/patients/${patientId}/care-gaps`);
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).not.toMatch(/attest|Okafor/);
    });

    it.each([
      [StaffRole.Clinician, PROJECTION_USER.clinician],
      [StaffRole.CareCoordinator, PROJECTION_USER.care_coordinator],
    ])('the worklist as a %s: every field', async (_role, username) => {
      const res = await get(username, `/care-teams/${TEAM}/worklist?attestation=attested-open`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.items[0].results[0].attestations[0]).sort()).toEqual(EVERY_FIELD);
    });

    it.each([['a reviewer', 'rev.santos'], ['an analyst', 'an.whitfield']])('the worklist as %s: 403', async (_role, username) => {
      expect((await get(username, `/care-teams/${TEAM}/worklist?attestation=attested-open`)).status).toBe(403);
    });
  });

  it('refuses an attestation filter it does not know: a 400 problem naming it', async () => {
    for (const value of ['closed', 'attested-closed', 'ATTESTED', '']) {
      const res = await get(PROPOSER.username, `/care-teams/${TEAM}/worklist?attestation=${value}`);
      expect({ value, status: res.status, fields: res.body.errors?.map((error: { field: string }) => error.field) }).toEqual({ value, status: 400, fields: ['attestation'] });
    }
  });

  it('does not carry over into a period that starts after it was made, nor into one that ended before', async () => {
    const next = { start: addDays(period.end, 1), end: addDays(period.end, 365) };
    const earlier = { start: addDays(period.start, -365), end: addDays(period.start, -1) };
    for (const other of [next, earlier]) {
      const row = gapOf(await careGaps(PROPOSER.username, `periodStart=${other.start}&periodEnd=${other.end}`));
      expect({ other, attestations: row.attestations }).toEqual({ other, attestations: [] });
    }
    // A period that contains the day it was made shows it, whatever its bounds (a calendar year here).
    const year = period.end.slice(0, 4);
    expect(gapOf(await careGaps(PROPOSER.username, `periodStart=${year}-01-01&periodEnd=${year}-12-31`)).attestations).toEqual([expectedAttestation()]);
  });

  // Last: it adds evidence to the record.
  describe('once evidence in the record closes the gap', () => {
    beforeAll(async () => {
      // A well-controlled HbA1c, drawn a week before the end of the period.
      await database().dataSource.query(
        `INSERT INTO observations (patient_id, category, status, code, display, value_numeric, unit, effective_at)
         VALUES ($1, 'laboratory', 'final', '4548-4', 'Hemoglobin A1c', 6.8, '%', $2::timestamptz)`,
        [patientId, `${addDays(period.end, -7)}T09:00:00Z`],
      );
      await sut.app.get(MeasureRecomputeNotifier).patientsChanged([patientId], 'import');
      await currentStoredResults();
    }, 90_000);

    it('the measured status is closed, and the attestation is kept beside it as history', async () => {
      const live = gapOf(await careGaps(PROPOSER.username));
      expect(live).toMatchObject({ status: 'closed-gap', attestations: [expectedAttestation()] });
      const stored = (await currentStoredResults()).find((row) => row.measureId === MEASURE)!;
      expect(stored).toMatchObject({ status: 'closed-gap', attestations: [expectedAttestation()] });
    });

    it('leaves "attested, not yet measured closed", and stays among the attested', async () => {
      expect(await worklist('attestation=attested-open')).toEqual([]);
      expect(await worklist('attestation=attested')).toEqual([
        { patient: expect.objectContaining({ handle: patientId }), results: [expect.objectContaining({ measureId: MEASURE, status: 'closed-gap', attestations: [expectedAttestation()] })] },
      ]);
    });

    it('the agent states the measured closure, and the attestation as history', async () => {
      const index = new CitationIndex();
      const envelope = await agentRead(AuditChannel.Agent);
      index.add('care_gap_lookup', envelope.rows);
      const fact = renderFact({ kind: 'care_gap', citations: [gapOf(envelope).citation] }, index) as { text: string };
      expect(fact.text).toMatch(/: gap closed\..* Attested on \d{4}-\d{2}-\d{2} by a clinician \(remark performed-elsewhere\): kept as history beside the measured status\.$/);
    });
  });
});
