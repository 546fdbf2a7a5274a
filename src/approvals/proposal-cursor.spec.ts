import { ProblemException } from '../common/http/problem';
import { AppConfig } from '../config/app-config';
import { NodeEnv } from '../config/environment.schema';
import { CURSOR_LIFETIME_MS, CursorSealer } from '../phi/sealed-cursor';
import { ListProposalsQueryDto } from './dto/proposal-requests.dto';
import { ProposalKind, ProposalStatus } from './enum';
import { openCursor, reviewQueueBinding, sealCursor } from './proposal-cursor';

const ID = '6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11';
const USER = 'd1a3c1f0-0000-4000-8000-000000000001';
const ROW = { createdAt: '2026-06-30T10:11:12.123456Z', id: ID };
const QUERY: ListProposalsQueryDto = { status: ProposalStatus.Pending, kind: ProposalKind.ScheduleOutreach, patientId: ID, proposerId: USER, sort: 'oldest', limit: 2 };
const sealer = new CursorSealer({ env: NodeEnv.Production, pseudonyms: { key: 'c'.repeat(64), keyFile: 'unused' } } as AppConfig);
/** A cursor as the queue issued it before cursors were sealed: base64url JSON of the keyset. */
const oldForm = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function refusal(open: () => unknown): ProblemException {
  let thrown: unknown;
  try {
    open();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ProblemException);
  return thrown as ProblemException;
}

describe('review queue cursor', () => {
  afterEach(() => jest.restoreAllMocks());

  it('gives back the row it was sealed at, for the same caller, filters and sort, whatever the page size', () => {
    const cursor = sealCursor(sealer, reviewQueueBinding(USER, QUERY), ROW);
    expect(openCursor(sealer, reviewQueueBinding(USER, { ...QUERY, limit: 100 }), cursor)).toEqual(ROW);
    expect(openCursor(sealer, reviewQueueBinding(USER, { ...QUERY, limit: undefined }), cursor)).toEqual(ROW);
    // Ids in capitals are the same ids to Postgres; an omitted sort is the default one.
    expect(openCursor(sealer, reviewQueueBinding(USER, { ...QUERY, patientId: ID.toUpperCase(), proposerId: USER.toUpperCase() }), cursor)).toEqual(ROW);
    const newest = sealCursor(sealer, reviewQueueBinding(USER, {}), ROW);
    expect(openCursor(sealer, reviewQueueBinding(USER, { sort: 'newest' }), newest)).toEqual(ROW);
  });

  it('shows nothing of the row it stops at', () => {
    const cursor = sealCursor(sealer, reviewQueueBinding(USER, QUERY), ROW);
    const text = `${cursor} ${Buffer.from(cursor, 'base64url').toString('latin1')}`;
    for (const value of [ID, ID.slice(0, 8), '2026-06-30', '10:11:12']) expect(text).not.toContain(value);
  });

  it.each<[string, string, ListProposalsQueryDto]>([
    ['another user', 'd1a3c1f0-0000-4000-8000-000000000002', QUERY],
    ['another status', USER, { ...QUERY, status: ProposalStatus.Approved }],
    ['no status', USER, { ...QUERY, status: undefined }],
    ['another kind', USER, { ...QUERY, kind: ProposalKind.CloseCareGap }],
    ['another patient', USER, { ...QUERY, patientId: USER }],
    ['no patient', USER, { ...QUERY, patientId: undefined }],
    ['another proposer', USER, { ...QUERY, proposerId: ID }],
    ['another sort', USER, { ...QUERY, sort: 'newest' }],
  ])('refuses a cursor issued for %s as a 400 naming the cursor', (_case, userId, query) => {
    const cursor = sealCursor(sealer, reviewQueueBinding(USER, QUERY), ROW);
    const problem = refusal(() => openCursor(sealer, reviewQueueBinding(userId, query), cursor));
    expect(problem.getStatus()).toBe(400);
    expect(problem.errors).toEqual([{ field: 'cursor', reason: 'invalid_cursor', message: 'cursor is not a cursor of this list' }]);
    expect(problem.detail).toBe('The cursor was not issued to you for this list, filters and sort, or it has expired: start from the first page.');
  });

  it('refuses a cursor of another list sealed with the same key', () => {
    const cursor = sealer.seal({ ...reviewQueueBinding(USER, QUERY), list: 'worklist' }, [ROW.createdAt, ROW.id]);
    expect(refusal(() => openCursor(sealer, reviewQueueBinding(USER, QUERY), cursor)).errors).toEqual([expect.objectContaining({ field: 'cursor', reason: 'invalid_cursor' })]);
  });

  it('refuses a cursor an hour after it was issued', () => {
    const issuedAt = Date.now();
    const now = jest.spyOn(Date, 'now').mockReturnValue(issuedAt);
    const cursor = sealCursor(sealer, reviewQueueBinding(USER, QUERY), ROW);
    now.mockReturnValue(issuedAt + CURSOR_LIFETIME_MS - 1);
    expect(openCursor(sealer, reviewQueueBinding(USER, QUERY), cursor)).toEqual(ROW);
    now.mockReturnValue(issuedAt + CURSOR_LIFETIME_MS + 1);
    expect(refusal(() => openCursor(sealer, reviewQueueBinding(USER, QUERY), cursor)).getStatus()).toBe(400);
  });

  it.each([
    ['the old form of a real row', oldForm([ROW.createdAt, ROW.id])],
    ['the old form with 1 as the time', oldForm(['1', ID])],
    ['random base64url', 'q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJ'],
    ['not base64url at all', '%%%'],
  ])('refuses %s, a cursor it never sealed', (_case, cursor) => {
    expect(refusal(() => openCursor(sealer, reviewQueueBinding(USER, QUERY), cursor)).errors).toEqual([expect.objectContaining({ field: 'cursor', reason: 'invalid_cursor' })]);
  });

  // What a sealed position holds is still checked before it reaches SQL: a cursor that opens but holds
  // anything but (a real UTC timestamp with microseconds, a UUID) is refused, never cast.
  it.each([
    ['36 dashes as the id', ['2026-06-30T10:11:12.123456Z', '-'.repeat(36)]],
    ['1 as the time', ['1', ID]],
    ['a day that does not exist', ['2021-02-30T00:00:00.000000Z', ID]],
    ['a date without a time', ['2021-02-28', ID]],
    ['hour 24', ['2026-06-30T24:00:00.000000Z', ID]],
    ['a number as the time', [1, ID]],
    ['three parts', ['2026-06-30T10:11:12.123456Z', ID, 'x']],
    ['an object', { createdAt: '2026-06-30T10:11:12.123456Z', id: ID }],
    ['a string', 'x'],
    ['null', null],
  ])('refuses a sealed position holding %s as a 400 naming the cursor', (_name, position) => {
    const binding = reviewQueueBinding(USER, QUERY);
    const problem = refusal(() => openCursor(sealer, binding, sealer.seal(binding, position)));
    expect(problem.getStatus()).toBe(400);
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'cursor', reason: 'invalid_cursor' })]);
  });
});
