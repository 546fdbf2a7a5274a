import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { CreateProposalDto } from '../../src/approvals/dto/proposal-requests.dto';
import { CITATION_FORMS_TEXT } from '../../src/clinical/citation-grammar';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { REVIEW_PATIENT_FIELDS } from '../../src/approvals/review-patient';
import { StaffRole } from '../../src/common/roles';
import { todayUtc } from '../../src/tools/envelope';
import { ageOn } from '../../src/tools/patient-header';
import { accessOf } from '../setup/callers';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { dueInDays } from '../setup/due-dates';

const PATIENT = patientIdOf('diabetes-a1c-stale');
const HBA1C = `obs:${fixtureId('patient', 'diabetes-a1c-stale', 'observation', '0')}`;
/** A second patient of the same team, so a queue page names more than one. */
const OTHER_PATIENT = patientIdOf('diabetes-a1c-9-4');

/** The roles that may read the queue, a north user each, and the patient fields each one's projection shows (today: all of them). */
const QUEUE_READERS: [StaffRole, string, readonly string[]][] = [
  [StaffRole.Clinician, 'dr.okafor', REVIEW_PATIENT_FIELDS],
  [StaffRole.CareCoordinator, 'cc.mensah', REVIEW_PATIENT_FIELDS],
  [StaffRole.Reviewer, 'rev.santos', REVIEW_PATIENT_FIELDS],
];
const NAMES: Record<string, string> = { 'dr.okafor': 'Adaeze Okafor, MD', 'rev.santos': 'Lucía Santos, MD', 'rev.nakamura': 'Kenji Nakamura, PharmD' };

