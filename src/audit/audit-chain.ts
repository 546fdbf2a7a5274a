import { SqlSession } from '../schema/sql-session';
import { auditEventsPage } from './audit.repository';
import { auditEventHash, GENESIS_HASH } from './audit-hash';
import { StoredAuditEvent, storedContent } from './audit.sql';

/**
 * Why a link is broken. `hash_mismatch`: the event's content no longer hashes to its stored hash
 * (the row was changed). `prev_hash_mismatch`: the event does not point at the event before it
 * (an event before it was removed, inserted or reordered, or the one before was re-hashed).
 */
export type AuditChainBreak = 'hash_mismatch' | 'prev_hash_mismatch';

export type AuditChainVerification =
  | { ok: true; count: number }
  /** `count`: the intact events before the first broken one. */
  | { ok: false; count: number; firstBrokenId: string; reason: AuditChainBreak };

export const AUDIT_VERIFY_PAGE_SIZE = 1000;

/**
 * Walks the whole trail in chain (id) order, a page at a time, recomputing every hash and link,
 * and stops at the first broken link. Gaps in ids are not breaks: a rolled-back insert uses up an
 * identity value. What it cannot see is the newest events being removed from the end: compare the
 * latest hash with a copy kept elsewhere for that.
 */
export async function verifyAuditChain(db: SqlSession, pageSize = AUDIT_VERIFY_PAGE_SIZE): Promise<AuditChainVerification> {
  let count = 0;
  let lastId = '0';
  let expectedPrevHash = GENESIS_HASH;
  for (;;) {
    const page: StoredAuditEvent[] = await auditEventsPage(db, lastId, pageSize);
    for (const event of page) {
      const reason = brokenLink(event, expectedPrevHash);
      if (reason) return { ok: false, count, firstBrokenId: event.id, reason };
      count += 1;
      expectedPrevHash = event.hash;
      lastId = event.id;
    }
    if (page.length < pageSize) return { ok: true, count };
  }
}

function brokenLink(event: StoredAuditEvent, expectedPrevHash: string): AuditChainBreak | undefined {
  if (event.prevHash !== expectedPrevHash) return 'prev_hash_mismatch';
  if (auditEventHash(storedContent(event)) !== event.hash) return 'hash_mismatch';
  return undefined;
}

const BREAK_DESCRIPTIONS: Record<AuditChainBreak, string> = {
  hash_mismatch: 'its content does not match its hash (the event was changed)',
  prev_hash_mismatch: 'it does not link to the event before it (an earlier event was removed, inserted or changed)',
};

/** One line for a person: counts and event ids only, never an event's content. */
export function describeAuditChain(result: AuditChainVerification): string {
  if (result.ok) return `Audit chain intact: ${result.count} event(s) verified.`;
  return (
    `Audit chain broken at event id ${result.firstBrokenId}: ${BREAK_DESCRIPTIONS[result.reason]}. ` +
    `${result.count} event(s) before it verified.`
  );
}
