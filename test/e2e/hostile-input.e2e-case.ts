import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { dueInDays } from '../setup/due-dates';
import { baseUrlOf } from '../setup/event-stream';
import { rawExchange } from '../setup/raw-http';

const PATIENT = patientIdOf('diabetes-a1c-stale');
const HBA1C = `obs:${fixtureId('patient', 'diabetes-a1c-stale', 'observation', '0')}`;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const PROPOSAL_BODY = {
  kind: 'schedule_outreach',
  content: { channel: 'phone', dueDate: dueInDays(30), reason: 'Book an HbA1c recheck' },
  rationale: 'Last HbA1c is older than 12 months.',
  citations: [HBA1C],
};
/** The tables a request could change; a refused one must change none of them. */
const WRITTEN_TABLES = ['proposals', 'proposal_versions', 'proposal_decisions', 'proposal_outbox', 'agent_turns', 'agent_tool_calls', 'care_gap_closures', 'lab_orders', 'care_notes', 'outreach_tasks'];

interface JsonRoute {
  name: string;
  path: (ids: Ids) => string;
  caller: string;
  body: (ids: Ids) => Record<string, unknown>;
  /** A free-text field of the body, as the problem names it, and where to put hostile text in it. */
  freeText: { field: string; set: (body: Record<string, unknown>, text: string) => void };
}
interface Ids {
  proposalId: string;
}

const decision = (reason: string) => ({ version: 1, reason });
const POSTS: JsonRoute[] = [
  {
    name: 'propose_action',
    path: () => `/patients/${PATIENT}/proposals`,
    caller: 'dr.okafor',
    body: () => structuredClone(PROPOSAL_BODY),
    freeText: { field: 'rationale', set: (body, text) => (body.rationale = `Rationale ${text} text`) },
  },
  {
    name: 'agent_turn',
    path: () => `/patients/${PATIENT}/agent/turns`,
    caller: 'dr.okafor',
    body: () => ({ question: 'What was the last HbA1c?' }),
    freeText: { field: 'question', set: (body, text) => (body.question = `What ${text} was it?`) },
  },
  ...(['approve', 'reject', 'cancel', 'withdraw-approval'] as const).map((action) => ({
    name: action === 'withdraw-approval' ? 'withdraw_approval' : `${action}_proposal`,
    path: (ids: Ids) => `/proposals/${ids.proposalId}/${action}`,
    caller: action === 'cancel' ? 'dr.okafor' : 'rev.santos',
    body: () => decision('Reviewed the chart'),
    freeText: { field: 'reason', set: (body: Record<string, unknown>, text: string) => (body.reason = `Reason ${text} here`) },
  })),
  {
    name: 'edit_and_approve_proposal',
    path: (ids) => `/proposals/${ids.proposalId}/edit-and-approve`,
    caller: 'rev.santos',
    body: () => ({ version: 1, content: { ...PROPOSAL_BODY.content }, rationale: 'Edited: phone is better than a letter.' }),
    freeText: { field: 'rationale', set: (body, text) => (body.rationale = `Rationale ${text} edited`) },
  },
];

/** Every GET operation, with a caller allowed to use it. */
const GETS: Array<{ name: string; path: (ids: Ids) => string; caller?: string; integer?: string; allow?: string }> = [
  ...['encounters', 'labs', 'care-gaps', 'missing-data', 'readmission-risk'].map((tool) => ({ name: tool, path: () => `/patients/${PATIENT}/${tool}`, caller: 'dr.okafor' })),
  { name: 'get_agent_turn', path: () => `/patients/${PATIENT}/agent/turns/${UNKNOWN_ID}`, caller: 'dr.okafor' },
  // Also a POST (a FHIR Parameters body), whose edge refusals the contract test probes.
  { name: 'deqm_care_gaps', path: () => '/fhir/Measure/$care-gaps', caller: 'dr.okafor', allow: 'GET, HEAD, POST' },
  { name: 'list_proposals', path: () => '/proposals', caller: 'rev.santos', integer: 'limit' },
  { name: 'get_proposal', path: (ids) => `/proposals/${ids.proposalId}`, caller: 'rev.santos' },
  { name: 'proposal_events', path: () => '/proposals/events', caller: 'rev.santos' },
  { name: 'health_liveness', path: () => '/health' },
  { name: 'health_readiness', path: () => '/health/ready', integer: 'timeoutMs' },
  { name: 'list_break_glass_uses', path: () => '/audit/break-glass', caller: 'po.achebe', integer: 'limit' },
];

