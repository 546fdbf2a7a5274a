/**
 * The server's check of the model's answer: a statement survives only if every citation names a
 * row a tool returned in this turn and every number in its text appears in one of its cited rows.
 * Anything else is dropped, never passed through.
 */
import { storableText } from './model-reply';

export type TurnStatus = 'answered' | 'insufficient_data' | 'refused' | 'access_denied' | 'conflict' | 'failure';

export interface Statement {
  text: string;
  citations: string[];
}

export interface DroppedStatement {
  reason: 'no_citation' | 'unknown_citation' | 'ungrounded_number' | 'treatment_advice' | 'malformed';
}

const CITATION_TOKEN = /\b(?:pat|enc|obs|cond|med|proc|note|allergy):[0-9a-z-]+/gi;
/** Numbers as written, but not digits inside a word (the 1 of "HbA1c", the 122 of "CMS122"). */
const NUMBER = /(?<![A-Za-z\d.])\d+(?:\.\d+)?/g;
/**
 * Statements that recommend or decide treatment are dropped: the service reports evidence only.
 * A keyword screen, deliberately broad; a statement of fact about an existing order still passes.
 */
const TREATMENT_ADVICE = /\b(recommend\w*|should (?:start|stop|begin|take|increase|decrease|switch|be (?:started|given|prescribed))|prescrib(?:e|ing)|consider (?:starting|stopping|adding|increasing|decreasing)|initiate)\b/i;

/** Keys under which the tools put a row's own identity (and its encounter's); never free text. */
const IDENTITY_KEYS = new Set(['citation', 'encounterCitation']);
/** Keys under which the derived tools list the rows they read (strings, arrays or records of arrays of ids). */
const EVIDENCE_KEYS = new Set(['evidence']);
const CITATION_ID = /^(pat|enc|obs|cond|med|proc|note|allergy|req|ae):[0-9a-f-]{36}$/;

/**
 * The citation ids a turn may cite, mapped to the rows they appear in: taken only from the fields
 * where the tools write row identity (`citation`, `encounterCitation`) and evidence lists
 * (`evidence`), never from any other value. Text inside a record (a note, a display, a reason) is
 * data: a note whose text is another patient's citation id does not make that id citable.
 */
export function indexCitations(rows: Record<string, unknown>[], into = new Map<string, Record<string, unknown>[]>()): Map<string, Record<string, unknown>[]> {
  const add = (id: string, row: Record<string, unknown>) => {
    if (!CITATION_ID.test(id)) return;
    const list = into.get(id) ?? [];
    if (!list.includes(row)) list.push(row);
    into.set(id, list);
  };
  const evidence = (value: unknown, row: Record<string, unknown>): void => {
    if (typeof value === 'string') add(value, row);
    else if (value && typeof value === 'object') Object.values(value).forEach((item) => evidence(item, row));
  };
  const collect = (value: unknown, row: Record<string, unknown>): void => {
    if (!value || typeof value !== 'object') return;
    for (const [key, item] of Object.entries(value)) {
      if (IDENTITY_KEYS.has(key) && typeof item === 'string') add(item, row);
      else if (EVIDENCE_KEYS.has(key)) evidence(item, row);
      else collect(item, row);
    }
  };
  rows.forEach((row) => collect(row, row));
  return into;
}

/** The numbers a row holds, in numeric values and inside text (dates, "6.8 %"). */
function numbersIn(value: unknown, into = new Set<number>()): Set<number> {
  if (typeof value === 'number') into.add(value);
  else if (typeof value === 'string') (value.replace(CITATION_TOKEN, '').match(NUMBER) ?? []).forEach((match) => into.add(Number(match)));
  else if (value && typeof value === 'object') Object.values(value).forEach((item) => numbersIn(item, into));
  return into;
}

export function checkStatement(statement: Statement, cited: Map<string, Record<string, unknown>[]>): DroppedStatement | null {
  if (statement.citations.length === 0) return { reason: 'no_citation' };
  if (statement.citations.some((citation) => !cited.has(citation))) return { reason: 'unknown_citation' };
  if (TREATMENT_ADVICE.test(statement.text)) return { reason: 'treatment_advice' };
  const available = new Set<number>();
  statement.citations.forEach((citation) => cited.get(citation)?.forEach((row) => numbersIn(row, available)));
  const stated = (statement.text.replace(CITATION_TOKEN, '').match(NUMBER) ?? []).map(Number);
  if (stated.some((number) => !available.has(number))) return { reason: 'ungrounded_number' };
  return null;
}

/** The model's final message as a structured answer; null when it is not one (a malformed response). */
export function parseFinalAnswer(content: string | null | undefined): { status: string; statements: unknown[] } | null {
  if (!content) return null;
  // Models often fence JSON in markdown; only that wrapper is removed.
  const text = content.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const { status, statements } = parsed as { status?: unknown; statements?: unknown };
    if (typeof status !== 'string') return null;
    return { status, statements: Array.isArray(statements) ? statements : [] };
  } catch {
    return null;
  }
}

function asStatement(value: unknown): Statement | null {
  if (!value || typeof value !== 'object') return null;
  const { text: raw, citations } = value as { text?: unknown; citations?: unknown };
  // JSON escapes (`\u0000`) survive the reply's cleaning and come back here: clean again before storage.
  const text = typeof raw === 'string' ? storableText(raw) : null;
  if (text === null || text.trim() === '' || text.length > 1000) return null;
  const list = Array.isArray(citations) ? citations.filter((item): item is string => typeof item === 'string').map(storableText) : [];
  return { text: text.trim(), citations: [...new Set(list)] };
}

/** The answer the server stands behind: only grounded statements, and no statements unless `answered`. */
export function groundAnswer(
  answer: { status: string; statements: unknown[] },
  cited: Map<string, Record<string, unknown>[]>,
): { status: TurnStatus; statements: Statement[]; dropped: DroppedStatement['reason'][] } {
  if (answer.status === 'refused') return { status: 'refused', statements: [], dropped: [] };
  if (answer.status !== 'answered') return { status: 'insufficient_data', statements: [], dropped: [] };
  const kept: Statement[] = [];
  const dropped: DroppedStatement['reason'][] = [];
  for (const raw of answer.statements) {
    const statement = asStatement(raw);
    const problem = statement ? checkStatement(statement, cited) : { reason: 'malformed' as const };
    if (statement && !problem) kept.push(statement);
    else if (problem) dropped.push(problem.reason);
  }
  return kept.length ? { status: 'answered', statements: kept, dropped } : { status: 'insufficient_data', statements: [], dropped };
}