/** The review workflow over HTTP, as a clinician and a reviewer would drive it. */
describe('proposals API', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  const as = async (username: string) => ({ authorization: `Bearer ${await sut.tokenFor(username)}` });
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
  });
  afterAll(() => sut.close());

  const http = () => request(sut.app.getHttpServer());
  let filed = 0;
  /** A schedule_outreach with a due date of its own: a second live proposal for the same date would be its duplicate. */
  const outreach = () => {
    filed += 1;
    const dueDate = dueInDays(filed);
    return { kind: 'schedule_outreach', content: { channel: 'phone', dueDate, reason: 'Book an HbA1c recheck' }, rationale: 'Last HbA1c is older than 12 months.', citations: [HBA1C] };
  };
  const body = outreach();

  it('files a proposal, shows it in the reviewer’s queue, and records one approval by someone else', async () => {
    const created = await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(outreach()).expect(201);
    expect(created.body).toMatchObject({ status: 'pending', kind: 'schedule_outreach', currentVersion: 1, requiredApprovals: 1 });

    const queue = await http().get('/proposals?status=pending').set(await as('rev.santos')).expect(200);
    expect(queue.body.items.map((item: { id: string }) => item.id)).toContain(created.body.id);

    await http().post(`/proposals/${created.body.id}/approve`).set(await as('dr.okafor')).send({ version: 1 }).expect(403);
    const approved = await http().post(`/proposals/${created.body.id}/approve`).set(await as('rev.santos')).send({ version: 1 }).expect(200);
    expect(approved.body.status).toBe('approved');
    const again = await http().post(`/proposals/${created.body.id}/approve`).set(await as('rev.nakamura')).send({ version: 1 }).expect(409);
    expect(again.headers['content-type']).toMatch(/^application\/problem\+json/);

    const detail = await http().get(`/proposals/${created.body.id}`).set(await as('rev.nakamura')).expect(200);
    expect(detail.body.versions).toHaveLength(1);
    expect(detail.body.decisions).toEqual([expect.objectContaining({ decision: 'approve', actorRole: 'reviewer', version: 1 })]);
    // The cited HbA1c, as the reviewer's role may see it, with its citation id.
    expect(detail.body.evidence.observations).toEqual([expect.objectContaining({ citation: HBA1C, code: '4548-4', unit: '%' })]);
    expect(detail.body.evidence.items).toEqual([expect.objectContaining({ id: HBA1C, kind: 'lab or vital', withheld: false, why: null })]);
  });

  describe('names the patient and the people, as each reader’s projection allows', () => {
    /** The patient as stored, and as a reader shown `fields` must see it: the rest null and named. */
    const expectedPatient = async (patientId: string, fields: readonly string[]) => {
      const [row] = await database().dataSource.query(
        `SELECT mrn, given_name AS "givenName", family_name AS "familyName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", sex, deceased_at AS "deceasedAt" FROM patients WHERE id = $1`,
        [patientId],
      );
      const full: Record<string, unknown> = { ...row, age: ageOn(row.birthDate, todayUtc()) };
      return {
        ...Object.fromEntries(REVIEW_PATIENT_FIELDS.map((field) => [field, fields.includes(field) ? full[field] : null])),
        redactedFields: REVIEW_PATIENT_FIELDS.filter((field) => !fields.includes(field)),
      };
    };

    it.each(QUEUE_READERS)('as a %s (%s): the queue and the proposal carry the patient’s identifiers, age and sex, and the proposer by name', async (_role, username, fields) => {
      const created = await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(outreach()).expect(201);
      expect(created.body).toMatchObject({ proposerName: NAMES['dr.okafor'], proposerRole: 'clinician' });
      const expected = await expectedPatient(PATIENT, fields);
      expect(expected).toMatchObject({ mrn: 'VGL-000101', givenName: 'Marcus', familyName: 'Whitaker', sex: 'male' });

      const queue = await http().get('/proposals?status=pending&limit=100').set(await as(username)).expect(200);
      const item = queue.body.items.find((candidate: { id: string }) => candidate.id === created.body.id);
      expect(item).toMatchObject({ proposerName: NAMES['dr.okafor'], proposerRole: 'clinician', submittedAt: expect.any(String) });
      expect(item.patient).toEqual(expected);
      const detail = await http().get(`/proposals/${created.body.id}`).set(await as(username)).expect(200);
      expect(detail.body.patient).toEqual(expected);
      expect(detail.body).toMatchObject({ proposerName: NAMES['dr.okafor'], versions: [{ createdByName: NAMES['dr.okafor'], createdByRole: 'clinician' }] });
      // Minimum necessary: no contact detail, whatever the role.
      for (const text of [JSON.stringify(queue.body), JSON.stringify(detail.body)]) expect(text).not.toMatch(/555-0101|marcus\.whitaker@|Larkfield|97811/);
    });

    it('names every author and decider in the history, with the role they acted in', async () => {
      const created = await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(outreach()).expect(201);
      await http().post(`/proposals/${created.body.id}/edit-and-approve`).set(await as('rev.santos')).send({ version: 1, content: { ...outreach().content, channel: 'letter' } }).expect(200);
      await http().post(`/proposals/${created.body.id}/approve`).set(await as('rev.nakamura')).send({ version: 2 }).expect(200);
      const detail = (await http().get(`/proposals/${created.body.id}`).set(await as('dr.okafor')).expect(200)).body;
      expect(detail.versions.map((v: Record<string, unknown>) => [v.version, v.createdByName, v.createdByRole])).toEqual([
        [1, NAMES['dr.okafor'], 'clinician'],
        [2, NAMES['rev.santos'], 'reviewer'],
      ]);
      // The edit and the editor's approval share a transaction's timestamp: compared as a set.
      expect(detail.decisions.map((d: Record<string, unknown>) => [d.decision, d.version, d.actorName, d.actorRole]).sort()).toEqual([
        ['approve', 2, NAMES['rev.nakamura'], 'reviewer'],
        ['approve', 2, NAMES['rev.santos'], 'reviewer'],
        ['edit', 2, NAMES['rev.santos'], 'reviewer'],
      ]);
    });

    it('withholds what a projection withholds: null, and named (the model’s projection, which keeps no identifier)', async () => {
      const created = await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(outreach()).expect(201);
      const access = await accessOf(database().dataSource, 'dr.okafor', { projectionRole: 'agent' });
      const expected = await expectedPatient(PATIENT, ['age', 'sex', 'deceasedAt']);
      expect(expected.redactedFields).toEqual(['mrn', 'givenName', 'familyName', 'birthDate']);
      const page = await sut.app.get(ProposalsService).list(access, { limit: 100 });
      expect(page.items.find((item) => item.id === created.body.id)?.patient).toEqual(expected);
      expect((await sut.app.get(ProposalsService).get(access, created.body.id)).patient).toEqual(expected);
      const [row] = await database().dataSource.query(`SELECT fields FROM audit_events WHERE correlation_id = $1 AND patient_id = $2`, [access.correlationId, PATIENT]);
      expect(row.fields).toEqual(expect.arrayContaining(['patient.age', 'patient.sex']));
      expect(row.fields).not.toContain('patient.mrn');
    });

    it('audits a page of the queue as one row per patient it names, with the fields that left and never a value', async () => {
      await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(outreach()).expect(201);
      const citations = [`obs:${fixtureId('patient', 'diabetes-a1c-9-4', 'observation', '0')}`];
      await http().post(`/patients/${OTHER_PATIENT}/proposals`).set(await as('dr.okafor')).send({ ...outreach(), citations }).expect(201);
      const res = await http().get('/proposals?status=pending&limit=100').set(await as('rev.santos')).expect(200);
      const shown = [...new Set(res.body.items.map((item: { patientId: string }) => item.patientId))].sort();
      expect(shown).toEqual(expect.arrayContaining([PATIENT, OTHER_PATIENT]));
      const rows = await database().dataSource.query(
        `SELECT action, outcome, patient_id AS "patientId", row_count AS "rowCount", fields FROM audit_events WHERE correlation_id = $1 ORDER BY patient_id`,
        [res.headers['x-correlation-id']],
      );
      expect(rows.map((row: { patientId: string }) => row.patientId)).toEqual(shown);
      for (const row of rows) {
        expect(row).toMatchObject({ action: 'proposal.list', outcome: 'success', rowCount: 1 });
        expect(row.fields).toEqual(['sort:newest', 'filter:status', 'id', 'patientId', 'kind', 'status', ...REVIEW_PATIENT_FIELDS.map((field) => `patient.${field}`)]);
      }
      // An empty page names nobody.
      const empty = await http().get(`/proposals?kind=close_care_gap&patientId=${OTHER_PATIENT}`).set(await as('rev.santos')).expect(200);
      expect(empty.body.items).toEqual([]);
      expect(await database().dataSource.query(`SELECT outcome, patient_id AS "patientId" FROM audit_events WHERE correlation_id = $1`, [empty.headers['x-correlation-id']])).toEqual([
        { outcome: 'empty', patientId: null },
      ]);
    });
  });

  describe('refuses a due date in the past, in one place for every way content arrives', () => {
    const counts = async () =>
      (await database().dataSource.query(`SELECT (SELECT count(*)::int FROM proposals) AS proposals, (SELECT count(*)::int FROM proposal_versions) AS versions, (SELECT count(*)::int FROM proposal_decisions) AS decisions`))[0];
    const PAST = [{ field: 'content.dueDate', reason: 'notInThePast', message: 'dueDate must be today (UTC) or later' }];

    it('at filing: 400 naming content.dueDate, nothing stored; today is still accepted', async () => {
      const before = await counts();
      const body = outreach();
      const res = await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send({ ...body, content: { ...body.content, dueDate: dueInDays(-1) } }).expect(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.errors).toEqual(PAST);
      expect(await counts()).toEqual(before);
      await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send({ ...body, content: { ...body.content, dueDate: dueInDays(0) } }).expect(201);
    });

    it('as the agent drafts it, and in a reviewer’s edit: the same refusal, nothing stored', async () => {
      const body = outreach();
      const past = { ...body, content: { ...body.content, dueDate: dueInDays(-30) } } as CreateProposalDto;
      const before = await counts();
      await expect(sut.app.get(ProposalsService).createDraft(await accessOf(database().dataSource, 'dr.okafor'), PATIENT, past, randomUUID())).rejects.toMatchObject({ status: 400, errors: PAST });
      expect(await counts()).toEqual(before);
      const created = await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(body).expect(201);
      const filed = await counts();
      const edit = await http().post(`/proposals/${created.body.id}/edit-and-approve`).set(await as('rev.santos')).send({ version: 1, content: past.content }).expect(400);
      expect(edit.body.errors).toEqual(PAST);
      expect(await counts()).toEqual(filed);
    });
  });

  it('hides another team’s proposals: not in the queue, "not found" by id', async () => {
    const created = await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(outreach()).expect(201);
    const queue = await http().get('/proposals').set(await as('rev.haddad')).expect(200);
    expect(queue.body.items.map((item: { id: string }) => item.id)).not.toContain(created.body.id);
    await http().get(`/proposals/${created.body.id}`).set(await as('rev.haddad')).expect(404);
    await http().post(`/proposals/${created.body.id}/approve`).set(await as('rev.haddad')).send({ version: 1 }).expect(404);
  });

  it.each([
    ['an unknown body field', { ...body, approvedBy: 'rev.santos' }, 'approvedBy'],
    ['an unknown content field', { ...body, content: { ...body.content, execute: true } }, 'content.execute'],
    ['an unknown kind', { ...body, kind: 'delete_patient' }, 'kind'],
    ['a malformed citation', { ...body, citations: ["obs:1' OR '1'='1"] }, 'citations'],
  ])('refuses %s by name and files nothing', async (_name, payload, field) => {
    const before = (await database().dataSource.query(`SELECT count(*)::int AS n FROM proposals`))[0].n;
    const res = await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(payload).expect(400);
    expect(res.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    expect((await database().dataSource.query(`SELECT count(*)::int AS n FROM proposals`))[0].n).toBe(before);
  });

  it('refuses a malformed citation with `not_a_citation` and the accepted forms in words', async () => {
    const res = await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send({ ...outreach(), citations: ['cond:97995cdf'] }).expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.errors).toEqual([{ field: 'citations', reason: 'not_a_citation', message: CITATION_FORMS_TEXT }]);
    expect(res.body.errors[0].message).toContain('cond:<uuid> (condition), ');
    expect(res.body.errors[0].message).toContain('gap:<measure>@<start>..<end> (care gap)');
  });

  it('shows each cited item in words as the reader may see it: a condition by its text, a kind not shown as withheld and why', async () => {
    const [condition] = await database().dataSource.query(`SELECT id, display FROM conditions WHERE patient_id = $1 ORDER BY recorded_at, id LIMIT 1`, [PATIENT]);
    const [medication] = await database().dataSource.query(`SELECT id FROM medications WHERE patient_id = $1 ORDER BY id LIMIT 1`, [PATIENT]);
    const cond = `cond:${condition.id}`;
    const citations = [cond, HBA1C, `med:${medication.id}`];
    const created = await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send({ ...outreach(), citations }).expect(201);
    const detail = await http().get(`/proposals/${created.body.id}`).set(await as('dr.okafor')).expect(200);
    const items = new Map(detail.body.evidence.items.map((item: { id: string }) => [item.id, item]));
    expect(items.get(cond)).toEqual({ id: cond, kind: 'condition', withheld: false, text: expect.stringContaining(condition.display), why: null });
    expect(items.get(HBA1C)).toEqual({ id: HBA1C, kind: 'lab or vital', withheld: false, text: expect.stringContaining('Hemoglobin A1c'), why: null });
    expect(items.get(`med:${medication.id}`)).toEqual({ id: `med:${medication.id}`, kind: 'medication', withheld: true, text: null, why: expect.stringMatching(/not shown/) });
    // A cited row removed from the record since: said to be gone, not dropped silently.
    await database().dataSource.query(`DELETE FROM conditions WHERE id = $1`, [condition.id]);
    const after = await http().get(`/proposals/${created.body.id}`).set(await as('rev.santos')).expect(200);
    expect(after.body.evidence.items.find((item: { id: string }) => item.id === cond)).toEqual({ id: cond, kind: 'condition', withheld: true, text: null, why: expect.stringMatching(/^no longer in the record/) });
  });

  it('pages the queue with an opaque cursor', async () => {
    for (let i = 0; i < 3; i += 1) await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(outreach()).expect(201);
    const headers = await as('rev.santos');
    const everything = (await http().get('/proposals?limit=100').set(headers).expect(200)).body.items.map((item: { id: string }) => item.id);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: request.Response = await http().get(`/proposals?limit=2${cursor ? `&cursor=${cursor}` : ''}`).set(headers).expect(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      paged.push(...page.body.items.map((item: { id: string }) => item.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(everything);
    expect(everything.length).toBeGreaterThanOrEqual(5);
    await http().get('/proposals?cursor=not-a-cursor').set(headers).expect(400);

    const oldestFirst: string[] = [];
    cursor = null;
    do {
      const page: request.Response = await http().get(`/proposals?sort=oldest&limit=2${cursor ? `&cursor=${cursor}` : ''}`).set(headers).expect(200);
      oldestFirst.push(...page.body.items.map((item: { id: string }) => item.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(oldestFirst).toEqual([...everything].reverse());

    const okafor = (await database().dataSource.query(`SELECT id FROM staff_users WHERE username = 'dr.okafor'`))[0].id;
    const byProposer = (await http().get(`/proposals?limit=100&proposerId=${okafor}`).set(headers).expect(200)).body.items;
    expect(byProposer.length).toBe(everything.length);
    expect((await http().get(`/proposals?proposerId=${(await database().dataSource.query(`SELECT id FROM staff_users WHERE username = 'cc.mensah'`))[0].id}`).set(headers).expect(200)).body.items).toEqual([]);
  });

  describe('refuses a queue cursor it did not issue for this caller, filters and sort', () => {
    type Issued = { plain: string; pending: string; lastRow: { createdAt: string; id: string } };
    let issued: Issued;
    let okafor: string;
    beforeAll(async () => {
      for (let i = 0; i < 3; i += 1) await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(outreach()).expect(201);
      okafor = (await database().dataSource.query(`SELECT id FROM staff_users WHERE username = 'dr.okafor'`))[0].id;
      const headers = await as('rev.santos');
      const plain = (await http().get('/proposals?limit=2').set(headers).expect(200)).body;
      const pending = (await http().get('/proposals?limit=2&status=pending').set(headers).expect(200)).body;
      expect([plain.nextCursor, pending.nextCursor]).toEqual([expect.any(String), expect.any(String)]);
      issued = { plain: plain.nextCursor, pending: pending.nextCursor, lastRow: plain.items[1] };
    });

    /** The cursor with one bit of byte `at` flipped. */
    const flipped = (cursor: string, at: number) => {
      const bytes = Buffer.from(cursor, 'base64url');
      bytes[at] ^= 0x01;
      return bytes.toString('base64url');
    };
    const cases: [string, (issued: Issued) => { user?: string; query?: string; cursor: string }][] = [
      // What the queue issued before its cursors were sealed, for the row the first page really ends at.
      ['the old form of a real row (its createdAt and id)', ({ lastRow }) => ({ cursor: Buffer.from(JSON.stringify([lastRow.createdAt, lastRow.id])).toString('base64url') })],
      ['random base64url', () => ({ cursor: randomBytes(80).toString('base64url') })],
      ['a real cursor, a ciphertext bit flipped', ({ plain }) => ({ cursor: flipped(plain, 20) })],
      ['a real cursor, truncated', ({ plain }) => ({ cursor: plain.slice(0, -4) })],
      ['another reviewer’s cursor (same team, same query)', ({ plain }) => ({ user: 'rev.nakamura', cursor: plain })],
      ['a cursor of no status, with a status', ({ plain }) => ({ query: '&status=pending', cursor: plain })],
      ['a cursor of a status, without it', ({ pending }) => ({ cursor: pending })],
      ['a cursor of no kind, with a kind', ({ plain }) => ({ query: '&kind=schedule_outreach', cursor: plain })],
      ['a cursor of no patient, with a patient', ({ plain }) => ({ query: `&patientId=${PATIENT}`, cursor: plain })],
      ['a cursor of no proposer, with a proposer', ({ plain }) => ({ query: `&proposerId=${okafor}`, cursor: plain })],
      ['a cursor of the newest first, oldest first', ({ plain }) => ({ query: '&sort=oldest', cursor: plain })],
    ];
    it.each(cases)('%s: a 400 problem naming the cursor, one audit row, nothing else', async (_case, forge) => {
      const forged = forge(issued);
      const before = await database().dataSource.query(`SELECT count(*)::int AS n FROM proposals`);
      const res = await http().get(`/proposals?limit=2${forged.query ?? ''}&cursor=${encodeURIComponent(forged.cursor)}`).set(await as(forged.user ?? 'rev.santos'));
      expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status: 400, type: expect.stringMatching(/^application\/problem\+json/) });
      expect(res.body.errors).toEqual([{ field: 'cursor', reason: 'invalid_cursor', message: 'cursor is not a cursor of this list' }]);
      const rows = await database().dataSource.query(`SELECT action, outcome, row_count AS "rowCount" FROM audit_events WHERE correlation_id = $1`, [res.headers['x-correlation-id']]);
      expect(rows).toEqual([{ action: 'proposal.list', outcome: 'invalid', rowCount: 0 }]);
      expect(await database().dataSource.query(`SELECT count(*)::int AS n FROM proposals`)).toEqual(before);
    });

    it('while the same cursors still page on for their own user, filters and sort, at any page size', async () => {
      const headers = await as('rev.santos');
      const everything = (await http().get('/proposals?limit=100').set(headers).expect(200)).body.items.map((item: { id: string }) => item.id);
      const next = await http().get(`/proposals?limit=3&cursor=${issued.plain}`).set(headers).expect(200);
      expect(next.body.items.map((item: { id: string }) => item.id)).toEqual(everything.slice(2, 5));
      const pending = await http().get(`/proposals?limit=2&status=pending&cursor=${issued.pending}`).set(headers).expect(200);
      expect(pending.body.items.every((item: { status: string }) => item.status === 'pending')).toBe(true);
    });
  });

  describe('a draft (what the agent files), every route × caller', () => {
    const USERS = { author: 'dr.okafor', teammate: 'dr.lindqvist', reviewer: 'rev.santos', coordinator: 'cc.mensah' } as const;
    type Who = keyof typeof USERS;
    type Route = { call: (id: string, headers: Record<string, string>) => request.Test; expect: Record<Who, number>; authorLeavesIt?: string };
    const decision = (path: string, send: () => object): Route['call'] => (id, headers) => http().post(`/proposals/${id}/${path}`).set(headers).send(send());
    /** Deciding is the reviewers' (403 for anyone else); a reviewer cannot see a draft at all (404, as for a missing proposal). */
    const REVIEW_ONLY = { author: 403, teammate: 403, reviewer: 404, coordinator: 403 };
    const ROUTES: Record<string, Route> = {
      'GET /proposals/{id}': { call: (id, headers) => http().get(`/proposals/${id}`).set(headers), expect: { author: 200, teammate: 404, reviewer: 404, coordinator: 404 } },
      approve: { call: decision('approve', () => ({ version: 1 })), expect: REVIEW_ONLY },
      reject: { call: decision('reject', () => ({ version: 1, reason: 'Not indicated now.' })), expect: REVIEW_ONLY },
      'edit-and-approve': { call: decision('edit-and-approve', () => ({ version: 1, content: outreach().content })), expect: REVIEW_ONLY },
      'withdraw-approval': { call: decision('withdraw-approval', () => ({ version: 1 })), expect: REVIEW_ONLY },
      // Not pending: the author's cancel is an illegal transition; the draft is no one else's to see.
      cancel: { call: decision('cancel', () => ({ version: 1, reason: 'Not needed any more.' })), expect: { author: 409, teammate: 404, reviewer: 403, coordinator: 404 } },
      submit: { call: decision('submit', () => ({})), expect: { author: 200, teammate: 404, reviewer: 403, coordinator: 403 }, authorLeavesIt: 'pending' },
      discard: { call: decision('discard', () => ({})), expect: { author: 200, teammate: 404, reviewer: 403, coordinator: 403 }, authorLeavesIt: 'discarded' },
    };
    const fileDraft = async () => {
      const author = await accessOf(database().dataSource, USERS.author);
      return (await sut.app.get(ProposalsService).createDraft(author, PATIENT, outreach() as CreateProposalDto, randomUUID())).id;
    };
    const statusOf = async (id: string) => (await database().dataSource.query(`SELECT status FROM proposals WHERE id = $1`, [id]))[0].status as string;
    const cells = Object.keys(ROUTES).flatMap((route) => (Object.keys(USERS) as Who[]).map((who) => [route, who, ROUTES[route].expect[who]] as const));

    it.each(cells)('%s as the %s answers %i, and only the author’s submit or discard moves it', async (route, who, status) => {
      const id = await fileDraft();
      const res = await ROUTES[route].call(id, await as(USERS[who])).expect(status);
      if (status >= 400) expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      if (status === 404) {
        // The same answer as for a proposal that does not exist.
        const missing = await ROUTES[route].call(randomUUID(), await as(USERS[who])).expect(404);
        expect(res.body.code).toBe(missing.body.code);
        expect(res.body.detail).toBe(missing.body.detail);
      }
      if (status === 409) expect(res.body.code).toBe('illegal_transition');
      expect(await statusOf(id)).toBe(status === 200 && ROUTES[route].authorLeavesIt ? ROUTES[route].authorLeavesIt : 'draft');
      if (status === 200 && route === 'GET /proposals/{id}') expect(res.body).toMatchObject({ id, status: 'draft', submittedAt: null, evidence: { observations: [expect.objectContaining({ citation: HBA1C })] } });
      if (status === 200 && route !== 'GET /proposals/{id}') expect(res.body).toMatchObject({ id, status: ROUTES[route].authorLeavesIt });
    });

    it.each(Object.keys(USERS) as Who[])('lists it in ?status=draft for its author only, and in nobody’s queue (as the %s)', async (who) => {
      const id = await fileDraft();
      const headers = await as(USERS[who]);
      const ids = async (query: string) => (await http().get(`/proposals?limit=100${query}`).set(headers).expect(200)).body.items.map((item: { id: string }) => item.id);
      expect((await ids('&status=draft')).includes(id)).toBe(who === 'author');
      expect(await ids('')).not.toContain(id);
      expect(await ids('&status=pending')).not.toContain(id);
    });

    it('refuses over REST what a live draft already proposes: 409 duplicate_proposal, naming it to its author only', async () => {
      const id = await fileDraft();
      const [{ content }] = await database().dataSource.query(`SELECT content FROM proposal_versions WHERE proposal_id = $1`, [id]);
      const same = { ...outreach(), content };
      const mine = await http().post(`/patients/${PATIENT}/proposals`).set(await as(USERS.author)).send(same).expect(409);
      expect(mine.body).toMatchObject({ code: 'duplicate_proposal', detail: expect.stringContaining(id) });
      const theirs = await http().post(`/patients/${PATIENT}/proposals`).set(await as(USERS.teammate)).send(same).expect(409);
      expect(theirs.body.code).toBe('duplicate_proposal');
      expect(theirs.body.detail).not.toContain(id);
    });
  });
});
