import { createHash } from 'node:crypto';
import { CitationIndex } from '../model-tools/citation-index';
import { AgentTool, AgentToolName } from '../model-tools/tool-catalog';
import { TurnContext } from '../model-tools/tool-runner';

/** The governance a session has stored (mcp_sessions): what `claimCall` returns. */
export interface StoredGovernance {
  /** Calls so far, this one included. */
  calls: number;
  callsPerTool: Record<string, number>;
  failedCalls: string[];
  citable: string[];
}

/** What one call adds to the stored governance: merged into the row, never written over it. */
export interface GovernanceChanges {
  /** The tool whose count the call raised, or null when governance refused it before counting. */
  raisedTool: string | null;
  failedCalls: string[];
  citable: string[];
}

export type SessionGovernance = Omit<TurnContext, 'access' | 'caller'>;

const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/**
 * The runner's set of failed calls, holding only SHA-256 digests of their keys: a key carries the
 * client's arguments verbatim, and the store needs only to recognise an identical call again.
 */
class FailedCallDigests extends Set<string> {
  static of(digests: readonly string[]): FailedCallDigests {
    const set = new FailedCallDigests();
    for (const stored of digests) Set.prototype.add.call(set, stored);
    return set;
  }

  override has(key: string): boolean {
    return super.has(digest(key));
  }

  override add(key: string): this {
    return super.add(digest(key));
  }
}

/**
 * A call's view of its session's governance, rebuilt from the stored row on whichever process
 * serves it: the runner reads and updates it exactly as it does an agent turn's.
 */
export function restoreGovernance(stored: StoredGovernance, catalog: Map<AgentToolName, AgentTool>, patientId: string): SessionGovernance {
  const citations = new CitationIndex();
  for (const id of stored.citable) citations.citable.add(id);
  return {
    turnId: '',
    patientId,
    catalog,
    citations,
    failedCalls: FailedCallDigests.of(stored.failedCalls),
    callsPerTool: new Map(Object.entries(stored.callsPerTool)),
    proposals: [],
    toolCalls: [],
    rowsRead: 0,
  };
}

/** What the call changed, as the store merges it. */
export function governanceChanges(stored: StoredGovernance, after: SessionGovernance, name: string): GovernanceChanges {
  const known = (values: readonly string[]) => new Set(values);
  const failed = known(stored.failedCalls);
  const citable = known(stored.citable);
  return {
    raisedTool: (after.callsPerTool.get(name) ?? 0) > (stored.callsPerTool[name] ?? 0) ? name : null,
    // Iterating the digest set yields the digests themselves.
    failedCalls: [...after.failedCalls].filter((entry) => !failed.has(entry)),
    citable: [...after.citations.citable].filter((id) => !citable.has(id)),
  };
}
