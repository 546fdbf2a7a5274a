// @ts-check
/**
 * The pending queue: read page by page from GET /proposals with the reviewer's filters, sorted,
 * one row per proposal, each opened by keyboard (Tab, or the arrow keys between rows) or pointer.
 */
import { api } from './api.js';
import { announce, el, fillSelect, node, showError, timeNode } from './dom.js';
import { KINDS, label, patientFacts, patientLabel, patientName, person, waited, when } from './format.js';
import { choicesOf, filtersInWords, noFilters, queueQuery, SORT_COLUMN, SORTS, sortItems, WAITING } from './queue-view.js';
import { state } from './state.js';

const PAGE_SIZE = 50;
/** @type {(id: string, focus: boolean) => Promise<void>} */
let open = async () => undefined;
/** What a row's "Review" button does (detail.js's openDetail, wired by review.js). @param {(id: string, focus: boolean) => Promise<void>} opener */
export const onOpen = (opener) => void (open = opener);

/** Reads in flight: only the newest one's answer is shown (filters changed quickly answer out of order). */
let reads = 0;
/**
 * A change of filters not yet announced, and what to say before it. Whichever read shows rows next
 * says it, since every read asks for the newest filters: the filter's own read, or a live refresh or
 * later change that overtook it (which would otherwise leave the change unannounced).
 * @type {string | null}
 */
let owedFilterNews = null;

/** Reads the queue's first page (`append`: its next one) and shows it; false when a newer read overtook it (its answer is dropped). */
export async function loadQueue(append = false) {
  const read = ++reads;
  const page = await api(`/proposals?${queueQuery(state.filters, PAGE_SIZE, append ? state.nextCursor : null)}`);
  if (read !== reads) return false;
  state.items = append ? [...state.items, ...page.items] : page.items;
  for (const item of state.items) {
    state.patients.set(item.id, item.patient);
    state.seen.set(item.id, item);
  }
  state.nextCursor = page.nextCursor;
  renderFilters();
  renderQueue();
  if (owedFilterNews !== null) announceFilters(owedFilterNews);
  return true;
}

/** The rows shown and the filters and order they answer, in a sentence. @param {string} said what to say before */
function announceFilters(said) {
  owedFilterNews = null;
  const words = filtersInWords(state.filters, choicesOf(state.seen.values()));
  const count = `${state.items.length}${state.nextCursor ? ' or more' : ''} proposal${state.items.length === 1 ? '' : 's'} shown`;
  announce(`${said}${count}${words ? `, filtered by ${words}` : ''}; ${SORTS[/** @type {keyof typeof SORTS} */ (state.filters.sort)] ?? ''}.`);
}

/** The filters' choices: every kind, and the patients, proposers and teams the queue has shown. */
function renderFilters() {
  const choices = choicesOf(state.seen.values());
  const any = /** @type {[string, string]} */ (['', 'All']);
  fillSelect(/** @type {HTMLSelectElement} */ (el('filter-kind')), [any, ...Object.entries(KINDS)]);
  fillSelect(/** @type {HTMLSelectElement} */ (el('filter-patient')), [any, ...choices.patients]);
  fillSelect(/** @type {HTMLSelectElement} */ (el('filter-proposer')), [any, ...choices.proposers]);
  fillSelect(/** @type {HTMLSelectElement} */ (el('filter-care-team')), [any, ...choices.careTeams.map((team) => /** @type {[string, string]} */ ([team, team]))]);
  fillSelect(/** @type {HTMLSelectElement} */ (el('filter-waiting')), Object.entries(WAITING));
  fillSelect(/** @type {HTMLSelectElement} */ (el('queue-sort')), Object.entries(SORTS));
  for (const [id, key] of /** @type {const} */ ([['filter-kind', 'kind'], ['filter-patient', 'patientId'], ['filter-proposer', 'proposerId'], ['filter-care-team', 'careTeam'], ['filter-waiting', 'minWaitingHours'], ['queue-sort', 'sort']])) {
    /** @type {HTMLSelectElement} */ (el(id)).value = state.filters[key];
  }
}

