/**
 * The one grammar of citation ids: every kind of id a tool returns (in a row's `citation`, an
 * `encounterCitation` or an `evidence` list), with its pattern and what it names in plain words.
 * A proposal may cite exactly these forms (REST, the agent's `propose_action` and MCP alike); a
 * refused citation is answered with `CITATION_FORMS_TEXT`, so a model and a person can correct it.
 */

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const DAY = '\\d{4}-\\d{2}-\\d{2}';

export interface CitationForm {
  /** The prefix before the `:`. */
  kind: string;
  /** What follows the prefix (a regular expression source, anchored by `ROW_CITATION`). */
  pattern: string;
  /** How the form is written, for people and models: `obs:<uuid>`. */
  shape: string;
  /** What such a row is. */
  names: string;
  /** A stored row (its id is checked against the record) or a computed one (recomputed from the chart). */
  source: 'stored' | 'derived';
  /** The longest id of this form. */
  maxLength: number;
}

const DAY_LENGTH = 10;

/** A measure key a care-gap citation carries (`gap:<key>@…`): a built-in name or a loaded measure's key. */
const GAP_SUBJECT = '[A-Z0-9]{2,12}';
export const CARE_GAP_MEASURE_KEY = new RegExp(`^${GAP_SUBJECT}$`);
/** The longest such key. */
export const CARE_GAP_MEASURE_KEY_MAX = 12;
const stored = (kind: string, names: string): CitationForm => ({ kind, pattern: UUID, shape: `${kind}:<uuid>`, names, source: 'stored', maxLength: kind.length + 1 + 36 });
/** A computed row: `<kind>:<subject of up to subjectMax characters>@<day>` (a care gap: `@<day>..<day>`). */
const derived = (kind: string, subject: string, subjectMax: number, days: 1 | 2, shape: string, names: string): CitationForm => ({
  kind,
  pattern: `${subject}@${days === 1 ? DAY : `${DAY}\\.\\.${DAY}`}`,
  shape,
  names,
  source: 'derived',
  maxLength: kind.length + 1 + subjectMax + 1 + (days === 1 ? DAY_LENGTH : 2 * DAY_LENGTH + 2),
});

export const CITATION_FORMS: readonly CitationForm[] = [
  stored('obs', 'lab or vital'),
  stored('enc', 'encounter'),
  stored('cond', 'condition'),
  stored('med', 'medication'),
  stored('proc', 'procedure'),
  stored('note', 'encounter note'),
  stored('allergy', 'allergy'),
  stored('req', 'clinical request'),
  stored('ae', 'adverse event'),
  stored('pat', 'the patient record'),
  derived('gap', GAP_SUBJECT, CARE_GAP_MEASURE_KEY_MAX, 2, 'gap:<measure>@<start>..<end>', 'care gap'),
  derived('missing', '[a-z0-9-]{1,32}', 32, 1, 'missing:<element>@<day>', 'missing-data row'),
  derived('risk', '[a-z0-9_]{1,40}', 40, 1, 'risk:<feature>@<day>', 'risk driver'),
  derived('prediction', '[a-z0-9-]{1,40}', 40, 1, 'prediction:<model>@<day>', 'risk prediction'),
];

/** Every citation id a tool writes: stored rows (`obs:<uuid>`) and derived ones (`gap:CMS122@…`). */
export const ROW_CITATION = new RegExp(`^(?:${CITATION_FORMS.map((form) => `${form.kind}:${form.pattern}`).join('|')})$`);

/** The longest citation the grammar admits, declared in the OpenAPI document. */
export const CITATION_MAX_LENGTH = Math.max(...CITATION_FORMS.map((form) => form.maxLength));

/** The reason code of a refused citation, in REST problems and tool errors alike. */
export const NOT_A_CITATION = 'not_a_citation';

/** The accepted forms, in words. */
export const CITATION_FORMS_TEXT =
  'each citation must be the id of a row a tool returned, exactly as returned: ' + CITATION_FORMS.map((form) => `${form.shape} (${form.names})`).join(', ');

export function isCitation(value: unknown): value is string {
  return typeof value === 'string' && value.length <= CITATION_MAX_LENGTH && ROW_CITATION.test(value);
}

/** The form a well-formed citation has (undefined for anything else). */
export function citationFormOf(value: string): CitationForm | undefined {
  if (!isCitation(value)) return undefined;
  return CITATION_FORMS.find((form) => value.startsWith(`${form.kind}:`));
}
