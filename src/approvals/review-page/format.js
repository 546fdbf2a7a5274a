// @ts-check
/**
 * How the review page says things: labels, people, patients, dates and waiting times. Pure (no DOM,
 * no clock unless given one), so the unit tests import it as it is served.
 */

export const KINDS = { close_care_gap: 'Close care gap', order_lab: 'Order lab', add_care_note: 'Add care note', schedule_outreach: 'Schedule outreach' };
export const ROLES = { clinician: 'clinician', care_coordinator: 'care coordinator', reviewer: 'reviewer', analyst: 'analyst', privacy_officer: 'privacy officer' };
const FIELDS = { measureId: 'Measure', remarkCode: 'Remark code', loincCode: 'LOINC code', noteType: 'Note type', dueDate: 'Due date' };
export const DECISIONS = { approve: 'Approved', reject: 'Rejected', cancel: 'Cancelled', edit: 'Edited', withdraw: 'Approval withdrawn', discount: 'Approval discounted' };

/** @param {Record<string, string>} labels @param {string} key */
export const label = (labels, key) => labels[key] ?? key;
/** `dueDate` → `Due date`, for content fields without a label of their own. @param {string} key */
export const fieldLabel = (key) => label(FIELDS, key).replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (first) => first.toUpperCase());
/** A colleague by display name and role: `Lucía Santos, MD (reviewer)`. @param {string | null | undefined} name @param {string} role */
export const person = (name, role) => `${name ?? 'a former user'} (${label(ROLES, role)})`;

/** How long a proposal has waited for a decision (not the patient's age). @param {string} iso @param {number} [now] */
export function waited(iso, now = Date.now()) {
  const minutes = Math.max(0, Math.round((now - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`;
  return `${Math.round(minutes / 1440)} d`;
}

/** @param {number} n */
const pad = (n) => String(n).padStart(2, '0');
/**
 * The page's one date format: `2026-06-30`, with the time on your clock for an instant (`2026-06-30
 * 14:05`); a day alone (a birth date, a due date) stays the day it is. @param {string} iso
 */
export function when(iso) {
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return iso;
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

// ---------------------------------------------------------------- the patient
// Fields the reader's role may not see arrive null and are named in `patient.redactedFields`.

/** @param {any} patient @param {string} field */
const withheld = (patient, field) => Boolean(patient?.redactedFields?.includes(field));
/** `Family, Given`. @param {any} patient */
export function patientName(patient) {
  if (!patient) return 'a patient';
  const name = [patient.familyName, patient.givenName].filter(Boolean).join(', ');
  return name || (withheld(patient, 'familyName') ? 'Name withheld' : 'Name unknown');
}
/** `76 y, female`. @param {any} patient */
export const ageSex = (patient) => [typeof patient?.age === 'number' ? `${patient.age} y` : null, patient?.sex].filter(Boolean).join(', ');
/** The second identifiers with age and sex: `MRN 100234 · born 1950-03-02 · 76 y, female`. @param {any} patient */
export function patientFacts(patient) {
  const facts = [patient?.mrn && `MRN ${patient.mrn}`, patient?.birthDate && `born ${when(patient.birthDate)}`, ageSex(patient)].filter(Boolean);
  if (withheld(patient, 'mrn') || withheld(patient, 'birthDate')) facts.push('identifiers withheld for your role');
  return facts.join(' · ');
}
/** The patient in a sentence: `Santos, Lucía, MRN 100234`. @param {any} patient */
export const patientLabel = (patient) => `${patientName(patient)}${patient?.mrn ? `, MRN ${patient.mrn}` : patient?.birthDate ? `, born ${patient.birthDate}` : ''}`;
/** One field of the detail: its value, or that the role may not see it. @param {any} patient @param {string} field */
export const patientField = (patient, field) => (withheld(patient, field) ? 'withheld (your role may not see it)' : (patient?.[field] ?? null) === null ? '—' : String(patient[field]));

/** One line for a cited item: its kind and the server's words for it, or that it is withheld and why. @param {any} cited */
export const citedLine = (cited) => (cited.withheld ? `${cited.kind ?? 'item'}: withheld (${cited.why})` : `${cited.kind}: ${cited.text}`);

/** A value of a proposal's content as text: strings as they are, anything else as JSON. @param {unknown} value */
export const contentValue = (value) => (value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value));

// ---------------------------------------------------------------- delivery of the applied effect

export const DESTINATIONS = { fhir: 'FHIR server', webhook: 'Webhook' };
const DELIVERY_REASONS = {
  timeout: 'no answer in time',
  unreachable: 'destination unreachable',
  server_error: 'destination error',
  auth_failed: 'sign-in to the destination failed',
  forbidden: 'not allowed by the destination',
  rejected: 'refused by the destination',
  duplicate_identifier: 'already there more than once',
  patient_not_found: 'patient not found there',
  patient_ambiguous: 'more than one matching patient there',
  invalid_response: 'unreadable answer',
  not_configured: 'destination no longer configured',
  interrupted: 'interrupted',
  internal: 'internal error',
};

/** Why an attempt failed, in words: `destination error, HTTP 503`. @param {any} delivery */
const failure = (delivery) => `${label(DELIVERY_REASONS, delivery.reason ?? 'internal')}${delivery.httpStatus ? `, HTTP ${delivery.httpStatus}` : ''}`;

/**
 * Where the applied effect stands at one destination, in a sentence: delivered (and what the FHIR
 * server made), retrying (when, and why the last attempt failed), waiting, or failed for good (an
 * operator sends it again). @param {any} delivery
 */
export function deliveryLine(delivery) {
  if (delivery.status === 'delivered') {
    const made = delivery.resource ? ` as ${delivery.resource.type}/${delivery.resource.id}${delivery.resource.version ? ` (version ${delivery.resource.version})` : ''}` : '';
    return `delivered${made}${delivery.deliveredAt ? ` on ${when(delivery.deliveredAt)}` : ''}`;
  }
  if (delivery.status === 'failed') return `failed after ${delivery.attempts} attempt(s) (${failure(delivery)}); an operator can send it again`;
  const next = delivery.nextAttemptAt ? ` at ${when(delivery.nextAttemptAt)}` : '';
  if (delivery.status === 'retrying') return `retrying${next} (attempt ${delivery.attempts} failed: ${failure(delivery)})`;
  return `waiting to be sent${delivery.attempts > 0 ? ` (attempt ${delivery.attempts} under way)` : ''}`;
}
