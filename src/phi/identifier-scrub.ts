import { PatientRow } from '../cohort/chart.types';

/** Fields holding free text that people wrote, where a patient's identifiers can turn up. */
const FREE_TEXT_FIELDS = new Set(['text', 'valueText', 'referenceText']);

/**
 * Masks the patient's own known identifiers (MRN, names, phone, e-mail, street address, postal
 * code) inside free text, for projections that carry no direct identifiers (analyst, agent).
 * A projection allowlist can keep an identifier *field* out, but not an MRN someone typed into a
 * note. This catches the identifiers Vigil knows, exactly as stored; it is not a general
 * de-identifier (misspellings or other people's identifiers pass), which the README says.
 */
export function scrubKnownIdentifiers<T>(value: T, patient: PatientRow): T {
  const identifiers = knownIdentifiers(patient);
  if (identifiers.length === 0) return value;
  const pattern = new RegExp(identifiers.map(([, text]) => escape(text)).join('|'), 'giu');
  const labelOf = new Map(identifiers.map(([label, text]) => [text.toLocaleLowerCase(), label]));
  const scrub = (text: string) => text.replace(pattern, (match) => `[${labelOf.get(match.toLocaleLowerCase()) ?? 'identifier'} removed]`);
  return walk(value, scrub);
}

function knownIdentifiers(patient: PatientRow): Array<[string, string]> {
  const candidates: Array<[string, string | null]> = [
    ['MRN', patient.mrn],
    ['name', patient.givenName],
    ['name', patient.familyName],
    ['phone', patient.phone],
    ['e-mail', patient.email],
    ['address', patient.addressLine],
    ['postal code', patient.postalCode],
  ];
  // Longest first, so "O'Brien-Núñez" is masked whole before any shorter overlap.
  return candidates
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim().length >= 2)
    .sort((a, b) => b[1].length - a[1].length);
}

function walk<T>(value: T, scrub: (text: string) => string, key?: string): T {
  if (typeof value === 'string') return (key && FREE_TEXT_FIELDS.has(key) ? scrub(value) : value) as T;
  if (Array.isArray(value)) return value.map((item) => walk(item, scrub, key)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([field, item]) => [field, walk(item, scrub, field)])) as T;
  }
  return value;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
