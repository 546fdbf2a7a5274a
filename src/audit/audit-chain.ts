import { SqlSession } from '../schema/sql-session';
import { chainPage, unsealedOlderThan } from './audit.repository';
import { auditEventHash, GENESIS_HASH } from './audit-hash';
import { ChainPageRow, storedContent } from './audit.sql';
import { CheckpointStore, checkpointSignatureValid, SignedAuditCheckpoint } from './audit-checkpoint';
import { AuditTrailIdentity, compareTrails, readTrailIdentity } from './audit-trail-identity';

/**
 * Why a link is broken. `hash_mismatch`: the event's content no longer hashes to its link's hash
 * (the event, or the copy of an inline link it carries, was changed). `prev_hash_mismatch`: the link
 * does not point at the link before it (a link before it was removed, inserted or reordered, or the
 * one before was re-hashed). `event_missing`: the link names an event that no longer exists.
 * `seal_missing`: a seq is missing (a link was removed from the middle).
 */
export type AuditChainBreak = 'hash_mismatch' | 'prev_hash_mismatch' | 'event_missing' | 'seal_missing';

/**
 * What the checkpoints say about the chain. `truncated`: a signed checkpoint names a link past the
 * chain's end (its newest links were removed). `rewritten`: at a checkpoint's seq the chain holds
 * another event or another hash than was signed (the chain was recomputed from some event on).
 * `bad_signature`: a checkpoint of this trail this key did not sign (forged, altered, or another key's).
 * `trail_replaced`: a checkpoint of this very database (server and oid) under another installation
 * id: the id the migrations write once was replaced, or the schema reverted and migrated again.
 * `unreadable`: a file in the store that is not a checkpoint.
 */
export type CheckpointProblem =
  | { kind: 'truncated'; seq: number; chainLength: number }
  | { kind: 'rewritten'; seq: number }
  | { kind: 'bad_signature'; name: string }
  | { kind: 'trail_replaced'; name: string; trailId: string }
  | { kind: 'unreadable'; name: string };

/** Checkpoints of another database's trail found in the store: reported, never checked against this chain. */
export interface OtherTrailCheckpoints {
  trail: AuditTrailIdentity;
  count: number;
}

export interface AuditChainVerification {
  ok: boolean;
  /** Links verified intact (before the first broken one, when there is one). */
  count: number;
  broken?: { seq: string; eventId: string; reason: AuditChainBreak };
  /** Events older than the grace period that no link names. */
  unsealed: { count: number; firstId: string | null };
  /**
   * This trail (null when no checkpoints were given); its checkpoints whose signature and head both
   * check out, the latest one's seq, and every problem found; checkpoints of other trails, and
   * version-1 ones that name no trail (neither is checked, neither fails verification).
   */
  checkpoints: {
    trail: AuditTrailIdentity | null;
    verified: number;
    latestSeq: number | null;
    problems: CheckpointProblem[];
    otherTrails: OtherTrailCheckpoints[];
    unattributed: number;
  };
}

export interface VerifyOptions {
  /** The exported checkpoints and the key that signed them; without them only the chain is checked. */
  checkpoints?: { store: CheckpointStore; key: Buffer };
  /** An unsealed event older than this fails verification. */
  graceSeconds: number;
  pageSize?: number;
}

export const AUDIT_VERIFY_PAGE_SIZE = 1000;

/**
 * Walks every link in seq order, a page at a time, recomputing each hash from its event and each
 * link to the one before, and stops at the first broken link. Then: every event older than the
 * grace period must be sealed, and every checkpoint must carry a valid signature and name a link
 * the chain still has, with the same event and hash. Gaps in event ids are not breaks (a
 * rolled-back insert uses up an id); the seq of links has none.
 */
export async function verifyAuditChain(db: SqlSession, options: VerifyOptions): Promise<AuditChainVerification> {
  const pageSize = options.pageSize ?? AUDIT_VERIFY_PAGE_SIZE;
  const trail = options.checkpoints ? await readTrailIdentity(db) : null;
  const { signed, problems, otherTrails, unattributed } = await readCheckpoints(options.checkpoints, trail);
  let count = 0;
  let broken: AuditChainVerification['broken'];
  let verified = 0;
  let expectedPrevHash = GENESIS_HASH;
  let lastSeq = '0';
  walk: for (;;) {
    const page = await chainPage(db, lastSeq, pageSize);
    for (const link of page) {
      const reason = brokenLink(link, BigInt(lastSeq) + 1n, expectedPrevHash);
      if (reason) {
        broken = { seq: link.seq, eventId: link.eventId, reason };
        break walk;
      }
      for (const checkpoint of signed.get(Number(link.seq)) ?? []) {
        if (checkpoint.eventId !== link.eventId || checkpoint.head !== link.sealHash) problems.push({ kind: 'rewritten', seq: checkpoint.seq });
        else verified += 1;
      }
      count += 1;
      expectedPrevHash = link.sealHash;
      lastSeq = link.seq;
    }
    if (page.length < pageSize) break;
  }
  // Checkpoints past a broken link cannot be checked against it; past an intact end, the tail is gone.
  if (!broken) for (const seq of signed.keys()) if (seq > count) problems.push({ kind: 'truncated', seq, chainLength: count });
  const unsealed = await unsealedOlderThan(db, options.graceSeconds);
  const latestSeq = signed.size ? Math.max(...signed.keys()) : null;
  return {
    ok: !broken && unsealed.count === 0 && problems.length === 0,
    count,
    ...(broken && { broken }),
    unsealed,
    checkpoints: { trail, verified, latestSeq, problems, otherTrails, unattributed },
  };
}

