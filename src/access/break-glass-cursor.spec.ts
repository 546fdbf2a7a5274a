import { ProblemException } from '../common/http/problem';
import { AppConfig } from '../config/app-config';
import { NodeEnv } from '../config/environment.schema';
import { CURSOR_LIFETIME_MS, CursorSealer } from '../phi/sealed-cursor';
import { breakGlassReportBinding, openCursor, sealCursor } from './break-glass-cursor';

const OFFICER = 'd1a3c1f0-0000-4000-8000-000000000001';
const sealer = new CursorSealer({ env: NodeEnv.Production, pseudonyms: { key: 'c'.repeat(64), keyFile: 'unused' } } as AppConfig);

function refusal(open: () => unknown): ProblemException {
  let thrown: unknown;
  try {
    open();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ProblemException);
  expect((thrown as ProblemException).getStatus()).toBe(400);
  expect((thrown as ProblemException).errors).toEqual([{ field: 'cursor', reason: 'invalid_cursor', message: 'cursor is not a cursor of this list' }]);
  return thrown as ProblemException;
}

describe('break-glass report cursor', () => {
  afterEach(() => jest.restoreAllMocks());

  it('gives back the event id it was sealed at, for the same privacy officer, and shows nothing of it', () => {
    const cursor = sealCursor(sealer, breakGlassReportBinding(OFFICER), '123456789');
    expect(openCursor(sealer, breakGlassReportBinding(OFFICER), cursor)).toBe('123456789');
    expect(cursor).not.toMatch(/^[0-9]+$/);
    expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toContain('123456789');
  });

  it.each([
    ['a bare event id, as the report issued them before', '123456789'],
    ['another officer’s cursor', sealCursor(sealer, breakGlassReportBinding('d1a3c1f0-0000-4000-8000-000000000002'), '123456789')],
    ['another list’s cursor for the same user', sealer.seal({ ...breakGlassReportBinding(OFFICER), list: 'review-queue' }, '123456789')],
    ['random base64url', 'q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJ'],
  ])('refuses %s as a 400 naming the cursor', (_case, cursor) => {
    expect(refusal(() => openCursor(sealer, breakGlassReportBinding(OFFICER), cursor)).detail).toBe(
      'The cursor was not issued to you for this list, or it has expired: start from the first page.',
    );
  });

  it('refuses a cursor an hour after it was issued', () => {
    const issuedAt = Date.now();
    const now = jest.spyOn(Date, 'now').mockReturnValue(issuedAt);
    const cursor = sealCursor(sealer, breakGlassReportBinding(OFFICER), '42');
    now.mockReturnValue(issuedAt + CURSOR_LIFETIME_MS + 1);
    refusal(() => openCursor(sealer, breakGlassReportBinding(OFFICER), cursor));
  });

  // What a sealed position holds is still checked before it reaches SQL.
  it.each([['0'], ['-1'], ['1e3'], [' 1'], ['1'.repeat(19)], [42], [null], [['42']]])('refuses a sealed position holding %j', (position) => {
    const binding = breakGlassReportBinding(OFFICER);
    refusal(() => openCursor(sealer, binding, sealer.seal(binding, position)));
  });
});
