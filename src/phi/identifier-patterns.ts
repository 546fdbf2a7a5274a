import { PatientRow } from '../cohort/chart.types';

/** The kinds of a patient's own identifiers Vigil finds in text, in the order a report lists them. */
export const IDENTIFIER_KINDS = ['name', 'mrn', 'birth_date', 'phone', 'email', 'address'] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

/** The fields of a patient row the finder reads: two rows equal on these get the same finder. */
const IDENTIFYING_FIELDS = ['givenName', 'familyName', 'mrn', 'birthDate', 'phone', 'email', 'addressLine', 'city', 'postalCode'] as const;
/** A patient row as the finder sees it: the patterns can read no other field (`IdentifierFinderMemo`'s key relies on it). */
type IdentifyingFields = Pick<PatientRow, (typeof IDENTIFYING_FIELDS)[number]>;

/** Where one identifier stands in the original text: [start, end) in UTF-16 code units. */
export interface IdentifierSpan {
  start: number;
  end: number;
  kind: IdentifierKind;
}

/**
 * Text as it is matched: compatibility-decomposed with the combining marks dropped ("Núñez" →
 * "Nunez", full-width "５５５" → "555"), with where each matched unit came from in the original, so
 * a match found here replaces exactly the characters the person typed.
 */
interface Folded {
  text: string;
  /** Where the original character of the folded code unit `i` starts and ends. */
  start(i: number): number;
  end(i: number): number;
}

const ASCII = /^[ -~\t\n\r]*$/;

function fold(original: string): Folded {
  // Most record text and most questions are ASCII: nothing to fold, every unit is its own.
  if (ASCII.test(original)) return { text: original, start: (i) => i, end: (i) => i + 1 };
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  let offset = 0;
  for (const char of original) {
    const plain = char.charCodeAt(0) < 0x80 ? char : char.normalize('NFKD').replace(/\p{M}/gu, '');
    for (let i = 0; i < plain.length; i += 1) {
      from.push(offset);
      to.push(offset + char.length);
    }
    text += plain;
    offset += char.length;
  }
  return { text, start: (i) => from[i], end: (i) => to[i] };
}

const foldText = (value: string) => fold(value).text;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Scripts written without spaces between words: a name in them has no word boundary to wait for. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Not inside a longer word or number. */
const bounded = (source: string, raw: string) => (UNSPACED.test(raw) ? source : `(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`);

/** Letter-and-digit runs of a value, joined so that the punctuation and spaces between them may differ or be left out. */
function runsPattern(value: string, between = `[\\s'’‘.,#_\\-‐–]*`): string | null {
  const runs = foldText(value).match(/[\p{L}\p{N}]+/gu);
  return runs ? runs.map(escape).join(between) : null;
}

/**
 * A name: the whole name, and each of its space- or hyphen-separated parts of three letters or more
 * ("Núñez" of "O'Brien-Núñez"), in any case, with or without its apostrophes, hyphens and accents.
 */