/** What each path answers, for the 405s' `Allow`. */
const PATHS: Array<{ path: (ids: Ids) => string; allow: string }> = [
  ...GETS.map((route) => ({ path: route.path, allow: route.allow ?? 'GET, HEAD' })),
  ...POSTS.map((route) => ({ path: route.path, allow: 'POST' })),
];

const deepJson = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const formFields = (count: number) => Array.from({ length: count }, (_, i) => `f${i}=1`).join('&');

/** Bodies that must be refused before any handler runs: [name, headers, body, status, code]. */
const HOSTILE_BODIES: Array<[string, Record<string, string>, string | Buffer, number, string]> = [
  ['a body over the limit', { 'content-type': 'application/json' }, JSON.stringify({ question: 'x'.repeat(200_000) }), 413, 'payload_too_large'],
  ['an array of 10^6 elements', { 'content-type': 'application/json' }, `[${Array(1_000_000).fill('0').join(',')}]`, 413, 'payload_too_large'],
  ['a gzip bomb', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync(`{"a":"${'0'.repeat(20_000_000)}"}`), 413, 'payload_too_large'],
  ['an unknown charset', { 'content-type': 'application/json; charset=ibm500' }, '{}', 415, 'unsupported_charset'],
  ['an unknown content encoding', { 'content-type': 'application/json', 'content-encoding': 'x-compress-9000' }, '{}', 415, 'unsupported_content_encoding'],
  ['broken gzip', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, Buffer.concat([gzipSync('{"a":1}').subarray(0, 12), Buffer.from('garbage')]), 400, 'unreadable_body'],
  ['a form body', { 'content-type': 'application/x-www-form-urlencoded' }, 'version=1&question=hello+there', 415, 'unsupported_media_type'],
  ['a form body with too many fields', { 'content-type': 'application/x-www-form-urlencoded' }, formFields(5000), 415, 'unsupported_media_type'],
  ['a form body nested too deep', { 'content-type': 'application/x-www-form-urlencoded' }, `a${'[b]'.repeat(100)}=1`, 415, 'unsupported_media_type'],
  ['a multipart body', { 'content-type': 'multipart/form-data; boundary=x' }, '--x\r\nContent-Disposition: form-data; name="version"\r\n\r\n1\r\n--x--', 415, 'unsupported_media_type'],
  ['JSON sent as text/plain', { 'content-type': 'text/plain' }, '{"version":1}', 415, 'unsupported_media_type'],
  ['a body with no content type', {}, '{"version":1}', 415, 'unsupported_media_type'],
  ['malformed JSON', { 'content-type': 'application/json' }, '{"version": 1,', 400, 'malformed_json'],
  ['a bare JSON string', { 'content-type': 'application/json' }, '"version"', 400, 'malformed_json'],
  ['JSON nested 10^4 deep', { 'content-type': 'application/json' }, deepJson(10_000), 400, 'validation_failed'],
];

/** Prototype keys: [name, raw JSON body, the field the problem must name]. Raw, because `{ __proto__: … }` in JS sets a prototype. */
const PROTOTYPE_BODIES: Array<[string, string, string]> = [
  ['__proto__', '{"version":1,"__proto__":{"isAdmin":true}}', '__proto__'],
  ['constructor', '{"version":1,"constructor":{"prototype":{"x":1}}}', 'constructor'],
  ['a nested prototype', '{"version":1,"content":{"prototype":1}}', 'content.prototype'],
  ['a nested __proto__', '{"version":1,"content":{"__proto__":{"x":1}}}', 'content.__proto__'],
];

/** Text no free-text field may hold: [name, the text as a JSON string literal, the rule]. */
const HOSTILE_TEXT: Array<[string, string]> = [
  ['NUL', '\u0000'],
  ['a lone high surrogate', '\ud800'],
  ['a lone low surrogate', '\udc00'],
];

/** Requests Node's parser refuses, written raw to a socket: [name, request head for a path, status]. */
const UNPARSABLE: Array<[string, (path: string) => Buffer, number]> = [
  ['headers over 16 KB', (path) => Buffer.from(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`), 431],
  ['NUL in a header', (path) => Buffer.from(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-Note: a\u0000b\r\n\r\n`, 'latin1'), 400],
  ['a bare LF in the headers', (path) => Buffer.from(`GET ${path} HTTP/1.1\r\nHost: x\nX-Note: a\r\n\r\n`), 400],
  ['an obs-fold header', (path) => Buffer.from(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-Note: a\r\n folded\r\n\r\n`), 400],
  ['NUL in the URL', (path) => Buffer.from(`GET ${path}\u0000x HTTP/1.1\r\nHost: x\r\n\r\n`, 'latin1'), 400],
  ['0xFF in the URL', (path) => Buffer.from(`GET ${path}\u00ff HTTP/1.1\r\nHost: x\r\n\r\n`, 'latin1'), 400],
  ['Content-Length with Transfer-Encoding', (path) => Buffer.from(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`), 400],
  ['an unknown method', (path) => Buffer.from(`FROB ${path} HTTP/1.1\r\nHost: x\r\n\r\n`), 501],
];