function brokenLink(link: ChainPageRow, expectedSeq: bigint, expectedPrevHash: string): AuditChainBreak | undefined {
  if (BigInt(link.seq) !== expectedSeq) return 'seal_missing';
  if (link.eventMissing) return 'event_missing';
  if (link.prevHash !== expectedPrevHash) return 'prev_hash_mismatch';
  if (auditEventHash(storedContent(link, link.prevHash)) !== link.sealHash) return 'hash_mismatch';
  // An event chained inline keeps its own copy of the link: it must still agree with the seal.
  if (link.inlineHash !== null && (link.inlineHash !== link.sealHash || link.inlinePrevHash !== link.prevHash)) return 'hash_mismatch';
  return undefined;
}

/**
 * Every checkpoint in the store, sorted by the trail it names (signed, so it cannot be moved to
 * another): this trail's are checked (signature here, then against the chain), another trail's are
 * only counted, and one of this database under another installation id is a problem.
 */
async function readCheckpoints(source: VerifyOptions['checkpoints'], own: AuditTrailIdentity | null) {
  const signed = new Map<number, SignedAuditCheckpoint[]>();
  const problems: CheckpointProblem[] = [];
  const others = new Map<string, OtherTrailCheckpoints>();
  let unattributed = 0;
  for (const stored of source && own ? await source.store.list() : []) {
    if ('unreadable' in stored) problems.push({ kind: 'unreadable', name: stored.name });
    else if ('unattributed' in stored) unattributed += 1;
    else {
      const { checkpoint } = stored;
      const relation = compareTrails(own!, checkpoint.trail);
      if (relation === 'other') {
        const entry = others.get(checkpoint.trail.id) ?? { trail: checkpoint.trail, count: 0 };
        entry.count += 1;
        others.set(checkpoint.trail.id, entry);
      } else if (relation === 'replaced') problems.push({ kind: 'trail_replaced', name: stored.name, trailId: checkpoint.trail.id });
      else if (!checkpointSignatureValid(checkpoint, source!.key)) problems.push({ kind: 'bad_signature', name: stored.name });
      else signed.set(checkpoint.seq, [...(signed.get(checkpoint.seq) ?? []), checkpoint]);
    }
  }
  return { signed, problems, otherTrails: [...others.values()], unattributed };
}

const BREAK_DESCRIPTIONS: Record<AuditChainBreak, string> = {
  hash_mismatch: 'its event does not match its hash (the event was changed)',
  prev_hash_mismatch: 'it does not link to the link before it (an earlier link or event was removed, inserted or changed)',
  event_missing: 'the event it seals no longer exists (it was deleted)',
  seal_missing: 'the link before it is missing (a link was deleted)',
};

/** Lines for a person: counts, seqs, event ids and file names only, never an event's content. */
export function describeAuditChain(result: AuditChainVerification): string[] {
  const lines: string[] = [];
  if (result.broken) {
    const { seq, eventId, reason } = result.broken;
    lines.push(`Audit chain broken at seq ${seq} (event id ${eventId}): ${BREAK_DESCRIPTIONS[reason]}. ${result.count} link(s) before it verified.`);
  } else {
    lines.push(`Audit chain intact: ${result.count} link(s) verified.`);
  }
  const { trail, verified, latestSeq, otherTrails, unattributed } = result.checkpoints;
  if (trail) lines.push(`Trail ${trail.id}: ${describeTrail(trail)}.`);
  for (const problem of result.checkpoints.problems) lines.push(describeProblem(problem));
  lines.push(`Checkpoints: ${verified} verified${latestSeq === null ? ' (none found)' : `, the latest at seq ${latestSeq}`}.`);
  for (const other of otherTrails) {
    lines.push(
      `Checkpoint of another trail: ${other.count} of trail ${other.trail.id} (${describeTrail(other.trail)}): another database's, not checked against this one.`,
    );
  }
  if (unattributed > 0) lines.push(`Checkpoints naming no trail: ${unattributed} (written before checkpoints named their trail): not checked.`);
  if (result.unsealed.count > 0) {
    lines.push(`Unsealed: ${result.unsealed.count} event(s) older than the grace period have no link (first: event id ${result.unsealed.firstId}).`);
  }
  lines.push(result.ok ? 'Audit trail verified.' : 'Audit trail verification FAILED.');
  return lines;
}

function describeProblem(problem: CheckpointProblem): string {
  switch (problem.kind) {
    case 'truncated':
      return `Truncated: a signed checkpoint names seq ${problem.seq}, but the chain ends at seq ${problem.chainLength} (its newest links were removed).`;
    case 'rewritten':
      return `Rewritten: at seq ${problem.seq} the chain differs from the signed checkpoint (the chain was recomputed).`;
    case 'trail_replaced':
      return `Checkpoint ${problem.name}: it names this database under another installation id (trail ${problem.trailId}): the installation id was replaced, or the schema reverted and migrated again.`;
    case 'bad_signature':
      return `Checkpoint ${problem.name}: the signature does not verify (forged, altered, or signed with another key).`;
    case 'unreadable':
      return `Checkpoint ${problem.name}: not a checkpoint (unreadable).`;
  }
}

function describeTrail(trail: AuditTrailIdentity): string {
  const server = trail.systemIdentifier === null ? 'system identifier unknown' : `system identifier ${trail.systemIdentifier}`;
  return `${server}, database oid ${trail.databaseOid}, installation ${trail.installationId}`;
}
