import { storableText } from '../../common/validation/text';
import { treatmentAdviceIn } from '../../model-tools/clinical-advice';

/**
 * How a rendered statement writes the values of a cited row. Every helper returns text made only
 * of the value itself (and fixed words), or null when the value is absent or not of its kind, so
 * a statement never shows a number, date or unit that is not in its row.
 */

/** A number exactly as the row holds it (no rounding, no unit conversion); null for anything else. */
export function numberText(value: unknown): string | null {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : null;
}

/** The calendar day of an ISO date or date-time as recorded (`2026-03-30T09:00Z` → `2026-03-30`). */
export function dayText(value: unknown): string | null {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}(?:$|T)/.test(value) ? value.slice(0, 10) : null;
}

/** A UCUM-style unit as recorded (`mg/dL`, `%`, `mm[Hg]`, `10*3/uL`); null when it is not one. */
export function unitText(value: unknown): string | null {
  return typeof value === 'string' && /^[A-Za-z0-9%/[\]{}.*^'-]{1,24}$/.test(value) ? value : null;
}

/** A code as recorded (`4548-4`, `E11.9`); null when it does not look like a code. */
export function codeText(value: unknown): string | null {
  return typeof value === 'string' && /^[A-Za-z0-9.-]{1,32}$/.test(value) ? value : null;
}

/** A value from a closed vocabulary of the service (statuses, classes, feature names). */
export function vocabularyText(value: unknown): string | null {
  return typeof value === 'string' && /^[a-z0-9_-]{1,40}$/i.test(value) ? value : null;
}

const RECORD_TEXT_LIMIT = 120;
/** Characters that start markup in the places a statement is shown (HTML, Markdown links and images, code). */
const MARKUP = /[<>[\]`]/g;
/**
 * Record text that speaks to a reader rather than describing the patient: orders to a model or a
 * person, claims about approvals, links and addresses. A rendered statement never repeats it.
 */
const ADDRESSED_TEXT =
  /\b(?:ignore|disregard|override|forget|system prompt|assistant|instructions?|you are|you must|approved|executed|cite|citation|password|token)\b|:\/\/|\bwww\.|@|\b[a-z]{2,}:[0-9a-f]{8}-/i;
/** What a statement says in place of record text it will not repeat. */
export const TEXT_NOT_REPEATED = '(text not repeated here: read the cited row)';

/**
 * Text a person typed into the record (a display, a text result), as a statement quotes it: the
 * record's words in quotation marks, on one line, without markup characters (so a display cannot become a link, an
 * image or a tag where the statement is shown), cut to a readable length. Text that advises
 * treatment or addresses its reader (an instruction planted in the record) is not repeated: the
 * statement says so, and the clinician reads the row itself.
 */
export function quotedRecordText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = storableText(value).replace(MARKUP, '').replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  if (treatmentAdviceIn(text) || ADDRESSED_TEXT.test(text)) return TEXT_NOT_REPEATED;
  return `“${text.length > RECORD_TEXT_LIMIT ? `${text.slice(0, RECORD_TEXT_LIMIT - 1).trimEnd()}…` : text}”`;
}

/**
 * Text the service itself wrote into a derived row (a measure's title and reason, what would close
 * a gap): shown whole, on one line, and without markup characters all the same (its words use ≥, ≤).
 */
export function serviceText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = storableText(value).replace(MARKUP, '').replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}

/** The system a code belongs to, as a clinician names it; null for systems without a short name. */
export function codeSystemName(system: unknown): string | null {
  switch (system) {
    case 'http://loinc.org':
      return 'LOINC';
    case 'http://snomed.info/sct':
      return 'SNOMED CT';
    case 'http://hl7.org/fhir/sid/icd-10-cm':
      return 'ICD-10-CM';
    default:
      return null;
  }
}