/**
 * The hostile-input run as a matrix: every route × each kind of hostile input gets its exact status
 * as an RFC 9457 problem carrying the correlation id (also as the header), with nothing written.
 */
jest.setTimeout(60_000);

describe('hostile input', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  const ids: Ids = { proposalId: '' };
  let before: Record<string, number>;
  const tokens = new Map<string, string>();
  const bearer = async (username: string) => {
    if (!tokens.has(username)) tokens.set(username, await sut.tokenFor(username));
    return `Bearer ${tokens.get(username)}`;
  };

  const counts = async () => {
    const entries = await Promise.all(WRITTEN_TABLES.map(async (table) => [table, (await database().dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number]));
    return Object.fromEntries(entries) as Record<string, number>;
  };

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    await sut.app.listen(0, '127.0.0.1');
    const created = await request(sut.app.getHttpServer()).post(`/patients/${PATIENT}/proposals`).set('authorization', await bearer('dr.okafor')).send(PROPOSAL_BODY).expect(201);
    ids.proposalId = created.body.id;
    before = await counts();
  });
  afterAll(() => sut.close());

  const http = () => request(sut.app.getHttpServer());

  function expectProblem(res: { status: number; headers: Record<string, string | string[] | undefined>; body: Record<string, unknown> }, status: number, code: string) {
    expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.status).toBe(status);
    expect(res.body.correlationId).toEqual(expect.any(String));
    expect(res.headers['x-correlation-id']).toBe(res.body.correlationId);
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toMatch(/at \w+ \(|node_modules|SyntaxError|RangeError/);
  }

  describe.each(POSTS.map((route) => [route.name, route]))('%s', (_name, route) => {
    it.each(HOSTILE_BODIES)('refuses %s', async (_kind, headers, body, status, code) => {
      // fetch sends the bytes as given (superagent would serialise a Buffer sent as JSON).
      const reply = await fetch(`${baseUrlOf(sut.app.getHttpServer())}${route.path(ids)}`, {
        method: 'POST',
        headers: { authorization: await bearer(route.caller), ...headers },
        body: typeof body === 'string' ? Buffer.from(body) : body,
      });
      const res = { status: reply.status, headers: Object.fromEntries(reply.headers), body: (await reply.json()) as Record<string, unknown> };
      expectProblem(res, status, code);
    });

    it.each(PROTOTYPE_BODIES)('refuses a %s field by name', async (_kind, body, field) => {
      const res = await http().post(route.path(ids)).set('authorization', await bearer(route.caller)).set('content-type', 'application/json').send(body);
      expectProblem(res, 400, 'validation_failed');
      expect(res.body.errors).toEqual([{ field, reason: 'forbidden_field', message: `${field} is not an allowed field name` }]);
    });

    it.each(HOSTILE_TEXT)('refuses %s in a free-text field by name', async (_kind, text) => {
      const body = route.body(ids);
      route.freeText.set(body, text);
      const res = await http().post(route.path(ids)).set('authorization', await bearer(route.caller)).send(body);
      expectProblem(res, 400, 'validation_failed');
      expect(res.body.errors).toEqual([expect.objectContaining({ field: route.freeText.field, reason: 'isStorableText' })]);
    });

    it('refuses ?__proto__=1 by name', async () => {
      const res = await http().post(`${route.path(ids)}?__proto__=1`).set('authorization', await bearer(route.caller)).send(route.body(ids));
      expectProblem(res, 400, 'validation_failed');
      expect(res.body.errors).toEqual([expect.objectContaining({ field: '__proto__', reason: 'forbidden_field' })]);
    });

    it('refuses a signed token whose subject holds NUL', async () => {
      const res = await http().post(route.path(ids)).set('authorization', `Bearer ${await sut.tokenFor('dr.okafor\u0000')}`).send(route.body(ids));
      expectProblem(res, 401, 'unauthenticated');
    });
  });

  describe.each(GETS.map((route) => [route.name, route]))('%s', (_name, route) => {
    it.each(['__proto__', 'constructor', 'prototype'])('refuses ?%s=1 by name', async (key) => {
      const res = await http().get(`${route.path(ids)}?${key}=1`).set(route.caller ? { authorization: await bearer(route.caller) } : {});
      expectProblem(res, 400, 'validation_failed');
      expect(res.body.errors).toEqual([expect.objectContaining({ field: key, reason: 'forbidden_field' })]);
    });

    if (route.caller) {
      it('refuses a signed token whose subject holds NUL', async () => {
        const res = await http().get(route.path(ids)).set('authorization', `Bearer ${await sut.tokenFor('dr.okafor\u0000')}`);
        expectProblem(res, 401, 'unauthenticated');
      });
    }

    if (route.integer) {
      it.each(['0x10', '1e1', '%2010', '10%20', '10.0', '+10', '010', '1_0', '１０'])('refuses %s as an integer', async (value) => {
        const res = await http().get(`${route.path(ids)}?${route.integer}=${encodeURIComponent(value).replace('%25', '%')}`).set(route.caller ? { authorization: await bearer(route.caller) } : {});
        expectProblem(res, 400, 'validation_failed');
        // Left a string, it also fails min/max; what matters is that it is not read as a number.
        expect(res.body.errors).toContainEqual(expect.objectContaining({ field: route.integer, reason: 'isInt' }));
        expect(res.body.errors.every((error: { field: string }) => error.field === route.integer)).toBe(true);
      });
    }
  });

  describe.each(PATHS.map((entry) => [entry.path({ proposalId: 'ID' }), entry]))('%s', (_name, entry) => {
    it.each(['put', 'patch', 'delete', 'options', ...(entry.allow.includes('GET') ? [] : ['get']), ...(entry.allow.includes('POST') ? [] : ['post'])] as const)('answers %s with 405 and Allow', async (method) => {
      const res = await http()[method as 'put'](entry.path(ids)).set('authorization', await bearer('rev.santos'));
      expectProblem(res, 405, 'method_not_allowed');
      expect(res.headers.allow).toBe(entry.allow);
    });

    it.each(UNPARSABLE)('answers %s with a minimal problem', async (_kind, head, status) => {
      const res = await rawExchange(sut.app.getHttpServer(), head(entry.path(ids)));
      expectProblem(res, status, res.body.code as string);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'correlationId', 'detail', 'status', 'title', 'type']);
    });
  });

  it.each([
    ['patientId', `/patients/%zz/labs`],
    ['patientId', `/patients/%zz/agent/turns/${UNKNOWN_ID}`],
    ['turnId', `/patients/${PATIENT}/agent/turns/%zz`],
    ['proposalId', '/proposals/%zz'],
  ])('refuses %%zz as the %s of %s with a problem', async (_param, path) => {
    const res = await http().get(path).set('authorization', await bearer('dr.okafor'));
    expectProblem(res, 400, 'bad_request');
  });

  it.each([
    ['an id of 36 dashes', ['2026-06-30T10:11:12.123456Z', '-'.repeat(36)]],
    ['1 as the time', ['1', UNKNOWN_ID]],
    ['2021-02-30 as the time', ['2021-02-30', UNKNOWN_ID]],
    ['2021-02-30 as a full timestamp', ['2021-02-30T00:00:00.000000Z', UNKNOWN_ID]],
  ])('refuses a hand-made cursor (the old unsealed form) with %s', async (_kind, parts) => {
    const cursor = Buffer.from(JSON.stringify(parts)).toString('base64url');
    const res = await http().get(`/proposals?cursor=${cursor}`).set('authorization', await bearer('rev.santos'));
    expectProblem(res, 400, 'validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'cursor', reason: 'invalid_cursor' })]);
  });

  it.each([
    ['U+0085 (NEL)', 'Cardiac arrest\u0085covering tonight'],
    ['U+009B (CSI)', 'Cardiac arrest \u009b31m covering'],
    ['a tab', 'Cardiac arrest\tcovering tonight'],
  ])('refuses a break-glass reason holding %s, and stores no reason', async (_kind, reason) => {
    const south = patientIdOf('south-asthma');
    const res = await http().get(`/patients/${south}/labs`).set('authorization', await bearer('dr.okafor')).set('x-break-glass-reason', reason);
    expectProblem(res, 400, 'validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'x-break-glass-reason', reason: 'isSingleLineText' })]);
    const stored = await database().dataSource.query(`SELECT count(*)::int AS n FROM audit_events WHERE break_glass_reason = $1`, [reason]);
    expect(stored[0].n).toBe(0);
  });

  it('changed nothing: every refused request left the written tables as they were', async () => {
    expect(await counts()).toEqual(before);
    const [proposal] = await database().dataSource.query(`SELECT status, current_version FROM proposals WHERE id = $1`, [ids.proposalId]);
    expect(proposal).toEqual({ status: 'pending', current_version: 1 });
  });
});
