import { ROW_CITATION } from '../clinical/derived-citations';
import { ToolName } from '../tools/tool-names';

/** A row a tool returned in this turn, under its own citation id, with the tool that returned it. */
export interface ReturnedRow {
  tool: ToolName;
  row: Record<string, unknown>;
}

/**
 * What a turn may cite, built only from the tool results of that turn (every one of them for the
 * turn's patient: the runner reads no other):
 * - `rows`: each row (and a summary with a citation) under its OWN `citation` field — what a fact is rendered from;
 * - `citable`: every id a row names in an identity field (`citation`, `encounterCitation`, a note's
 *   `citation`) or an evidence list (`evidence`) — what a proposal may cite.
 * Never from any other value: text inside a record (a note, a display, a reason) is data, so a note
 * whose text is another patient's citation id does not make that id citable.
 */
export class CitationIndex {
  readonly rows = new Map<string, ReturnedRow>();
  readonly citable = new Set<string>();

  /** A tool's result: its rows, and its summary too when that carries a citation of its own (the readmission prediction). */
  addResult(tool: ToolName, result: { rows: readonly Record<string, unknown>[]; summary?: Record<string, unknown> }): void {
    this.add(tool, result.summary ? [...result.rows, result.summary] : result.rows);
  }

  add(tool: ToolName, rows: readonly Record<string, unknown>[]): void {
    for (const row of rows) {
      const own = row.citation;
      // The same id twice in a turn is the same row read twice (derived ids carry their day or period).
      if (typeof own === 'string' && ROW_CITATION.test(own)) this.rows.set(own, { tool, row });
      collectCitable(row, this.citable);
    }
  }
}

const IDENTITY_KEYS = new Set(['citation', 'encounterCitation']);
const EVIDENCE_KEYS = new Set(['evidence']);

function collectCitable(value: unknown, into: Set<string>): void {
  if (!value || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value)) {
    if (IDENTITY_KEYS.has(key) && typeof item === 'string') addIfCitation(item, into);
    else if (EVIDENCE_KEYS.has(key)) collectEvidence(item, into);
    else collectCitable(item, into);
  }
}

/** Evidence is a list of ids, or a record of lists (per population): strings at any depth. */
function collectEvidence(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') addIfCitation(value, into);
  else if (value && typeof value === 'object') Object.values(value).forEach((item) => collectEvidence(item, into));
}

function addIfCitation(id: string, into: Set<string>): void {
  if (ROW_CITATION.test(id)) into.add(id);
}
