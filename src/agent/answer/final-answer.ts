/**
 * The model's final answer names facts; the server writes them. Each requested fact is a kind from
 * the closed vocabulary (fact-rendering.ts) and the citations of the rows it rests on. A fact is kept
 * only if every citation is the own id of a row a tool returned in this turn (the turn reads one
 * patient), of the tool its kind reads; its text is then rendered from those rows. Whatever prose
 * the model wrote is discarded, never shown: nothing the model writes reaches the clinician as a
 * patient fact.
 */
import { CitationIndex } from '../../model-tools/citation-index';
import { FACT_KINDS, FACT_SPECS, FactKind, RenderRefusal } from './fact-rendering';
import { isTurnReasonCode, TurnReasonCode } from './turn-reasons';

export type TurnStatus = 'answered' | 'insufficient_data' | 'refused' | 'access_denied' | 'conflict' | 'failure';

/** A statement the clinician reads: written by the server from the cited rows. */
export interface Statement {
  kind: FactKind;
  text: string;
  citations: string[];
  /** The cited rows' fields the text was written from. */
  fields: string[];
}

export type DroppedFact = 'malformed' | 'unknown_kind' | 'no_citation' | 'citation_count' | 'unknown_citation' | 'wrong_tool' | 'wrong_row' | 'duplicate' | 'too_many' | RenderRefusal;

export interface FinalAnswer {
  status: string;
  facts: unknown[];
  /** The reason code the model chose, when it is one of the vocabulary (whether it counts is `reasonForAnswer`'s to say). */
  reason: TurnReasonCode | null;
  /** The reply carried words of the model's own (prose around the JSON, `text` or `summary` fields): not shown. */
  modelTextDiscarded: boolean;
}

/** More facts than a clinician reads in one answer is a model run away; the rest are dropped. */
export const MAX_FACTS = 40;
const MAX_CITATION_LENGTH = 80;

/** The model's final message as an answer; null when it is not one (a malformed reply). */
export function parseFinalAnswer(content: string | null | undefined): FinalAnswer | null {
  if (!content) return null;
  // Models often fence JSON in markdown; only that wrapper is removed.
  const text = content.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const { status, facts, statements, reason } = parsed as { status?: unknown; facts?: unknown; statements?: unknown; reason?: unknown };
  if (typeof status !== 'string') return null;
  // `statements` is what an older prompt asked for: its items are read as facts (their text ignored).
  const list = Array.isArray(facts) ? facts : Array.isArray(statements) ? statements : [];
  // A `reason` that is not exactly a code is the model's own words: discarded like any other prose.
  const code = isTurnReasonCode(reason) ? reason : null;
  const prose =
    Object.keys(parsed).some((key) => !['status', 'facts', 'statements', 'reason'].includes(key)) ||
    (reason !== undefined && reason !== null && code === null) ||
    list.some(hasModelText);
  return { status, facts: list, reason: code, modelTextDiscarded: prose };
}

function hasModelText(item: unknown): boolean {
  return !!item && typeof item === 'object' && Object.keys(item).some((key) => key !== 'kind' && key !== 'citations');
}

interface FactRequest {
  kind: FactKind;
  citations: string[];
}

function asFactRequest(value: unknown): FactRequest | 'malformed' | 'unknown_kind' {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'malformed';
  const { kind, citations } = value as { kind?: unknown; citations?: unknown };
  if (typeof kind !== 'string') return 'malformed';
  if (!(FACT_KINDS as readonly string[]).includes(kind)) return 'unknown_kind';
  if (!Array.isArray(citations) || citations.some((id) => typeof id !== 'string' || id.length > MAX_CITATION_LENGTH)) return 'malformed';
  return { kind: kind as FactKind, citations: [...new Set(citations as string[])] };
}

/** One requested fact, rendered from its cited rows, or why it cannot be. */
export function renderFact(value: unknown, index: CitationIndex): Statement | DroppedFact {
  const request = asFactRequest(value);
  if (typeof request === 'string') return request;
  const spec = FACT_SPECS[request.kind];
  if (request.citations.length === 0) return 'no_citation';
  if (request.citations.length !== spec.rows) return 'citation_count';
  const returned = request.citations.map((id) => index.rows.get(id));
  if (returned.some((row) => row === undefined)) return 'unknown_citation';
  if (returned.some((row) => row!.tool !== spec.tool)) return 'wrong_tool';
  if (spec.cites && request.citations.some((id) => !spec.cites!.test(id))) return 'wrong_row';
  const rendered = spec.render(returned.map((row) => row!.row));
  if (typeof rendered === 'string') return rendered;
  return { kind: request.kind, text: rendered.text, citations: request.citations, fields: rendered.fields };
}

/** The answer the server stands behind: only rendered facts, and none unless the model answered. */
export function groundAnswer(answer: FinalAnswer, index: CitationIndex): { status: 'answered' | 'insufficient_data' | 'refused'; statements: Statement[]; dropped: DroppedFact[] } {
  if (answer.status === 'refused') return { status: 'refused', statements: [], dropped: [] };
  if (answer.status !== 'answered') return { status: 'insufficient_data', statements: [], dropped: [] };
  const kept: Statement[] = [];
  const dropped: DroppedFact[] = [];
  const seen = new Set<string>();
  for (const item of answer.facts) {
    if (kept.length === MAX_FACTS) {
      dropped.push('too_many');
      continue;
    }
    const fact = renderFact(item, index);
    if (typeof fact === 'string') {
      dropped.push(fact);
      continue;
    }
    const key = `${fact.kind}|${[...fact.citations].sort().join(',')}`;
    if (seen.has(key)) dropped.push('duplicate');
    else kept.push(fact);
    seen.add(key);
  }
  return kept.length ? { status: 'answered', statements: kept, dropped } : { status: 'insufficient_data', statements: [], dropped };
}
