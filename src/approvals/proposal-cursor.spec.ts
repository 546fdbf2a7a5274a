import { ProblemException } from '../common/http/problem';
import { decodeCursor, encodeCursor } from './proposal-cursor';

const ID = '6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11';
const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('proposal cursor', () => {
  it('reads back what it wrote', () => {
    const row = { createdAt: '2026-06-30T10:11:12.123456Z', id: ID };
    expect(decodeCursor(encodeCursor(row))).toEqual(row);
  });

  it.each([
    ['36 dashes as the id', forge(['2026-06-30T10:11:12.123456Z', '-'.repeat(36)])],
    ['1 as the time', forge(['1', ID])],
    ['a day that does not exist', forge(['2021-02-30T00:00:00.000000Z', ID])],
    ['a date without a time', forge(['2021-02-28', ID])],
    ['hour 24', forge(['2026-06-30T24:00:00.000000Z', ID])],
    ['a number as the time', forge([1, ID])],
    ['three parts', forge(['2026-06-30T10:11:12.123456Z', ID, 'x'])],
    ['an object', forge({ createdAt: '2026-06-30T10:11:12.123456Z', id: ID })],
    ['not JSON', Buffer.from('[nope').toString('base64url')],
    ['not base64url JSON at all', '%%%'],
  ])('refuses %s as a 400 naming the cursor', (_name, cursor) => {
    let thrown: unknown;
    try {
      decodeCursor(cursor);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProblemException);
    expect((thrown as ProblemException).getStatus()).toBe(400);
    expect((thrown as ProblemException).errors).toEqual([expect.objectContaining({ field: 'cursor', reason: 'isCursor' })]);
  });
});
