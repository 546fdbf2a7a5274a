import { createHash } from 'node:crypto';
import { AuditChannel, AuditOutcome } from './enum';

/**
 * The hash chain of the audit trail:
 *
 *   hash = sha256_hex(prevHash + "\n" + canonicalJson(content))
 *
 * where `content` is every content column of the event (not `id`, assigned by the database's
 * identity sequence, which may leave gaps; not `xact_id`, the chain position; not the links) plus
 * `prevHash`, the previous link's hash, or `GENESIS_HASH` for the first one. Changing, removing or
 * reordering any event breaks the link at that event or the one after it. Pure functions only: the
 * sealer computes the hash once the event has committed (`audit-sealer.ts`), and verification
 * recomputes it from the stored row.
 */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * Which columns an event's hash covers. Version 1: the columns of the first audit migration.
 * Version 2 (every event written since migration 1764530000000): also `hashVersion` itself,
 * `channel`, `breakGlass` and `actorName`, so none of them can be changed unnoticed. Version 3 (since
 * migration 1764573100000): also `targetStaffId` and `targetCareTeamId`. Old events keep their version
 * and verify as they always did; the version is itself hashed from version 2 on, so an event cannot be
 * passed off as an older version to escape its newer columns.
 */
export const CURRENT_HASH_VERSION = 3;

/** The columns a version-2 hash adds. */
export interface AuditEventV2Columns {
  hashVersion: 2;
  channel: AuditChannel;
  /** True only for a read that was allowed because the caller broke the glass. */
  breakGlass: boolean;
  /** Who ran a command on the server (the operating-system user), when no staff user did. */
  actorName: string | null;
}

/**
 * The columns a version-3 hash adds (every event written since migration 1764573100000): whom an
 * administrative change, or a step it caused, was about, by id. Null on every other event.
 */
export interface AuditEventV3Columns {
  hashVersion: 3;
  channel: AuditChannel;
  breakGlass: boolean;
  actorName: string | null;
  /** The staff member created, deactivated, added to or removed from a team (or whose approval or draft a cut-off ended). */
  targetStaffId: string | null;
  /** The care team created, or whose members or patients changed. */
  targetCareTeamId: string | null;
}

/** An event exactly as stored, in the form that is hashed: v1 columns, plus those of its own version. */
export type AuditEventContent = AuditEventV1Content | (AuditEventV1Content & AuditEventV2Columns) | (AuditEventV1Content & AuditEventV3Columns);

export interface AuditEventV1Content {
  /** UTC ISO 8601 with microseconds (`toAuditTimestamp`): the full precision of `timestamptz`. */
  occurredAt: string;
  actorId: string | null;
  actorRole: string | null;
  patientId: string | null;
  action: string;
  fields: string[];
  rowCount: number;
  outcome: AuditOutcome;
  breakGlassReason: string | null;
  correlationId: string | null;
  prevHash: string;
}

export type CanonicalValue = string | number | boolean | null | CanonicalValue[] | { [key: string]: CanonicalValue };

/**
 * JSON with object keys sorted (by UTF-16 code unit) at every depth and no whitespace, so the
 * same value always serialises to the same bytes, whatever order its keys were written in.
 * Only safe integers are accepted as numbers: a float's text form is not stable enough to hash.
 *
 * Built as a copy with its keys inserted in sorted order and serialised by one `JSON.stringify`
 * (the sealer hashes every event: building the string member by member took 1.6 times as long).
 * Those are the same bytes only while insertion order is output order, which V8 breaks for
 * array-index keys ("0", "10": listed first, numerically), and while every key lands as an own
 * member, which `__proto__` does not: a value with either is written member by member.
 */
export function canonicalJson(value: CanonicalValue): string {
  const copy = sortedCopy(value);
  return copy === INDEX_KEYS ? memberwise(value) : JSON.stringify(copy);
}

/**
 * Returned by `sortedCopy` for a value with a key somewhere that the copy cannot hold in order as an
 * own member: an array index (listed first), or `__proto__` (assigning it sets the copy's prototype,
 * so the member would vanish from the JSON).
 */
const INDEX_KEYS = Symbol('keys a copy cannot keep in order');

/** An array index as V8 orders it: a canonical decimal below 2^32 - 1. */
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;
const isArrayIndex = (key: string) => {
  const first = key.charCodeAt(0);
  // Most keys start with a letter: no regular expression for them.
  return first >= 48 && first <= 57 && ARRAY_INDEX.test(key) && Number(key) < 4294967295;
};

/** `value` with every object's keys inserted in sorted order, its numbers and undefineds checked. */
function sortedCopy(value: CanonicalValue): CanonicalValue | typeof INDEX_KEYS {
  if (Array.isArray(value)) {
    const copy: CanonicalValue[] = [];
    for (const item of value) {
      const sorted = sortedCopy(item);
      if (sorted === INDEX_KEYS) return INDEX_KEYS;
      copy.push(sorted);
    }
    return copy;
  }
  if (value !== null && typeof value === 'object') {
    const copy: { [key: string]: CanonicalValue } = {};
    for (const key of Object.keys(value).sort()) {
      const sorted = isArrayIndex(key) || key === '__proto__' ? INDEX_KEYS : sortedCopy(value[key]);
      if (sorted === INDEX_KEYS) return INDEX_KEYS;
      copy[key] = sorted;
    }
    return copy;
  }
  return checkedScalar(value);
}

/** The same JSON built member by member: any key order works. */
function memberwise(value: CanonicalValue): string {
  if (Array.isArray(value)) return `[${value.map(memberwise).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${memberwise(value[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(checkedScalar(value));
}

function checkedScalar(value: CanonicalValue): CanonicalValue {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw new TypeError('canonicalJson accepts integers only');
  }
  if (value === undefined) throw new TypeError('canonicalJson does not accept undefined');
  return value;
}

export function auditEventHash(content: AuditEventContent): string {
  const payload = `${content.prevHash}\n${canonicalJson({ ...content })}`;
  return createHash('sha256').update(payload, 'utf8').digest('hex');
}

/**
 * The timestamp form that is hashed. `Date` keeps milliseconds and `timestamptz` microseconds;
 * hashing all six digits means a change to the stored value at any precision is detected.
 */
export function toAuditTimestamp(date: Date): string {
  return date.toISOString().replace(/Z$/, '000Z');
}
