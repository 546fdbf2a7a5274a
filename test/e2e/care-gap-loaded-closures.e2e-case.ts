import type { MeasureReport } from '@medplum/fhirtypes';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { ProposalExecutor } from '../../src/approvals/proposal-executor';
import { COMMANDS } from '../../src/cli/commands';
import { MeasureResultsRepository } from '../../src/measure-results/measure-results.repository';
import { MeasureSweep } from '../../src/measure-results/measure-sweep';
import { addDays, trailingYear } from '../../src/clinical/shared/clinical-dates';
import { corpusAvailable, corpusMissingMessage, ECQM_MEASURES_DIR } from '../elm/ecqm-measures';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, patients } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { deliveriesOf, deliveryEnv, DeliveryDestinations, eventsFor, launchDestinations, onServer, waitDelivered } from '../setup/delivery-harness';
import { baseUrlOf } from '../setup/event-stream';
import { FakeModel, finalAnswer, toolResultsIn } from '../setup/fake-model';
import { connectMcp } from '../setup/mcp-client';
import { describeWithRedis } from '../setup/redis';
import { storedResultsReady } from '../setup/stored-results';
import { waitFor } from '../setup/redis-server';
import { TEST_ANCHOR_DATE } from '../setup/test-database';

type Row = Record<string, unknown>;
type GapRow = Row & { measureId: string; status: string; citation: string; evidence: string[]; version: string; attestations: Row[] };

const KEY = 'CMS139';
const TEAM = 'primary-care-north';
const AUTHOR = 'dr.okafor';
const REVIEWERS = ['rev.santos', 'rev.nakamura'];
/** The trailing year the executor checks and records a closure for: its clock is pinned to the fixtures’ anchor. */
const PERIOD = trailingYear(TEST_ANCHOR_DATE);
const ANCHOR_CLOCK = () => new Date(`${TEST_ANCHOR_DATE}T12:00:00Z`);
const measureOf = (edition: string) => JSON.parse(readFileSync(join(ECQM_MEASURES_DIR, edition, 'measures', `${KEY}.Measure.json`), 'utf8')) as { url: string; version: string };

/**
 * `close_care_gap` for a measure loaded as data (CMS139 of two editions; the anchor’s trailing year
 * picks 2025’s): drafted by the agent’s `propose_action`, submitted, approved by a reviewer of the
 * team, executed once and delivered as a DEQM data-collection MeasureReport naming the edition’s
 * canonical; then read back as an attestation by care_gap_lookup over REST and MCP, and the agent’s
 * care_gap fact of it, the stored results and the worklist. Refused by name: a key not loaded, a gap
 * that is not open today, a day whose trailing year no loaded edition is in force at; over REST, the
 * agent and MCP alike. DEQM `$care-gaps` names the measure by its short name as by its key. A closure
 * delivered after a newer edition of the same year is loaded names, on both destinations, the edition
 * it was executed under, which is stored with it.
 */