export function renderQueue() {
  // A live refresh rebuilds the rows: keep keyboard focus on the same proposal's button if it had it.
  const focused = document.activeElement?.closest('#queue-rows tr')?.getAttribute('data-proposal-id');
  const items = sortItems(state.items, state.filters.sort);
  el('queue-rows').replaceChildren(...items.map(rowOf));
  el('queue-count').textContent = `(${state.items.length}${state.nextCursor ? '+' : ''})`;
  el('queue-empty').textContent = filtersInWords(state.filters, choicesOf(state.seen.values())) ? 'Nothing waiting matches these filters.' : 'Nothing is waiting for review.';
  el('queue-empty').hidden = state.items.length > 0;
  el('queue-table').hidden = state.items.length === 0;
  el('load-more').hidden = !state.nextCursor;
  // Kind, patient, proposer and team order the rows read so far; the server pages by waiting time.
  const partial = Boolean(state.nextCursor) && !['oldest', 'newest'].includes(state.filters.sort);
  el('queue-sort-note').textContent = partial ? `Sorted among the ${state.items.length} loaded so far: load more to sort them all.` : '';
  el('queue-sort-note').hidden = !partial;
  const column = /** @type {Record<string, string>} */ (SORT_COLUMN)[state.filters.sort];
  for (const th of el('queue-table').querySelectorAll('th[data-column]')) {
    const sorted = th.getAttribute('data-column') === column;
    if (!sorted) th.removeAttribute('aria-sort');
    else th.setAttribute('aria-sort', state.filters.sort === 'newest' ? 'ascending' : state.filters.sort === 'oldest' ? 'descending' : 'ascending');
  }
  if (focused) {
    const again = el('queue-rows').querySelector(`tr[data-proposal-id="${CSS.escape(focused)}"] button`);
    /** @type {HTMLElement} */ (again ?? el('queue-title')).focus();
  }
}

/** @param {any} item */
function rowOf(item) {
  const row = node('tr');
  row.dataset.proposalId = item.id;
  if (item.id === state.selected) row.setAttribute('aria-current', 'true');
  const proposer = person(item.proposerName, item.proposerRole) + (item.agentTurnId ? ' via agent' : '');
  // The list carries the count: opening every proposal to count approvals would read (and audit)
  // evidence the reviewer never looked at.
  const approvals = `${item.approvalsGiven ?? 0} of ${item.requiredApprovals}`;
  const since = item.submittedAt ?? item.createdAt;
  const waitingCell = node('td');
  waitingCell.append(timeNode(since, waited(since)));
  waitingCell.title = `Waiting since ${when(since)}`;
  const patientCell = node('td');
  patientCell.append(node('span', patientName(item.patient), 'patient-name'), node('span', patientFacts(item.patient), 'patient-facts'));
  const button = node('button', 'Review');
  button.setAttribute('type', 'button');
  button.append(node('span', ` ${label(KINDS, item.kind)} for ${patientLabel(item.patient)}`, 'visually-hidden'));
  button.addEventListener('click', () => void open(item.id, true));
  const action = node('td');
  action.append(button);
  row.append(node('td', label(KINDS, item.kind)), patientCell, node('td', proposer), node('td', (item.careTeams ?? []).join(', ') || '—'), waitingCell, node('td', approvals), action);
  return row;
}

/** Up and down arrows move between rows' Review buttons, Home and End to the first and last. @param {KeyboardEvent} event */
function onRowKey(event) {
  const buttons = [.../** @type {NodeListOf<HTMLButtonElement>} */ (el('queue-rows').querySelectorAll('tr button'))];
  const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
  if (at < 0) return;
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 }[event.key];
  if (to === undefined || !buttons[to]) return;
  event.preventDefault();
  buttons[to].focus();
}

/** Reads the queue for the new filters; the read that shows rows first announces them. @param {string} [said] what to announce before the count */
async function applyFilters(said = '') {
  showError(null);
  owedFilterNews = said;
  await loadQueue().catch((error) => showError(/** @type {Error} */ (error).message));
}

export function wireQueue() {
  el('queue-rows').addEventListener('keydown', onRowKey);
  el('queue-filters').addEventListener('submit', (event) => event.preventDefault());
  el('queue-filters').addEventListener('change', (event) => {
    const select = /** @type {HTMLSelectElement} */ (event.target);
    const key = /** @type {keyof typeof state.filters} */ (select.name);
    const before = state.filters;
    state.filters = { ...before, [key]: select.value };
    // A sort of the rows already read needs no new read; a filter, or another server order, does.
    if (key === 'sort' && queueQuery(before, PAGE_SIZE).get('sort') === queueQuery(state.filters, PAGE_SIZE).get('sort')) {
      renderQueue();
      announce(`Sorted by ${SORTS[/** @type {keyof typeof SORTS} */ (select.value)]}.`);
      return;
    }
    void applyFilters();
  });
  el('clear-filters').addEventListener('click', () => {
    state.filters = noFilters();
    renderFilters();
    void applyFilters('Filters cleared. ');
  });
  el('load-more').addEventListener('click', () => {
    showError(null);
    loadQueue(true).catch((error) => showError(error.message));
  });
}
