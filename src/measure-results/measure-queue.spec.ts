import { UnrecoverableError } from 'bullmq';
import { cohortChunks, listedChunks, onePeriod } from './measure-runs.repository';
import { isMeasureJobData, measureJobId, RECOMPUTE_CHUNK_JOB } from './measure-queue.constants';
import { handleMeasureJob } from './measure.worker';
import { decodeResultCursor, encodeResultCursor, InvalidResultCursorError } from './result-cursor';

const A = '10000000-0000-4000-8000-000000000000';
const B = '20000000-0000-4000-8000-000000000000';

describe('recompute chunks', () => {
  it('cover every id exactly once: open below the first boundary and above the last', () => {
    expect(cohortChunks([{ id: A }, { id: B }])).toEqual([
      { afterId: null, throughId: A },
      { afterId: A, throughId: B },
      { afterId: B, throughId: null },
    ]);
    // An empty cohort still gets one chunk, open at both ends: patients added meanwhile are not missed.
    expect(cohortChunks([])).toEqual([{ afterId: null, throughId: null }]);
  });

  it('slice a listed run by count', () => {
    expect(listedChunks(5, 2)).toHaveLength(3);
    expect(listedChunks(4, 2)).toHaveLength(2);
    expect(listedChunks(1, 250)).toHaveLength(1);
  });

  it('write the results of one period, which the stamp takes once; a mix is refused', () => {
    const row = (start: string, end: string) => ({ period_start: start, period_end: end });
    expect(onePeriod([row('2025-01-01', '2025-12-31'), row('2025-01-01', '2025-12-31')])).toEqual({ start: '2025-01-01', end: '2025-12-31' });
    expect(() => onePeriod([row('2025-01-01', '2025-12-31'), row('2025-01-02', '2026-01-01')])).toThrow(RangeError);
    expect(() => onePeriod([row('2025-01-01', '2025-12-31'), row('2025-01-01', '2026-01-01')])).toThrow(RangeError);
    expect(() => onePeriod([])).toThrow(RangeError);
  });
});

describe('recompute jobs', () => {
  const chunk = { runId: '17', chunkNo: 3, periodStart: '2025-12-03', periodEnd: '2026-12-02' };

  it('have ids made of period, generation and chunk, without `:`', () => {
    expect(measureJobId(chunk)).toBe('measures-2025-12-03-2026-12-02-g17-c3');
    expect(measureJobId({ ...chunk, runId: '18' })).not.toBe(measureJobId(chunk));
    expect(measureJobId(chunk)).not.toContain(':');
  });

  it('accept only ids as data', () => {
    expect(isMeasureJobData({ runId: '17', chunkNo: 0 })).toBe(true);
    for (const data of [null, {}, { runId: 17, chunkNo: 0 }, { runId: '1; DROP', chunkNo: 0 }, { runId: '17', chunkNo: -1 }, { runId: '17', chunkNo: 1.5 }]) {
      expect(isMeasureJobData(data)).toBe(false);
    }
  });

  it('refuse a job they do not know, without calling the recompute', async () => {
    const sut = jest.fn();
    await expect(handleMeasureJob({ name: 'other', data: { runId: '1', chunkNo: 0 } }, sut)).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(handleMeasureJob({ name: RECOMPUTE_CHUNK_JOB, data: { runId: 'x', chunkNo: 0 } }, sut)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(sut).not.toHaveBeenCalled();
  });

  it('store a failure as its type and code, never its message', async () => {
    const failure = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432 patient Jane Doe'), { code: 'ECONNREFUSED' });
    const error = await handleMeasureJob({ name: RECOMPUTE_CHUNK_JOB, data: { runId: '1', chunkNo: 0 } }, jest.fn().mockRejectedValue(failure)).catch((caught: Error) => caught);
    expect((error as Error).message).toBe('Error ECONNREFUSED');
  });
});

describe('result cursors', () => {
  const measures = ['CMS122', 'CMS165', 'CMS139'];

  it('round-trip what they encode, a loaded measure the period has included', () => {
    expect(decodeResultCursor(encodeResultCursor({ patientId: A, measureId: 'CMS165' }), measures)).toEqual({ patientId: A, measureId: 'CMS165' });
    expect(decodeResultCursor(encodeResultCursor({ patientId: A, measureId: 'CMS139' }), measures)).toEqual({ patientId: A, measureId: 'CMS139' });
  });

  it('refuse anything else, a measure the period does not have included', () => {
    const forged = ['', 'abc', Buffer.from('[1,2]').toString('base64url'), Buffer.from(`["${A}","CMS999"]`).toString('base64url'), Buffer.from(`["${A}"]`).toString('base64url')];
    for (const cursor of forged) expect(() => decodeResultCursor(cursor, measures)).toThrow(InvalidResultCursorError);
    expect(() => decodeResultCursor(encodeResultCursor({ patientId: A, measureId: 'CMS139' }), ['CMS122'])).toThrow(InvalidResultCursorError);
  });
});