function namePatterns(name: string): string[] {
  const parts = [name, ...name.split(/[\s\-‐]+/)].filter((part) => (part.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= (part === name ? 2 : 3));
  return [...new Set(parts)].flatMap((part) => {
    const pattern = runsPattern(part);
    return pattern ? [bounded(pattern, part)] : [];
  });
}

/** The MRN in any case, its separators changed or left out; its digits alone too when they are five or more. */
function mrnPatterns(mrn: string): string[] {
  const pattern = runsPattern(mrn);
  const digits = mrn.match(/\d{5,}/g) ?? [];
  return [...(pattern ? [bounded(pattern, mrn)] : []), ...digits.map((run) => `(?<!\\d)${run}(?!\\d)`)];
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** The birth date as people write it: 1992-06-30, 1992/6/30, 06/30/1992, 30.06.92, 19920630, June 30th, 1992, 30 Jun 1992. */
function birthDatePatterns(birthDate: string): string[] {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthDate);
  if (!match) return [];
  const [, year, month, day] = match;
  const y = `(?:${year}|'?${year.slice(2)})`;
  const m = `0?${Number(month)}`;
  const d = `0?${Number(day)}`;
  const sep = `\\s*[-/.]\\s*`;
  const name = MONTHS[Number(month) - 1];
  const monthName = `(?:${name}|${name.slice(0, 3)}${name === 'september' ? '(?:t)?' : ''}\\.?)`;
  const ordinal = `${d}(?:st|nd|rd|th)?`;
  const numeric = [`${year}${sep}${m}${sep}${d}`, `${m}${sep}${d}${sep}${y}`, `${d}${sep}${m}${sep}${y}`, `${year}${month}${day}`];
  const spelled = [`${monthName}\\s*${ordinal},?\\s*${y}`, `${ordinal}\\s*(?:of\\s+)?${monthName},?\\s*${y}`];
  return [...numeric.map((source) => `(?<![\\p{N}])(?:${source})(?![\\p{N}])`), ...spelled.map((source) => bounded(source, 'x'))];
}

/** The phone's digits with any spacing, brackets, dots or dashes between them, with or without a leading +1. */
function phonePatterns(phone: string): string[] {
  let digits = foldText(phone).replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  if (digits.length < 7) return [];
  return [`(?<!\\d)(?:\\+?1[\\s().\\-]*)?${[...digits].join('[\\s().\\-]*')}(?!\\d)`];
}

/** Street words and the abbreviations people type for them. */
const STREET_WORDS: Readonly<Record<string, string>> = {
  street: 'st', saint: 'st', avenue: 'ave?', road: 'rd', drive: 'dr', lane: 'ln', court: 'ct', boulevard: 'blvd', terrace: 'terr?',
  close: 'cl', trail: 'trl', place: 'pl', point: 'pt', apartment: 'apt', suite: 'ste', highway: 'hwy', parkway: 'pkwy', square: 'sq',
};
const ABBREVIATED = new Map(Object.entries(STREET_WORDS).map(([word, short]) => [short.replace('?', ''), word]));

function streetWord(run: string): string {
  const lower = run.toLowerCase();
  const word = STREET_WORDS[lower] ? lower : ABBREVIATED.get(lower);
  return word ? `(?:${word}|${STREET_WORDS[word]})` : escape(run);
}

/** The street line (whole, and its street part before a comma), the city, and the postal code (with a ZIP+4 suffix). */
function addressPatterns(patient: IdentifyingFields): string[] {
  const line = patient.addressLine ? [patient.addressLine, patient.addressLine.split(',')[0]] : [];
  const streets = [...new Set(line)].flatMap((value) => {
    const runs = foldText(value).match(/[\p{L}\p{N}]+/gu) ?? [];
    return runs.length >= 2 ? [bounded(runs.map(streetWord).join(`[\\s'’.,#\\-]*`), value)] : [];
  });
  const city = patient.city ? runsPattern(patient.city, `[\\s.\\-]*`) : null;
  const postal = patient.postalCode?.trim() ? `(?<![\\p{L}\\p{N}])${escape(foldText(patient.postalCode.trim()))}(?:-\\d{4})?(?![\\p{L}\\p{N}])` : null;
  return [...streets, ...(city && patient.city!.length >= 3 ? [bounded(city, patient.city!)] : []), ...(postal ? [postal] : [])];
}

/** Each kind's patterns for one patient (sources for a case-insensitive Unicode regular expression over folded text). */
function patternsOf(patient: IdentifyingFields): Array<[IdentifierKind, string]> {
  const email = patient.email?.trim() ? [`(?<![\\w.+-])${escape(foldText(patient.email.trim()))}(?![\\w-])`] : [];
  const byKind: Record<IdentifierKind, string[]> = {
    name: [...namePatterns(patient.givenName), ...namePatterns(patient.familyName)],
    mrn: mrnPatterns(patient.mrn),
    birth_date: birthDatePatterns(patient.birthDate),
    phone: patient.phone ? phonePatterns(patient.phone) : [],
    email,
    address: addressPatterns(patient),
  };
  return IDENTIFIER_KINDS.flatMap((kind) => byKind[kind].map((source): [IdentifierKind, string] => [kind, source]));
}

/**
 * Finds every place in a text where the patient's own identifiers stand (names, MRN, birth date,
 * phone, e-mail, street line, city, postal code), in order and without overlaps (where two overlap,
 * the one starting first, or the longer, takes both: an e-mail swallows the name inside it); names
 * next to each other ("Thornquist, Maribel") are one span. It finds the identifiers Vigil holds for
 * this patient however they are cased, punctuated or accented; it is not a general de-identifier
 * (nicknames, misspellings and other people's identifiers pass). One expression per pattern: each
 * starts with text of its own that the engine scans for quickly, which one alternation of all of
 * them loses (measured: about twice as slow on note text).
 */
export function identifierFinder(patient: IdentifyingFields): IdentifierFinder {
  const patterns = patternsOf(patient).map(([kind, source]) => ({ kind, pattern: new RegExp(source, 'giu') }));
  return (text) => {
    const folded = fold(text);
    const found: IdentifierSpan[] = [];
    for (const { kind, pattern } of patterns) {
      for (const match of folded.text.matchAll(pattern)) {
        if (match[0].length === 0) continue;
        found.push({ start: folded.start(match.index), end: folded.end(match.index + match[0].length - 1), kind });
      }
    }
    return mergeSpans(found, text);
  };
}

export type IdentifierFinder = (text: string) => IdentifierSpan[];

/**
 * One patient's finder, built once for as long as the memo lives (an agent turn: its question and
 * each of its tool results, which read the patient's row again) instead of once per use: building
 * one compiles a few dozen expressions, most of the scrubbing's cost on short text. Keyed by the
 * identifying fields' values, not the patient's id, so a read that returns changed identifiers gets
 * a finder for them. It holds only the last patient's: a turn is about one.
 */
export class IdentifierFinderMemo {
  private last?: { key: string; find: IdentifierFinder };

  finderFor(patient: IdentifyingFields): IdentifierFinder {
    const key = JSON.stringify(IDENTIFYING_FIELDS.map((field) => patient[field]));
    if (this.last?.key !== key) this.last = { key, find: identifierFinder(patient) };
    return this.last.find;
  }
}

function mergeSpans(found: IdentifierSpan[], text: string): IdentifierSpan[] {
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: IdentifierSpan[] = [];
  for (const span of found) {
    const previous = kept[kept.length - 1];
    if (previous && span.start < previous.end) {
      previous.end = Math.max(previous.end, span.end);
    } else if (previous?.kind === 'name' && span.kind === 'name' && /^[\s,]*$/.test(text.slice(previous.end, span.start))) {
      previous.end = span.end;
    } else {
      kept.push({ ...span });
    }
  }
  return kept;
}
