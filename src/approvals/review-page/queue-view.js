// @ts-check
/**
 * What the queue shows and in which order: the filters as GET /proposals query parameters (the
 * server filters, so every page of a filtered queue is filtered), and the sort. Waiting time is the
 * server's order (it pages by it); kind, patient, proposer and care team order the rows loaded so
 * far. Pure, so the unit tests import it as served.
 */
import { KINDS, label, patientName, person } from './format.js';

/** @typedef {{ kind: string, patientId: string, proposerId: string, careTeam: string, minWaitingHours: string, sort: string }} QueueFilters */

/** The sorts offered, each with the words the page says it in. */
export const SORTS = {
  oldest: 'Waiting longest first',
  newest: 'Newest first',
  kind: 'Kind (A–Z)',
  patient: 'Patient (A–Z)',
  proposer: 'Proposed by (A–Z)',
  careTeam: 'Care team (A–Z)',
};

/** The column each sort orders (its header carries `aria-sort`). */
export const SORT_COLUMN = { oldest: 'waiting', newest: 'waiting', kind: 'kind', patient: 'patient', proposer: 'proposer', careTeam: 'careTeam' };

/** "Waited at least" choices, in hours. */
export const WAITING = { '': 'Any time', 1: '1 hour or more', 24: '1 day or more', 72: '3 days or more', 168: '7 days or more' };

/** @returns {QueueFilters} */
export const noFilters = () => ({ kind: '', patientId: '', proposerId: '', careTeam: '', minWaitingHours: '', sort: 'oldest' });

/**
 * GET /proposals's query for these filters: pending only, the server's order for waiting time
 * (`newest` for any sort of the loaded rows, as the list has always come).
 * @param {QueueFilters} filters @param {number} pageSize @param {string | null} [cursor]
 */
export function queueQuery(filters, pageSize, cursor = null) {
  const params = new URLSearchParams({ status: 'pending', limit: String(pageSize), sort: filters.sort === 'oldest' ? 'oldest' : 'newest' });
  for (const key of /** @type {const} */ (['kind', 'patientId', 'proposerId', 'careTeam', 'minWaitingHours'])) if (filters[key]) params.set(key, filters[key]);
  if (cursor) params.set('cursor', cursor);
  return params;
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** @type {Record<string, (item: any) => string>} */
const SORT_KEY = {
  kind: (item) => label(KINDS, item.kind),
  patient: (item) => patientName(item.patient),
  proposer: (item) => person(item.proposerName, item.proposerRole),
  careTeam: (item) => (item.careTeams ?? []).join(', '),
};

/**
 * The rows in the chosen order; ties (and the server's own sorts) keep the order the server gave,
 * which is by waiting time. @param {any[]} items @param {string} sort
 */
export function sortItems(items, sort) {
  const key = SORT_KEY[sort];
  if (!key) return [...items];
  return items.map((item, index) => ({ item, index })).sort((a, b) => collator.compare(key(a.item), key(b.item)) || a.index - b.index).map(({ item }) => item);
}

/**
 * The patients, proposers and care teams the queue has named so far, for the filters' choices
 * (a filter shows only what the reviewer has been shown). @param {Iterable<any>} items
 */
export function choicesOf(items) {
  /** @type {Map<string, string>} */ const patients = new Map();
  /** @type {Map<string, string>} */ const proposers = new Map();
  /** @type {Set<string>} */ const careTeams = new Set();
  for (const item of items) {
    patients.set(item.patientId, `${patientName(item.patient)}${item.patient?.mrn ? `, MRN ${item.patient.mrn}` : ''}`);
    proposers.set(item.proposerId, person(item.proposerName, item.proposerRole));
    for (const team of item.careTeams ?? []) careTeams.add(team);
  }
  const byLabel = (/** @type {Map<string, string>} */ map) => [...map].sort((a, b) => collator.compare(a[1], b[1]));
  return { patients: byLabel(patients), proposers: byLabel(proposers), careTeams: [...careTeams].sort(collator.compare) };
}

/** The filters in words, for the announcement after they change: `Order lab, waiting 1 day or more`. @param {QueueFilters} filters @param {ReturnType<typeof choicesOf>} choices */
export function filtersInWords(filters, choices) {
  const named = (/** @type {Array<[string, string]>} */ list, /** @type {string} */ id) => list.find(([key]) => key === id)?.[1] ?? id;
  return [
    filters.kind && label(KINDS, filters.kind),
    filters.patientId && `patient ${named(choices.patients, filters.patientId)}`,
    filters.proposerId && `proposed by ${named(choices.proposers, filters.proposerId)}`,
    filters.careTeam && `care team ${filters.careTeam}`,
    filters.minWaitingHours && `waiting ${label(WAITING, filters.minWaitingHours)}`,
  ].filter(Boolean).join(', ');
}

/**
 * Whether a live event is news to this reader: a new proposal the queue has shown already is not (the
 * stream repeats the changes of the seconds before it opened, so a page opened just after a filing
 * hears of the rows it lists). `seen`: whether the queue had shown the proposal when the event came.
 * @param {{ type: string, data: any }} event @param {boolean} seen
 */
export function isNews(event, seen) {
  return !(event.type === 'proposal.created' && seen);
}
