import { setTimeout as sleep } from 'node:timers/promises';
import { SqlSession } from '../src/schema/sql-session';

/**
 * The audit sealer's lag as the database records it, for `bench:seal` and the scale-out part of
 * `npm run bench`: every event's insert to seal (`sealed_at` − `occurred_at`; `sealed_at` is the
 * sealing transaction's start), over the events with ids in a range.
 */

export interface InsertToSeal {
  events: number;
  p50: number;
  p99: number;
  max: number;
}

/** The highest event id so far ('0' on an empty trail): events after it are the ones a run wrote. */
export async function lastEventId(db: SqlSession): Promise<string> {
  const [{ last }] = await db.query<{ last: string }[]>(`SELECT coalesce(max(id), 0)::text AS last FROM audit_events`);
  return last;
}

/** Waits (up to `timeoutMs`) until every event after `afterId` is sealed; resolves with how many are still waiting. */
export async function waitUntilSealed(db: SqlSession, afterId: string, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ waiting }] = await db.query<{ waiting: number }[]>(
      `SELECT count(*)::int AS waiting FROM audit_events e WHERE e.id > $1 AND NOT EXISTS (SELECT 1 FROM audit_seals s WHERE s.event_id = e.id)`,
      [afterId],
    );
    if (waiting === 0 || Date.now() > deadline) return waiting;
    await sleep(100);
  }
}

/** Insert to seal of the sealed events with ids in (`afterId`, `upToId`] (no upper bound when omitted), in ms. */
export async function insertToSeal(db: SqlSession, afterId: string, upToId?: string): Promise<InsertToSeal> {
  const [row] = await db.query<{ events: number; p50: number | null; p99: number | null; max: number | null }[]>(
    `SELECT count(*)::int AS events, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99, max(ms) AS max
       FROM (SELECT extract(epoch FROM s.sealed_at - e.occurred_at) * 1000 AS ms FROM audit_events e JOIN audit_seals s ON s.event_id = e.id
              WHERE e.id > $1::bigint AND ($2::bigint IS NULL OR e.id <= $2::bigint)) lags`,
    [afterId, upToId ?? null],
  );
  return { events: row.events, p50: Number(row.p50 ?? NaN), p99: Number(row.p99 ?? NaN), max: Number(row.max ?? NaN) };
}
