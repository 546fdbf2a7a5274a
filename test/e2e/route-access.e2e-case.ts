import request from 'supertest';
import { REVIEW_PAGE_NAMES } from '../../src/approvals/review-page/review-page.controller';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { baseUrlOf, openEventStream } from '../setup/event-stream';
import { storedResultsReady } from '../setup/stored-results';

/** Everyone who reads patient data through the tools (analysts get counts, the privacy officer the audit report). */
const ALL_STAFF = [StaffRole.Clinician, StaffRole.CareCoordinator, StaffRole.Reviewer];
const QUEUE_READERS = [StaffRole.Clinician, StaffRole.CareCoordinator, StaffRole.Reviewer];
type Access = 'public' | StaffRole[];

/**
 * Who may call what, written out by hand: the test fails when a route appears that is not listed
 * here, so every new route gets a deliberate access decision.
 */
const EXPECTED: Record<string, Access> = {
  'GET /health': 'public',
  'GET /health/ready': 'public',
  'GET /patients': QUEUE_READERS,
  'GET /care-teams/{code}/worklist': [StaffRole.Clinician, StaffRole.CareCoordinator],
  'GET /patients/{patientId}/encounters': ALL_STAFF,
  'GET /patients/{patientId}/labs': ALL_STAFF,
  'GET /patients/{patientId}/care-gaps': ALL_STAFF,
  'GET /patients/{patientId}/missing-data': ALL_STAFF,
  'GET /patients/{patientId}/readmission-risk': ALL_STAFF,
  // DEQM $care-gaps: care_gap_lookup as FHIR documents, so the tools' readers (a care team's, as its worklist: not reviewers).
  'GET /fhir/Measure/$care-gaps': ALL_STAFF,
  // The same operation with a FHIR Parameters body: the same readers.
  'POST /fhir/Measure/$care-gaps': ALL_STAFF,
  'POST /patients/{patientId}/proposals': [StaffRole.Clinician, StaffRole.CareCoordinator],
  // A turn may file proposals in the caller's name, and order_lab is a clinician's to propose.
  'POST /patients/{patientId}/agent/turns': [StaffRole.Clinician],
  // The stored turn holds what the model read under the agent projection: the same clinicians as the turn.
  'GET /patients/{patientId}/agent/turns/{turnId}': [StaffRole.Clinician],
  'GET /proposals': QUEUE_READERS,
  'GET /proposals/events': QUEUE_READERS,
  'GET /proposals/{proposalId}': QUEUE_READERS,
  'POST /proposals/{proposalId}/approve': [StaffRole.Reviewer],
  'POST /proposals/{proposalId}/reject': [StaffRole.Reviewer],
  'POST /proposals/{proposalId}/edit-and-approve': [StaffRole.Reviewer],
  'POST /proposals/{proposalId}/withdraw-approval': [StaffRole.Reviewer],
  'POST /proposals/{proposalId}/cancel': [StaffRole.Clinician, StaffRole.CareCoordinator],
  // Drafts are filed by agent turns, which are clinicians' alone; only the draft's author gets further.
  'POST /proposals/{proposalId}/submit': [StaffRole.Clinician],
  'POST /proposals/{proposalId}/discard': [StaffRole.Clinician],
  // The break-glass report names patients and reasons: the privacy officer's alone.
  'GET /audit/break-glass': [StaffRole.PrivacyOfficer],
  // Counts, not records: the analysts' de-identified tables (not the privacy officer's: the audit trail is theirs).
  'GET /population/measures': [StaffRole.Analyst],
  // Reference material, no patient data: the measures Vigil evaluates and those loaded as data, for every role.
  'GET /measures': Object.values(StaffRole),
  // The reviewers' page: static files, no data (everything it shows comes through the routes above).
  'GET /review': 'public',
  ...Object.fromEntries(REVIEW_PAGE_NAMES.map((name) => [`GET /review/${name}`, 'public' as const])),
  // MCP (JSON-RPC over Streamable HTTP, one URL per patient): results are a model's reading for a
  // clinician and propose_action files in their name, so clinicians only, as the agent's turns.
  'POST /mcp/patients/{patientId}': [StaffRole.Clinician],
  'DELETE /mcp/patients/{patientId}': [StaffRole.Clinician],
  // The same without a patient in the URL: the person chooses it in a form their client shows.
  'POST /mcp': [StaffRole.Clinician],
  'DELETE /mcp': [StaffRole.Clinician],
  // OAuth protected resource metadata (RFC 9728): how an MCP client discovers where to sign in.
  'GET /.well-known/oauth-protected-resource': 'public',
  'GET /.well-known/oauth-protected-resource/mcp': 'public',
  'GET /.well-known/oauth-protected-resource/mcp/patients/{patientId}': 'public',
};
/** Writes that take no body: let through by the guard, they look the (unknown) proposal up. */
const BODYLESS_WRITES = new Set(['POST /proposals/{proposalId}/submit', 'POST /proposals/{proposalId}/discard']);
/** Routes that are not REST API operations, so not in the OpenAPI document (MCP speaks JSON-RPC; see README). */
const NOT_IN_OPENAPI = new Set([
  'GET /review', ...REVIEW_PAGE_NAMES.map((name) => `GET /review/${name}`),
  'POST /mcp/patients/{patientId}', 'DELETE /mcp/patients/{patientId}', 'POST /mcp', 'DELETE /mcp',
  'GET /.well-known/oauth-protected-resource', 'GET /.well-known/oauth-protected-resource/mcp', 'GET /.well-known/oauth-protected-resource/mcp/patients/{patientId}',
]);
/** A stream never ends: for it, the matrix reads the status and headers, then hangs up. */
const EVENT_STREAM = '/proposals/events';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const PATIENT = 'complete-record';