const available = corpusAvailable();
(available ? describeWithRedis : describe.skip)(
  available ? 'close_care_gap for a measure loaded as data' : `close_care_gap for a loaded measure [skipped: ${corpusMissingMessage}]`,
  () => {
    const database = useSeededDatabase();
    const model = new FakeModel();
    let destinations: DeliveryDestinations;
    let sut: TestApp;
    /** A team patient whose CMS139 gap is open in the anchor’s trailing year, and one to whom it does not apply. */
    let open: string;
    let notOpen: string;
    /** Another team patient whose gap is open: the closure delivered after a newer edition is loaded. */
    let secondOpen: string;
    const http = () => request(sut.app.getHttpServer());
    const as = async (username: string) => ({ authorization: `Bearer ${await sut.tokenFor(username)}` });
    const gapOf = async (patientId: string): Promise<GapRow> => {
      const res = await http().get(`/patients/${patientId}/care-gaps?measure=${KEY}&asOf=${TEST_ANCHOR_DATE}`).set(await as(AUTHOR));
      expect(res.status).toBe(200);
      return res.body.rows[0] as GapRow;
    };
    const file = async (patientId: string, measureId: string, citations: string[]) =>
      http().post(`/patients/${patientId}/proposals`).set(await as(AUTHOR))
        .send({ kind: 'close_care_gap', content: { measureId, remarkCode: 'performed-elsewhere' }, rationale: 'Falls screening done at the outside geriatrics clinic.', citations });
    const mcpAs = async (patientId: string) => {
      const token = await sut.tokenFor(AUTHOR);
      return connectMcp(baseUrlOf(sut.app.getHttpServer()), patientId, () => token);
    };
    const proposalsOf = async (patientId: string) =>
      (await database().dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM proposals WHERE patient_id = $1 AND kind = 'close_care_gap'`, [patientId]))[0].n;

    beforeAll(async () => {
      const load = (edition: string) => COMMANDS['measures-load'].run(database().dataSource, [join(ECQM_MEASURES_DIR, edition), '--measure', KEY], () => undefined);
      expect(await load('2024-qicore4')).toBe(0);
      expect(await load('2025-qicore6')).toBe(0);
      await model.start();
      destinations = await launchDestinations(database().dataSource);
      sut = await createTestApp({
        databaseUrl: database().url,
        env: { ...deliveryEnv(destinations), AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted', AGENT_TIMEOUT_MS: '8000' },
      });
      await sut.app.listen(0, '127.0.0.1');
      sut.app.get(ProposalExecutor).clock = ANCHOR_CLOCK;
      // The store's period is the anchor's trailing year too: the one the closure is recorded for.
      sut.app.get(MeasureSweep).clock = ANCHOR_CLOCK;
      expect(await storedResultsReady(sut.app)).toEqual(PERIOD);
      const statuses = new Map<string, string>();
      for (const patient of patients.filter((candidate) => candidate.careTeams.includes(TEAM))) statuses.set(patient.key, (await gapOf(patientIdOf(patient))).status);
      const openKeys = [...statuses].filter(([, status]) => status === 'open-gap').map(([key]) => key);
      expect(openKeys.length).toBeGreaterThan(1);
      open = patientIdOf(openKeys[0]);
      secondOpen = patientIdOf(openKeys[openKeys.length - 1]);
      notOpen = patientIdOf([...statuses].find(([, status]) => status === 'not-applicable')![0]);
    }, 180_000);
    afterAll(async () => {
      await sut?.close();
      await model.stop();
      await destinations?.fhir.stop();
      await destinations?.receiver.close();
    });

    it('drafted by the agent, submitted, approved by a reviewer of the team, executed once and delivered naming the loaded edition’s canonical; read back as an attestation', async () => {
      const before = await gapOf(open);
      let gap: GapRow | undefined;
      model.script([
        { toolCalls: [{ name: 'care_gap_lookup', arguments: JSON.stringify({ measure: [KEY], asOf: TEST_ANCHOR_DATE }) }] },
        (req) => {
          gap = (toolResultsIn(req)[0].rows as GapRow[])[0];
          const proposal = { kind: 'close_care_gap', content: { measureId: KEY, remarkCode: 'performed-elsewhere' }, rationale: 'Screened at the outside clinic.', citations: [gap.citation] };
          return { toolCalls: [{ name: 'propose_action', arguments: JSON.stringify(proposal) }] };
        },
        () => finalAnswer('answered', [{ kind: 'care_gap', citations: [gap!.citation] }]),
      ]);
      const turn = await http().post(`/patients/${open}/agent/turns`).set(await as(AUTHOR)).send({ question: 'Close the falls screening gap: it was done elsewhere.' });
      expect(turn.status).toBe(200);
      expect(gap).toMatchObject({ measureId: KEY, status: 'open-gap', citation: `gap:${KEY}@${PERIOD.start}..${PERIOD.end}` });
      expect(turn.body.toolCalls.map((call: Row) => call.status)).toEqual(['ok', 'filed']);
      expect(turn.body.drafts).toEqual([{ id: turn.body.proposals[0], kind: 'close_care_gap', status: 'draft', expiresAt: expect.any(String) }]);
      // The agent’s fact of a loaded measure: its key and edition, the period, the status.
      expect(turn.body.statements).toEqual([expect.objectContaining({ kind: 'care_gap', citations: [gap!.citation], text: expect.stringMatching(new RegExp(`^${KEY} \\(${measureOf('2025-qicore6').version}\\).*: open gap`)) })]);

      const [proposalId] = turn.body.proposals as string[];
      expect((await http().post(`/proposals/${proposalId}/submit`).set(await as(AUTHOR)).send({})).body).toMatchObject({ id: proposalId, status: 'pending' });
      let approved: Row = {};
      for (const reviewer of REVIEWERS) {
        approved = (await http().post(`/proposals/${proposalId}/approve`).set(await as(reviewer)).send({ version: 1 })).body;
        if (approved.status !== 'pending') break;
      }
      expect(approved).toMatchObject({ id: proposalId });
      await waitFor(async () => (await database().dataSource.query(`SELECT status FROM proposals WHERE id = $1`, [proposalId]))[0]?.status === 'executed', 30_000, 'not executed');
      await waitDelivered(() => database().dataSource, [proposalId]);

      const [executed] = await database().dataSource.query(`SELECT outcome FROM proposals WHERE id = $1`, [proposalId]);
      expect(executed).toEqual({ outcome: 'applied' });
      const closures = await database().dataSource.query(`SELECT measure_id AS "measureId", period_start::text AS start, period_end::text AS "end" FROM care_gap_closures WHERE proposal_id = $1`, [proposalId]);
      expect(closures).toEqual([{ measureId: KEY, start: PERIOD.start, end: PERIOD.end }]);
      expect((await deliveriesOf(database().dataSource, proposalId)).map((row) => [row.destination, row.status, row.attempts])).toEqual([['fhir', 'delivered', 1], ['webhook', 'delivered', 1]]);
      const { resources, provenances } = await onServer(destinations.fhir, proposalId);
      const edition = measureOf('2025-qicore6');
      expect(measureOf('2024-qicore4').version).not.toBe(edition.version);
      expect(resources).toEqual([
        expect.objectContaining({ resourceType: 'MeasureReport', type: 'data-collection', status: 'complete', measure: `${edition.url}|${edition.version}`, period: { start: PERIOD.start, end: PERIOD.end } }),
      ]);
      expect((resources[0] as MeasureReport).evaluatedResource).toEqual([expect.objectContaining({ identifier: expect.objectContaining({ value: gap!.citation }) })]);
      expect(provenances).toHaveLength(1);

      // Read back beside the measured status, which is unchanged: REST, and MCP’s projection (the role, never the name).
      const after = await gapOf(open);
      expect(after.attestations).toEqual([expect.objectContaining({ proposalId, attestedByRole: 'clinician', periodStart: PERIOD.start, periodEnd: PERIOD.end, evidence: [gap!.citation] })]);
      const { attestations: _after, ...measured } = after;
      const { attestations: _before, ...measuredBefore } = before;
      expect(measured).toEqual(measuredBefore);
      // The stored results and the worklist show it beside the stored status, as for the six (attestations are read with them, never stored).
      const stored = (await sut.app.get(MeasureResultsRepository).patientResults(open, PERIOD)).find((row) => row.measureId === KEY);
      expect(stored).toMatchObject({ status: 'open-gap', attestations: [expect.objectContaining({ proposalId, evidence: [gap!.citation] })] });
      const worklist = await http().get(`/care-teams/${TEAM}/worklist?measure=${KEY}&attestation=attested-open&limit=100`).set(await as(AUTHOR));
      expect(worklist.status).toBe(200);
      expect(worklist.body.items).toEqual([{ patient: expect.objectContaining({ handle: open }), results: [expect.objectContaining({ measureId: KEY, status: 'open-gap', attestations: [expect.objectContaining({ proposalId })] })] }]);

      const mcp = await mcpAs(open);
      try {
        const read = (await mcp.client.callTool({ name: 'care_gap_lookup', arguments: { measure: [KEY], asOf: TEST_ANCHOR_DATE } })) as CallToolResult;
        expect(read.isError).toBeUndefined();
        const [row] = (read.structuredContent as { rows: GapRow[] }).rows;
        expect(row).toMatchObject({ measureId: KEY, status: 'open-gap', attestations: [expect.objectContaining({ attestedByRole: 'clinician', evidence: [gap!.citation] })] });
        expect(row.attestations[0]).not.toHaveProperty('attestedBy');
      } finally {
        await mcp.close();
      }
    });

    it('refuses by name, over REST, a key that is not loaded, a loaded gap that is not open today, and a day whose trailing year no loaded edition is in force at; nothing is filed', async () => {
      const gap = await gapOf(open);
      const filedBefore = await proposalsOf(open);
      // Today’s shape for a measureId that is no key at all, and the same shape for one that is not loaded.
      const malformed = await file(open, 'cms-139', [gap.citation]);
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'content.measureId', reason: 'matches' }] });
      const unknown = await file(open, 'CMS9998', [gap.citation]);
      expect(unknown.status).toBe(400);
      expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(unknown.body).toMatchObject({ code: 'validation_failed', detail: expect.stringContaining('No measure CMS9998 is built in or loaded'), errors: [{ field: 'content.measureId', reason: 'unknown_measure' }] });

      const notApplicable = await gapOf(notOpen);
      expect(notApplicable.status).toBe('not-applicable');
      const closed = await file(notOpen, KEY, [notApplicable.citation]);
      expect(closed.status).toBe(409);
      expect(closed.body).toMatchObject({ code: 'care_gap_not_open' });

      // A day in 2028: its trailing year ends where neither loaded edition (2025, 2026) is in force.
      const executor = sut.app.get(ProposalExecutor);
      executor.clock = () => new Date('2028-03-01T12:00:00Z');
      try {
        const noEdition = await file(open, KEY, [gap.citation]);
        expect(noEdition.status).toBe(400);
        expect(noEdition.body).toMatchObject({
          code: 'validation_failed',
          detail: expect.stringContaining(`No loaded edition of ${KEY} is in force on 2028-03-01`),
          errors: [{ field: 'content.measureId', reason: 'no_edition_for_period' }],
        });
      } finally {
        executor.clock = ANCHOR_CLOCK;
      }
      expect(await proposalsOf(open)).toBe(filedBefore);
      expect(await proposalsOf(notOpen)).toBe(0);
    });

    it('answers DEQM $care-gaps by a loaded measure’s identifier (short name, or system|value) as by its key: the MeasureReport names the edition the period picks', async () => {
      const edition2025 = measureOf('2025-qicore6');
      const edition2024 = measureOf('2024-qicore4');
      // The anchor's trailing year ends in 2026 (the 2025 edition's year); the one before it, in 2025 (the 2024 edition's).
      const period2026 = { periodStart: PERIOD.start, periodEnd: PERIOD.end };
      const period2025 = { periodStart: trailingYear(addDays(PERIOD.start, -1)).start, periodEnd: addDays(PERIOD.start, -1) };
      // A team patient the measure applies to in both years.
      let subject = '';
      for (const patient of patients.filter((candidate) => candidate.careTeams.includes(TEAM))) {
        const statuses = [];
        for (const period of [period2026, period2025]) {
          const res = await http().get(`/patients/${patientIdOf(patient)}/care-gaps`).query({ measure: KEY, ...period }).set(await as(AUTHOR));
          statuses.push(res.body.rows[0].status);
        }
        if (!statuses.includes('not-applicable')) subject = patientIdOf(patient);
        if (subject) break;
      }
      expect(subject).not.toBe('');
      const careGaps = async (named: Row, period = period2026) =>
        http().get('/fhir/Measure/$care-gaps').query({ subject: `Patient/${subject}`, ...period, status: ['open-gap', 'closed-gap'], ...named }).set(await as(AUTHOR));
      const reportOf = (res: request.Response) => {
        expect(res.status).toBe(200);
        const entries = (res.body.parameter[0].resource.entry as { resource: MeasureReport }[]).map((entry) => entry.resource);
        return entries.filter((resource) => resource.resourceType === 'MeasureReport').map((report) => ({ measure: report.measure, period: report.period }));
      };
      const byKey = reportOf(await careGaps({ measureId: KEY }));
      expect(byKey).toEqual([{ measure: `${edition2025.url}|${edition2025.version}`, period: { start: PERIOD.start, end: PERIOD.end } }]);
      for (const measureIdentifier of [`${KEY}FHIR`, `https://madie.cms.gov/measure/shortName|${KEY}FHIR`]) {
        expect({ measureIdentifier, reports: reportOf(await careGaps({ measureIdentifier })) }).toEqual({ measureIdentifier, reports: byKey });
      }
      // The same identifier over the year before picks the 2024 edition (in force on its last day), as measureId does.
      const earlier = await careGaps({ measureIdentifier: `${KEY}FHIR` }, period2025);
      const earlierByKey = await careGaps({ measureId: KEY }, period2025);
      expect(reportOf(earlier)).toEqual(reportOf(earlierByKey));
      expect(reportOf(earlier).map((report) => report.measure)).toEqual([`${edition2024.url}|${edition2024.version}`]);
      // An identifier of another system, or one nothing loaded carries: refused by name, as today.
      for (const measureIdentifier of [`https://example.org/other|${KEY}FHIR`, 'CMS9998FHIR']) {
        const refused = await careGaps({ measureIdentifier });
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'measureIdentifier', reason: 'unknown_measure' })]);
      }
    });

    it('refuses the same through the agent’s and MCP’s propose_action, and files a loaded key MCP is given as the clinician’s draft', async () => {
      const gap = await gapOf(notOpen);
      const propose = (measureId: string) => ({ kind: 'close_care_gap', content: { measureId }, rationale: 'Done elsewhere.', citations: [gap.citation] });
      model.script([
        { toolCalls: [{ name: 'care_gap_lookup', arguments: JSON.stringify({ measure: [KEY], asOf: TEST_ANCHOR_DATE }) }] },
        { toolCalls: [{ name: 'propose_action', arguments: JSON.stringify(propose('CMS9998')) }, { name: 'propose_action', arguments: JSON.stringify(propose(KEY)) }] },
        finalAnswer('insufficient_data'),
      ]);
      const turn = await http().post(`/patients/${notOpen}/agent/turns`).set(await as(AUTHOR)).send({ question: 'Close the falls screening gap.' });
      expect(turn.status).toBe(200);
      expect(turn.body.toolCalls.map((call: Row) => call.status)).toEqual(['ok', 'invalid_arguments', 'care_gap_not_open']);
      expect(turn.body.proposals).toEqual([]);

      const mcp = await mcpAs(notOpen);
      try {
        await mcp.client.listTools();
        // A session cites only what it was shown.
        await mcp.client.callTool({ name: 'care_gap_lookup', arguments: { measure: [KEY], asOf: TEST_ANCHOR_DATE } });
        const refused = (await mcp.client.callTool({ name: 'propose_action', arguments: propose('CMS9998') })) as CallToolResult;
        expect(refused.isError).toBe(true);
        expect(refused.structuredContent).toMatchObject({ error: { fields: [{ field: 'content.measureId', reason: 'unknown_measure' }] } });
        const notOpenGap = (await mcp.client.callTool({ name: 'propose_action', arguments: propose(KEY) })) as CallToolResult;
        expect(notOpenGap.isError).toBe(true);
        expect(notOpenGap.structuredContent).toMatchObject({ error: { kind: 'care_gap_not_open' } });
      } finally {
        await mcp.close();
      }
      expect(await proposalsOf(notOpen)).toBe(0);

      const openGap = await gapOf(open);
      const other = await mcpAs(open);
      try {
        await other.client.listTools();
        await other.client.callTool({ name: 'care_gap_lookup', arguments: { measure: [KEY], asOf: TEST_ANCHOR_DATE } });
        const filed = (await other.client.callTool({ name: 'propose_action', arguments: { ...propose(KEY), citations: [openGap.citation] } })) as CallToolResult;
        expect(filed.isError).toBeUndefined();
        const [row] = await database().dataSource.query(`SELECT p.status, v.content FROM proposals p JOIN proposal_versions v ON v.proposal_id = p.id WHERE p.id = $1`, [(filed.structuredContent as Row).proposalId]);
        expect(row).toEqual({ status: 'draft', content: { measureId: KEY } });
      } finally {
        await other.close();
      }
    });

    it('names the edition chosen at execution on both destinations, when delivered after a newer edition of the same year is loaded', async () => {
      const { dataSource } = database();
      const gap = await gapOf(secondOpen);
      expect(gap.status).toBe('open-gap');
      // Both destinations down: the effect executes, its deliveries are dead-lettered, the edition is chosen meanwhile.
      await destinations.fhir.stop();
      destinations.receiver.failNext = 1_000;
      const filed = await file(secondOpen, KEY, [gap.citation]);
      expect(filed.status).toBe(201);
      const proposalId = filed.body.id as string;
      expect(filed.body.status).toBe('pending');
      for (const reviewer of REVIEWERS) {
        const approved = (await http().post(`/proposals/${proposalId}/approve`).set(await as(reviewer)).send({ version: 1 })).body as Row;
        if (approved.status !== 'pending') break;
      }
      await waitFor(async () => (await deliveriesOf(dataSource, proposalId)).filter((row) => row.status === 'failed').length === 2, 30_000, 'deliveries not dead-lettered');
      const edition = measureOf('2025-qicore6');
      const [closure] = await dataSource.query(`SELECT measure_canonical AS canonical FROM care_gap_closures WHERE proposal_id = $1`, [proposalId]);
      expect(closure).toEqual({ canonical: `${edition.url}|${edition.version}` });

      // A re-issued edition of the same year, loaded later: the period now picks it.
      const reissued = `${edition.version}-reissued`;
      await dataSource.query(
        `INSERT INTO measure_packages (url, version, key, title, edition, scoring, basis, groups, period_start, period_end, primary_library_id, measure, content_hash, loaded_by, load_correlation_id)
         SELECT url, $3, key, title, edition, scoring, basis, groups, period_start, period_end, primary_library_id, measure, content_hash, loaded_by, load_correlation_id FROM measure_packages WHERE key = $1 AND version = $2`,
        [KEY, edition.version, reissued],
      );
      try {
        const chosen = await COMMANDS['deliveries-retry'].run(dataSource, ['--proposal', proposalId], () => undefined);
        expect(chosen).toBe(0);
        await destinations.fhir.start();
        destinations.receiver.failNext = 0;
        await waitDelivered(() => dataSource, [proposalId]);
        const { resources } = await onServer(destinations.fhir, proposalId);
        expect(resources).toEqual([expect.objectContaining({ resourceType: 'MeasureReport', measure: `${edition.url}|${edition.version}` })]);
        expect(eventsFor(destinations.receiver, proposalId).map((event) => event.body.data.measure)).toEqual([`${edition.url}|${edition.version}`]);
      } finally {
        await destinations.fhir.start();
        destinations.receiver.failNext = 0;
        await dataSource.query(`DELETE FROM measure_packages WHERE key = $1 AND version = $2`, [KEY, reissued]);
      }
    });
  },
);
