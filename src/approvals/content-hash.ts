import { createHash } from 'node:crypto';
import { canonicalJson, CanonicalValue } from '../audit/audit-hash';
import { ProposalKind } from './enum';

export interface HashedContent {
  kind: ProposalKind;
  content: Record<string, unknown>;
  rationale: string;
  citations: string[];
}

/** What an approval binds to: sha256 of the canonical JSON of everything the executor will act on. */
export function proposalContentHash(value: HashedContent): string {
  return createHash('sha256')
    .update(canonicalJson({ kind: value.kind, content: value.content, rationale: value.rationale, citations: value.citations } as CanonicalValue))
    .digest('hex');
}