describe('every route × method × role', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let documented: string[];
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    await sut.app.listen(0, '127.0.0.1'); // for the event stream, read with node:http
    await storedResultsReady(sut.app); // the worklist and the analysts' counts answer from them
    const doc = (await request(sut.app.getHttpServer()).get('/docs-json')).body as { paths: Record<string, Record<string, unknown>> };
    documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
  });
  afterAll(() => sut.close());

  it('lists every documented route, and only those', () => {
    expect(documented.sort()).toEqual(Object.keys(EXPECTED).filter((route) => !NOT_IN_OPENAPI.has(route)).sort());
  });

  const paths = [...new Set(Object.keys(EXPECTED).map((route) => route.split(' ')[1]))];
  const callers = ['anonymous', ...Object.values(StaffRole)] as const;
  const cases = paths.flatMap((path) => METHODS.flatMap((method) => callers.map((caller) => [path, method, caller] as const)));

  it.each(cases)('%s %s as %s', async (path, method, caller) => {
    // An unknown proposal (or turn) id: the guard's decision is what is under test, not the proposal's.
    const unknownId = '00000000-0000-4000-8000-000000000000';
    // The patient search needs a search to be a valid request, and $care-gaps its required parameters.
    const query =
      path === '/patients'
        ? '?mrn=VGL-000000'
        : path === '/fhir/Measure/$care-gaps'
          ? `?subject=Patient/${patientIdOf(PATIENT)}&periodStart=2025-07-01&periodEnd=2026-06-30&status=open-gap`
          : '';
    const url = `${path.replace('{code}', 'primary-care-north').replace('{patientId}', patientIdOf(PATIENT)).replace('{proposalId}', unknownId).replace('{turnId}', unknownId)}${query}`;
    const username = caller === StaffRole.PrivacyOfficer ? 'po.achebe' : caller === 'anonymous' ? null : userFor(caller, PATIENT).username;
    const token = username === null ? undefined : await sut.tokenFor(username);
    let req = request(sut.app.getHttpServer())[method](url);
    if (token) req = req.set('authorization', `Bearer ${token}`);
    const res = path === EVENT_STREAM && method === 'get' ? await headersOf(openEventStream(baseUrlOf(sut.app.getHttpServer()), url, token)) : await req;
    const access = EXPECTED[`${method.toUpperCase()} ${path}`];
    // A known path asked with a method it does not answer: 405, with the methods it does answer.
    if (!access) expect({ status: res.status, allow: res.headers.allow }).toEqual({ status: 405, allow: allowedOn(path) });
    else if (access === 'public') expect(res.status).toBe(200);
    else if (caller === 'anonymous') expect(res.status).toBe(401);
    else if (!access.includes(caller)) expect(res.status).toBe(403);
    // Let through by the guard: a read of the unknown proposal or turn is "not found", any other read
    // answers, a write without a body is refused by validation (MCP: no JSON-RPC body, no session), and a
    // write that takes none is "not found".
    else if (BODYLESS_WRITES.has(`${method.toUpperCase()} ${path}`)) expect(res.status).toBe(404);
    else expect(res.status).toBe(method !== 'get' ? 400 : /\{(proposalId|turnId)\}/.test(path) ? 404 : 200);
    expect(res.status === 200 || res.headers['content-type']?.startsWith('application/problem+json')).toBe(true);
    if (path === EVENT_STREAM && res.status === 200) expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    // MCP clients learn where to sign in from the 401 (RFC 9728 §5.1).
    if (path.startsWith('/mcp') && res.status === 401) expect(res.headers['www-authenticate']).toMatch(/^Bearer resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/mcp"$/);
  });
});

/** The methods EXPECTED lists for a path, as an `Allow` header (HEAD comes with GET). */
function allowedOn(path: string): string {
  const methods = Object.keys(EXPECTED).filter((route) => route.split(' ')[1] === path).map((route) => route.split(' ')[0]);
  // `/proposals/events` is also matched by `/proposals/{proposalId}`: both are GET.
  if (methods.includes('GET')) methods.push('HEAD');
  return [...new Set(methods)].sort().join(', ');
}

async function headersOf(opening: ReturnType<typeof openEventStream>): Promise<{ status: number; headers: Record<string, string> }> {
  const stream = await opening;
  stream.close();
  return { status: stream.status, headers: stream.headers as Record<string, string> };
}
