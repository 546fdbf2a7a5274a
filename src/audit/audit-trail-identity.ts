import { createHash } from 'node:crypto';
import { SqlSession } from '../schema/sql-session';
import { canonicalJson } from './audit-hash';
import { SELECT_SYSTEM_IDENTIFIER, SELECT_TRAIL_DATABASE } from './audit.sql';

/**
 * Which audit trail a checkpoint seals. Checkpoints of several databases can meet in one
 * directory (the quickstart's embedded database, then a Postgres server, with the same defaults);
 * without a name, one database's checkpoints read as the other's truncated or rewritten chain.
 *
 * - `systemIdentifier`: the server's, made by initdb (`pg_control_system()`): every database of a
 *   server shares it, a different server (or a `pg_upgrade`d one) has another. PGlite makes one per
 *   data directory. Null where the server refuses the function: the other two parts then name the trail.
 * - `databaseOid`: the database's oid, kept for its lifetime (renames included); a clone
 *   (`CREATE DATABASE … TEMPLATE`) or a restore into a new database gets another.
 * - `installationId`: a random id written once per database by a migration (`vigil_installation`),
 *   so that a dropped and recreated database is never taken for the one before it.
 */
export interface AuditTrailIdentity {
  /** 16 hex digits of SHA-256 over the other three: the trail's name in directory and file names. */
  id: string;
  systemIdentifier: string | null;
  databaseOid: string;
  installationId: string;
}

export type TrailParts = Omit<AuditTrailIdentity, 'id'>;

/** Raised when the database has no installation id: its schema predates trail identities. */
export class TrailIdentityMissingError extends Error {
  constructor() {
    super('This database has no installation id (vigil_installation): run the migrations first');
    this.name = 'TrailIdentityMissingError';
  }
}

export function trailIdOf(parts: TrailParts): string {
  const { systemIdentifier, databaseOid, installationId } = parts;
  return createHash('sha256').update(canonicalJson({ systemIdentifier, databaseOid, installationId })).digest('hex').slice(0, 16);
}

export function trailIdentity(parts: TrailParts): AuditTrailIdentity {
  return { id: trailIdOf(parts), systemIdentifier: parts.systemIdentifier, databaseOid: parts.databaseOid, installationId: parts.installationId };
}

const UNDEFINED_TABLE = '42P01';

/** Reads the identity of the trail `db` is connected to (statements outside any transaction of the caller's). */
export async function readTrailIdentity(db: SqlSession): Promise<AuditTrailIdentity> {
  let database: { installationId: string; databaseOid: string } | undefined;
  try {
    [database] = await db.query<{ installationId: string; databaseOid: string }[]>(SELECT_TRAIL_DATABASE);
  } catch (error) {
    if ((error as { code?: string }).code === UNDEFINED_TABLE) throw new TrailIdentityMissingError();
    throw error;
  }
  if (!database) throw new TrailIdentityMissingError();
  let systemIdentifier: string | null = null;
  try {
    [{ systemIdentifier }] = await db.query<{ systemIdentifier: string }[]>(SELECT_SYSTEM_IDENTIFIER);
  } catch {
    // A managed server may revoke pg_control_system(): the database's oid and installation id still name the trail.
  }
  return trailIdentity({ systemIdentifier, ...database });
}

/**
 * How a checkpoint's trail relates to this one. `same`: this trail. `replaced`: this very database
 * (same server, same oid) under another installation id, which the migrations write once and the
 * table refuses to change: the trail's identity was rewritten, or the schema reverted and migrated
 * again (which drops the trail). `other`: another database's trail.
 */
export function compareTrails(own: AuditTrailIdentity, theirs: AuditTrailIdentity): 'same' | 'replaced' | 'other' {
  if (theirs.id === own.id) return 'same';
  const sameDatabase = own.systemIdentifier !== null && theirs.systemIdentifier === own.systemIdentifier && theirs.databaseOid === own.databaseOid;
  return sameDatabase ? 'replaced' : 'other';
}
