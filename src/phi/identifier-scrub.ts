import { PatientRow } from '../cohort/chart.types';
import { IDENTIFIER_KINDS, identifierFinder, IdentifierFinderMemo, IdentifierKind, IdentifierSpan } from './identifier-patterns';

export { IDENTIFIER_KINDS, IdentifierFinderMemo, type IdentifierKind } from './identifier-patterns';

/** Fields holding free text that people wrote, where a patient's identifiers can turn up. */
const FREE_TEXT_FIELDS = new Set(['text', 'valueText', 'referenceText']);

const RECORD_LABEL: Readonly<Record<IdentifierKind, string>> = {
  name: 'name', mrn: 'MRN', birth_date: 'birth date', phone: 'phone', email: 'e-mail', address: 'address',
};

/** What a question says in place of each identifier: it still reads as a question about the patient. */
const QUESTION_PLACEHOLDER: Readonly<Record<IdentifierKind, string>> = {
  name: 'the patient', mrn: '[MRN]', birth_date: '[birth date]', phone: '[phone]', email: '[e-mail]', address: '[address]',
};

function replaceSpans(text: string, spans: IdentifierSpan[], placeholder: (kind: IdentifierKind) => string): string {
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + placeholder(span.kind);
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * Masks the patient's own identifiers (`identifierFinder`) inside free text, for projections that
 * carry no direct identifiers (the agent's). A projection allowlist can keep an identifier *field*
 * out, but not an MRN someone typed into a note. `finders`: a caller's memo (an agent turn's), else
 * the finder is built for this one call.
 */
export function scrubKnownIdentifiers<T>(value: T, patient: PatientRow, finders?: IdentifierFinderMemo): T {
  return mapStrings(value, knownIdentifierScrubber(patient, finders));
}

/**
 * `scrubKnownIdentifiers` one string at a time, for a caller that changes other strings of the same
 * value in the same walk (`mapStrings`): text under a free-text field comes back masked, any other unchanged.
 */
export function knownIdentifierScrubber(patient: PatientRow, finders?: IdentifierFinderMemo): (text: string, field: string | undefined) => string {
  const find = finders?.finderFor(patient) ?? identifierFinder(patient);
  return (text, field) => (field !== undefined && FREE_TEXT_FIELDS.has(field) ? replaceSpans(text, find(text), (kind) => `[${RECORD_LABEL[kind]} removed]`) : text);
}

/**
 * A clinician's question as a model may read it: the route patient's identifiers replaced by
 * neutral placeholders ("Does Maribel Thornquist (VGL-000125) need an HbA1c?" → "Does the patient
 * ([MRN]) need an HbA1c?"), and the kinds replaced (never their values), in `IDENTIFIER_KINDS` order.
 * The model needs no identifier: the patient is fixed by the route, and its tools read only them.
 */
export function scrubQuestion(question: string, patient: PatientRow, finders?: IdentifierFinderMemo): { text: string; replaced: IdentifierKind[] } {
  const spans = (finders?.finderFor(patient) ?? identifierFinder(patient))(question);
  const kinds = new Set(spans.map((span) => span.kind));
  return { text: replaceSpans(question, spans, (kind) => QUESTION_PLACEHOLDER[kind]), replaced: IDENTIFIER_KINDS.filter((kind) => kinds.has(kind)) };
}

/**
 * A copy of `value` (plain objects and arrays, at any depth) with every string passed through `map`,
 * with the field it stands under (an array's items under the array's field; none at the top).
 */
export function mapStrings<T>(value: T, map: (text: string, field: string | undefined) => string, key?: string): T {
  if (typeof value === 'string') return map(value, key) as T;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map, key)) as T;
  if (value && typeof value === 'object') {
    // A loop rather than Object.fromEntries(Object.entries(…)): the same copy, a fraction of the
    // allocations, and every tool result of an agent turn goes through here.
    const copy: Record<string, unknown> = {};
    for (const field of Object.keys(value)) {
      const item = mapStrings((value as Record<string, unknown>)[field], map, field);
      // An own `__proto__` key (JSON.parse keeps one) stays a key, as fromEntries would keep it, and never sets the prototype.
      if (field === '__proto__') Object.defineProperty(copy, field, { value: item, enumerable: true, writable: true, configurable: true });
      else copy[field] = item;
    }
    return copy as T;
  }
  return value;
}
