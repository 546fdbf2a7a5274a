import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { SqlSession } from '../schema/sql-session';
import {
  AUDIT_SEALER_LOCK_KEY,
  INSERT_AUDIT_SEALS,
  SealHead,
  SELECT_OLDEST_UNSEALED,
  SELECT_SEAL_HEAD,
  SELECT_SEAL_HORIZON,
  SELECT_SEALABLE_EVENTS,
  StoredAuditEvent,
  TRY_LEAD_AUDIT_SEALER,
} from './audit.sql';

/** A position in chain order: (the inserting transaction, the event id). */
export interface ChainPosition {
  xactId: string;
  id: string;
}

/** Before every event: the inline-chained prefix has xact_id 0, every later event a real transaction id. */
export const CHAIN_START: ChainPosition = { xactId: '-1', id: '0' };

/** One link to append. */
export interface NewSeal {
  seq: string;
  eventId: string;
  prevHash: string;
  hash: string;
}

export async function sealHead(db: SqlSession): Promise<SealHead | undefined> {
  const [head] = await db.query<SealHead[]>(SELECT_SEAL_HEAD);
  return head;
}

/** The sealing horizon (see `SELECT_SEAL_HORIZON`): the first statement of a sealing transaction. */
export async function sealHorizon(db: SqlSession): Promise<string> {
  const [row] = await db.query<{ horizon: string }[]>(SELECT_SEAL_HORIZON);
  return row.horizon;
}

export function sealableEvents(db: SqlSession, after: ChainPosition, horizon: string, limit: number): Promise<StoredAuditEvent[]> {
  return db.query<StoredAuditEvent[]>(SELECT_SEALABLE_EVENTS, [after.xactId, after.id, horizon, limit]);
}

export async function insertSeals(db: SqlSession, seals: readonly NewSeal[]): Promise<void> {
  await db.query(INSERT_AUDIT_SEALS, [seals.map((s) => s.seq), seals.map((s) => s.eventId), seals.map((s) => s.prevHash), seals.map((s) => s.hash)]);
}

/** Epoch milliseconds of the oldest visible event after `after`, or null when there is none. */
export async function oldestUnsealedMs(db: SqlSession, after: ChainPosition): Promise<number | null> {
  const [row] = await db.query<{ oldestMs: number | null }[]>(SELECT_OLDEST_UNSEALED, [after.xactId, after.id]);
  return row?.oldestMs ?? null;
}

/**
 * The connection a sealer works on: its leadership lock and its sealing transactions share it, so
 * a sealer whose connection died can neither hold the lock nor commit a link.
 */
export interface SealerSession {
  /** Takes the leader's lock if it is free (held until the session ends); true when this session leads. */
  tryLead(): Promise<boolean>;
  /** Runs `work` in one READ COMMITTED transaction (each statement sees what committed before it). */
  transaction<T>(work: (db: SqlSession) => Promise<T>): Promise<T>;
  /** A plain statement outside any transaction of the sealer's. */
  query: SqlSession['query'];
  /** True once the connection has failed: the sealer drops it and connects again. */
  readonly broken: boolean;
  close(): Promise<void>;
}

/** Bounds of the sealer's own connection: no statement or open transaction hangs on forever. */
const SEALER_CONNECTION = { statement_timeout: 30_000, lock_timeout: 10_000, idle_in_transaction_session_timeout: 60_000 };

/**
 * A connection of the sealer's own on a Postgres server (not from the pool): the session-level
 * advisory lock lives exactly as long as it does, so a killed leader's lock vanishes with it and a
 * standby takes over.
 */
export async function dedicatedSealerSession(url: string): Promise<SealerSession> {
  const client = new Client({ connectionString: url, application_name: 'vigil-audit-sealer', connectionTimeoutMillis: 5_000, ...SEALER_CONNECTION });
  let broken = false;
  // A terminated backend emits 'error' on an idle client: without a listener it would crash the process.
  client.on('error', () => (broken = true));
  client.on('end', () => (broken = true));
  await client.connect();
  const query = async <T>(sql: string, parameters?: unknown[]): Promise<T> => (await client.query(sql, parameters)).rows as T;
  return {
    tryLead: async () => (await query<{ leads: boolean }[]>(TRY_LEAD_AUDIT_SEALER, [AUDIT_SEALER_LOCK_KEY]))[0].leads,
    query,
    get broken() {
      return broken;
    },
    async transaction<T>(work: (db: SqlSession) => Promise<T>): Promise<T> {
      await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
      try {
        const result = await work({ query });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    close: () => client.end().catch(() => undefined),
  };
}

/**
 * The embedded database (PGlite) is one backend shared by every client of one process: the sealer
 * runs its transactions through the app's own pool of one, and leads trivially (one process).
 */
export function sharedSealerSession(dataSource: DataSource): SealerSession {
  return {
    tryLead: async () => true,
    query: (sql, parameters) => dataSource.query(sql, parameters),
    broken: false,
    transaction: (work) => dataSource.transaction('READ COMMITTED', (manager) => work(manager)),
    close: async () => undefined,
  };
}
