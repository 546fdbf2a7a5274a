// @ts-check
/**
 * Vigil's review page: the pending queue, one proposal with its history, approve / reject, updated
 * live. No framework and no build. Every value from the API reaches the page through textContent
 * or an attribute, never as markup; the page's CSP forbids inline script besides.
 */

const TOKEN_KEY = 'vigil.review.token';
const PAGE_SIZE = 50;
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const KINDS = { close_care_gap: 'Close care gap', order_lab: 'Order lab', add_care_note: 'Add care note', schedule_outreach: 'Schedule outreach' };
const ROLES = { clinician: 'clinician', care_coordinator: 'care coordinator', reviewer: 'reviewer', analyst: 'analyst', privacy_officer: 'privacy officer' };
const FIELDS = { measureId: 'Measure', remarkCode: 'Remark code', loincCode: 'LOINC code', noteType: 'Note type', dueDate: 'Due date' };
const DECISIONS = { approve: 'Approved', reject: 'Rejected', cancel: 'Cancelled', edit: 'Edited', withdraw: 'Approval withdrawn' };

/** @param {string} id */
const el = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {Record<string, string>} labels @param {string} key */
const label = (labels, key) => labels[key] ?? key;
/** `dueDate` → `Due date`, for content fields without a label of their own. @param {string} key */
const fieldLabel = (key) => label(FIELDS, key).replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (first) => first.toUpperCase());
/** A colleague by display name and role: `Lucía Santos, MD (reviewer)`. @param {string | null} name @param {string} role */
const person = (name, role) => `${name ?? 'a former user'} (${label(ROLES, role)})`;

const state = {
  /** @type {string | null} */ token: null,
  /** @type {any[]} */ items: [],
  /** @type {string | null} */ nextCursor: null,
  /** @type {string | null} */ selected: null,
  /** @type {any} */ detail: null,
  /** @type {AbortController | null} */ stream: null,
  /** @type {number | undefined} */ reloadTimer: undefined,
  /** The version of the open proposal the reviewer is reading (and deciding). @type {number | undefined} */ readVersion: undefined,
  /** Each proposal's patient as the queue or the detail last named it: live events carry ids only. @type {Map<string, any>} */ patients: new Map(),
  /** Live events heard since the last reload, announced once it has named their patients. @type {any[]} */ heard: [],
};

class ApiError extends Error {
  /** @param {number} status @param {any} problem */
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `The request failed (${status}).`);
    this.status = status;
  }
}

/** @param {string} path @param {{ method?: string, body?: unknown }} [options] */
async function api(path, options = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json', Authorization: `Bearer ${state.token}` };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    cache: 'no-store',
  });
  const body = await response.json().catch(() => null);
  if (response.status === 401) {
    signOut('Your token was refused or has expired. Sign in again.');
  }
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

// ---------------------------------------------------------------- messages

/** @param {string} message */
function announce(message) {
  // Cleared first so that the same sentence twice is announced twice.
  const announcer = el('announcer');
  announcer.textContent = '';
  window.setTimeout(() => (announcer.textContent = message), 50);
}

/** @param {string | null} message */
function showError(message) {
  const box = el('error');
  box.textContent = message ?? '';
  box.hidden = !message;
}

/** @param {string} message */
function setLiveState(message) {
  const live = el('live-state');
  live.textContent = message;
  live.hidden = false;
}

// ---------------------------------------------------------------- formatting

/** How long a proposal has waited for a decision (not the patient's age). @param {string} iso */
function waited(iso) {
  const minutes = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 60_000));
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
function when(iso) {
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return iso;
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

// ---------------------------------------------------------------- the patient
// Fields the reader's role may not see arrive null and are named in `patient.redactedFields`.

/** @param {any} patient @param {string} field */
const withheld = (patient, field) => Boolean(patient?.redactedFields?.includes(field));
/** `Family, Given`. @param {any} patient */
function patientName(patient) {
  if (!patient) return 'a patient';
  const name = [patient.familyName, patient.givenName].filter(Boolean).join(', ');
  return name || (withheld(patient, 'familyName') ? 'Name withheld' : 'Name unknown');
}
/** `76 y, female`. @param {any} patient */
const ageSex = (patient) => [typeof patient?.age === 'number' ? `${patient.age} y` : null, patient?.sex].filter(Boolean).join(', ');
/** The second identifiers with age and sex: `MRN 100234 · born 1950-03-02 · 76 y, female`. @param {any} patient */
function patientFacts(patient) {
  const facts = [patient?.mrn && `MRN ${patient.mrn}`, patient?.birthDate && `born ${when(patient.birthDate)}`, ageSex(patient)].filter(Boolean);
  if (withheld(patient, 'mrn') || withheld(patient, 'birthDate')) facts.push('identifiers withheld for your role');
  return facts.join(' · ');
}
/** The patient in a sentence: `Santos, Lucía, MRN 100234`. @param {any} patient */
const patientLabel = (patient) => `${patientName(patient)}${patient?.mrn ? `, MRN ${patient.mrn}` : patient?.birthDate ? `, born ${patient.birthDate}` : ''}`;
/** One field of the detail: its value, or that the role may not see it. @param {any} patient @param {string} field */
const patientField = (patient, field) => (withheld(patient, field) ? 'withheld (your role may not see it)' : (patient?.[field] ?? null) === null ? '—' : String(patient[field]));

/** @param {string} tag @param {string} [text] @param {string} [className] */
function node(tag, text, className) {
  const element = document.createElement(tag);
  if (text !== undefined) element.textContent = text;
  if (className) element.className = className;
  return element;
}

/** @param {string} iso */
function timeNode(iso, text = when(iso)) {
  const time = /** @type {HTMLTimeElement} */ (node('time', text));
  time.dateTime = iso;
  return time;
}

/** @param {HTMLElement} list @param {Array<[string, string | Node]>} facts */
function fillFacts(list, facts) {
  list.replaceChildren(
    ...facts.flatMap(([term, value]) => {
      const dd = node('dd');
      dd.append(typeof value === 'string' ? document.createTextNode(value) : value);
      return [node('dt', term), dd];
    }),
  );
}

/** @param {any} detail */
function approvalsOf(detail) {
  const author = detail.versions.find((/** @type {any} */ v) => v.version === detail.currentVersion)?.createdBy;
  // As the server counts: the version's author (a reviewer who edited it) does not approve their own
  // edit, and a withdrawn approval no longer counts.
  const ofVersion = detail.decisions.filter((/** @type {any} */ d) => d.version === detail.currentVersion);
  const withdrawn = new Set(ofVersion.filter((/** @type {any} */ d) => d.decision === 'withdraw').map((/** @type {any} */ d) => d.actorId));
  const approvers = ofVersion.filter((/** @type {any} */ d) => d.decision === 'approve' && d.actorId !== author && !withdrawn.has(d.actorId));
  return new Set(approvers.map((/** @type {any} */ d) => d.actorId)).size;
}

/** @param {any} item */
function approvalsGiven(item) {
  // The list carries the count: opening every proposal to count approvals would read (and audit)
  // evidence the reviewer never looked at.
  return Promise.resolve(item.approvalsGiven ?? 0);
}

// ---------------------------------------------------------------- the queue

async function loadQueue(append = false) {
  const params = new URLSearchParams({ status: 'pending', limit: String(PAGE_SIZE) });
  if (append && state.nextCursor) params.set('cursor', state.nextCursor);
  const page = await api(`/proposals?${params}`);
  const items = append ? [...state.items, ...page.items] : page.items;
  const given = await Promise.all(items.map((/** @type {any} */ item) => approvalsGiven(item).catch(() => null)));
  state.items = items.map((/** @type {any} */ item, /** @type {number} */ index) => ({ ...item, given: given[index] }));
  for (const item of state.items) state.patients.set(item.id, item.patient);
  state.nextCursor = page.nextCursor;
  renderQueue();
}

function renderQueue() {
  // A live refresh rebuilds the rows: keep keyboard focus on the same proposal's button if it had it.
  const focused = document.activeElement?.closest('tr')?.getAttribute('data-proposal-id');
  const rows = state.items.map((item) => {
    const row = node('tr');
    row.dataset.proposalId = item.id;
    if (item.id === state.selected) row.setAttribute('aria-current', 'true');
    const proposer = person(item.proposerName, item.proposerRole) + (item.agentTurnId ? ' via agent' : '');
    const approvals = `${item.given ?? '?'} of ${item.requiredApprovals}`;
    const since = item.submittedAt ?? item.createdAt;
    const waitingCell = node('td');
    waitingCell.append(timeNode(since, waited(since)));
    const patientCell = node('td');
    patientCell.append(node('span', patientName(item.patient), 'patient-name'), node('span', patientFacts(item.patient), 'patient-facts'));
    const open = node('button', 'Review');
    open.setAttribute('type', 'button');
    open.append(node('span', ` ${label(KINDS, item.kind)} for ${patientLabel(item.patient)}`, 'visually-hidden'));
    open.addEventListener('click', () => void openDetail(item.id, true));
    const action = node('td');
    action.append(open);
    row.append(node('td', label(KINDS, item.kind)), patientCell, node('td', proposer), waitingCell, node('td', approvals), action);
    return row;
  });
  el('queue-rows').replaceChildren(...rows);
  el('queue-count').textContent = `(${state.items.length}${state.nextCursor ? '+' : ''})`;
  el('queue-empty').hidden = state.items.length > 0;
  el('queue-table').hidden = state.items.length === 0;
  el('load-more').hidden = !state.nextCursor;
  if (focused) {
    const again = el('queue-rows').querySelector(`tr[data-proposal-id="${CSS.escape(focused)}"] button`);
    /** @type {HTMLElement} */ (again ?? el('queue-title')).focus();
  }
}

/** Live changes come in bursts: one reload for a burst. */
function scheduleReload() {
  window.clearTimeout(state.reloadTimer);
  state.reloadTimer = window.setTimeout(() => {
    const heard = state.heard.splice(0);
    loadQueue().then(() => announceChanges(heard), (error) => showError(error.message));
    if (state.selected) openDetail(state.selected, false).catch((error) => showError(error.message));
  }, 250);
}

// ---------------------------------------------------------------- one proposal

/** @param {string} id @param {boolean} focus */
async function openDetail(id, focus) {
  const detail = await api(`/proposals/${encodeURIComponent(id)}`);
  if (focus) showError(null);
  state.selected = id;
  state.detail = detail;
  state.patients.set(id, detail.patient);
  // The version the reviewer opened is the one their decision names; a live refresh that brings a
  // newer version must not silently change what "Approve" approves (the server answers 409 instead).
  if (focus || state.readVersion === undefined) state.readVersion = detail.currentVersion;
  if (detail.currentVersion !== state.readVersion) {
    showError(`Version ${detail.currentVersion} arrived while you were reading version ${state.readVersion}: reopen the proposal to review it.`);
  }
  renderDetail(detail);
  renderQueue();
  el('detail').hidden = false;
  if (focus) el('detail-title').focus();
}

/** @param {any} detail */
function renderDetail(detail) {
  const version = detail.versions.find((/** @type {any} */ v) => v.version === detail.currentVersion) ?? detail.versions.at(-1);
  el('detail-title').textContent = `${label(KINDS, detail.kind)}: ${detail.status}`;
  const patient = detail.patient;
  /** @type {Array<[string, string | Node]>} */
  const summary = [
    ['Status', detail.status + (detail.outcome ? ` (${detail.outcome})` : '') + (detail.failureKind ? ` (${detail.failureKind})` : '')],
    ['Patient', patientName(patient)],
    ['MRN', patientField(patient, 'mrn')],
    ['Born', patientField(patient, 'birthDate')],
    ['Age, sex', ageSex(patient) || patientField(patient, 'age')],
    ...(patient?.deceasedAt ? [/** @type {[string, Node]} */ (['Deceased', timeNode(patient.deceasedAt)])] : []),
    ['Proposed by', person(detail.proposerName, detail.proposerRole) + (detail.agentTurnId ? ' via agent' : '')],
    ['Waiting since', detail.submittedAt ? timeNode(detail.submittedAt) : 'not submitted (a draft)'],
    ['Expires', timeNode(detail.expiresAt)],
    ['Approvals', `${approvalsOf(detail)} of ${detail.requiredApprovals}`],
  ];
  fillFacts(el('detail-summary'), summary);
  el('detail-version').textContent = `(version ${detail.currentVersion})`;
  fillFacts(
    el('detail-content'),
    Object.entries(version?.content ?? {}).map(([key, value]) => [fieldLabel(key), typeof value === 'string' ? value : JSON.stringify(value)]),
  );
  el('detail-rationale').textContent = version?.rationale ?? '';
  // Each cited item as the reviewer's role may see it, in words, or why it is withheld: never a bare id.
  const shown = new Map((detail.evidence?.items ?? []).map((/** @type {any} */ cited) => [cited.id, cited]));
  const citations = (version?.citations ?? []).map((/** @type {string} */ citation) => {
    const item = node('li');
    item.append(node('code', citation));
    const cited = shown.get(citation);
    if (cited) item.append(document.createTextNode(` — ${citedLine(cited)}`));
    return item;
  });
  el('detail-citations').replaceChildren(...(citations.length ? citations : [node('li', 'None cited.')]));
  el('detail-history').replaceChildren(...historyOf(detail));

  const pending = detail.status === 'pending';
  el('decide-open').hidden = !pending;
  el('decide-closed').hidden = pending;
  el('decide-closed').textContent = pending ? '' : `This proposal is ${detail.status}: it can no longer be decided.`;
  el('approve').textContent = `Approve version ${detail.currentVersion}`;
}

/** One line for a cited item: its kind and the server's words for it, or that it is withheld and why. @param {any} cited */
function citedLine(cited) {
  return cited.withheld ? `${cited.kind ?? 'item'}: withheld (${cited.why})` : `${cited.kind}: ${cited.text}`;
}

/** @param {any} detail */
function historyOf(detail) {
  const entries = [
    ...detail.versions.map((/** @type {any} */ v) => ({
      at: v.createdAt,
      text: `Version ${v.version} ${v.version === 1 ? 'proposed' : 'written'} by ${person(v.createdByName, v.createdByRole)} (content hash ${String(v.contentHash).slice(0, 12)}…)`,
    })),
    ...detail.decisions.map((/** @type {any} */ d) => ({
      at: d.createdAt,
      text: `${label(DECISIONS, d.decision)} version ${d.version} by ${person(d.actorName, d.actorRole)}${d.reason ? `: “${d.reason}”` : ''}`,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return entries.map((entry) => {
    const item = node('li');
    item.append(timeNode(entry.at), document.createTextNode(` ${entry.text}`));
    return item;
  });
}

const DONE = { approve: 'Approved', reject: 'Rejected', 'withdraw-approval': 'Approval withdrawn' };

/** @param {'approve' | 'reject' | 'withdraw-approval'} decision @param {string} [reason] */
async function decide(decision, reason) {
  const detail = state.detail;
  if (!detail) return;
  const buttons = el('decide-open').querySelectorAll('button');
  buttons.forEach((button) => (button.disabled = true));
  try {
    const version = state.readVersion ?? detail.currentVersion;
    const body = reason === undefined ? { version } : { version, reason };
    const result = await api(`/proposals/${encodeURIComponent(detail.id)}/${decision}`, { method: 'POST', body });
    showError(null);
    announce(`${DONE[decision]}: ${label(KINDS, detail.kind)} for ${patientLabel(detail.patient)} is now ${result.status}.`);
    /** @type {HTMLTextAreaElement} */ (el('reject-reason')).value = '';
  } catch (error) {
    const message = /** @type {Error} */ (error).message;
    showError(/** @type {ApiError} */ (error).status === 409 ? `${message} The proposal has been reloaded.` : message);
  } finally {
    buttons.forEach((button) => (button.disabled = false));
    state.readVersion = undefined;
    await Promise.all([loadQueue(), openDetail(detail.id, false)]).catch(() => undefined);
    el('detail-title').focus();
  }
}

/** @param {SubmitEvent} event */
function onReject(event) {
  event.preventDefault();
  const field = /** @type {HTMLTextAreaElement} */ (el('reject-reason'));
  const reason = field.value.trim();
  const problem = reason.length < 3 ? 'Give a reason of at least 3 characters.' : reason.length > 1000 ? 'Keep the reason under 1000 characters.' : null;
  el('reject-reason-error').textContent = problem ?? '';
  el('reject-reason-error').hidden = !problem;
  field.setAttribute('aria-invalid', String(Boolean(problem)));
  if (problem) {
    field.focus();
    return;
  }
  void decide('reject', reason);
}

// ---------------------------------------------------------------- live updates

/**
 * Reads GET /proposals/events with fetch(), which, unlike EventSource, can send the token in the
 * Authorization header (a token in a URL would end up in logs). Reconnects with backoff.
 */
async function followStream() {
  const controller = new AbortController();
  state.stream = controller;
  let delay = 1000;
  while (!controller.signal.aborted) {
    try {
      const response = await fetch('/proposals/events', {
        headers: { Accept: 'text/event-stream', Authorization: `Bearer ${state.token}` },
        signal: controller.signal,
        cache: 'no-store',
      });
      if (response.status === 401) return signOut('Your token was refused or has expired. Sign in again.');
      if (response.status === 403) return setLiveState('Live updates are not available for your role');
      if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
      setLiveState('Live updates on');
      delay = 1000;
      scheduleReload(); // whatever changed while we were not listening
      await readEvents(response.body, onEvent);
    } catch {
      if (controller.signal.aborted) return;
    }
    setLiveState('Live updates interrupted, reconnecting…');
    await new Promise((resolve) => window.setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 30_000);
  }
}

/** Server-sent events framing: blocks separated by a blank line; `event:` and `data:` fields; `:` comments. */
/** @param {ReadableStream<Uint8Array>} body @param {(event: { type: string, data: any }) => void} onMessage */
async function readEvents(body, onMessage) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer = (buffer + value).replace(/\r\n|\r(?!$)/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const message = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (message) onMessage(message);
    }
  }
}

/** @param {string} block */
function parseEvent(block) {
  let type = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  try {
    return { type, data: JSON.parse(data.join('\n')) };
  } catch {
    return null;
  }
}

/**
 * Events say nothing about the patient, by design: the reload they trigger re-reads the queue (an
 * audited read that names its patients), and the announcement names the patient from it then.
 * @param {{ type: string, data: any }} event
 */
function onEvent(event) {
  if (event.type !== 'proposal.created' && event.type !== 'proposal.updated') return;
  state.heard.push(event);
  scheduleReload();
}

/** @param {Array<{ type: string, data: any }>} events */
function announceChanges(events) {
  const sentences = events.map(({ type, data }) => {
    const what = `${label(KINDS, data.kind)} for ${patientLabel(state.patients.get(data.id))}`;
    return type === 'proposal.created' ? `New proposal: ${what}.` : `Updated: ${what} is ${data.status}.`;
  });
  if (sentences.length > 0) announce(sentences.join(' '));
}

// ---------------------------------------------------------------- session

/** @param {string} token */
async function signIn(token) {
  showError(null);
  if (!JWT.test(token)) return showError('That does not look like a token: paste the whole bearer token.');
  state.token = token;
  try {
    await loadQueue();
  } catch (error) {
    if (/** @type {ApiError} */ (error).status !== 401) showError(/** @type {Error} */ (error).message);
    state.token = null;
    return;
  }
  sessionStorage.setItem(TOKEN_KEY, token);
  /** @type {HTMLInputElement} */ (el('token')).value = '';
  el('sign-in').hidden = true;
  el('workspace').hidden = false;
  el('sign-out').hidden = false;
  announce(`Signed in. ${state.items.length} proposal${state.items.length === 1 ? '' : 's'} pending.`);
  el('queue-title').setAttribute('tabindex', '-1');
  el('queue-title').focus();
  void followStream();
}

/** @param {string} [message] */
function signOut(message) {
  state.stream?.abort();
  Object.assign(state, { token: null, items: [], nextCursor: null, selected: null, detail: null, stream: null, patients: new Map(), heard: [] });
  sessionStorage.removeItem(TOKEN_KEY);
  el('workspace').hidden = true;
  el('detail').hidden = true;
  el('sign-out').hidden = true;
  el('live-state').hidden = true;
  el('sign-in').hidden = false;
  showError(message ?? null);
  el('token').focus();
}

el('sign-in-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void signIn(/** @type {HTMLInputElement} */ (el('token')).value.trim());
});
el('sign-out').addEventListener('click', () => signOut());
el('approve').addEventListener('click', () => void decide('approve'));
el('withdraw-approval').addEventListener('click', () => void decide('withdraw-approval'));
el('reject-form').addEventListener('submit', onReject);
el('load-more').addEventListener('click', () => loadQueue(true).catch((error) => showError(error.message)));
window.setInterval(() => state.token && renderQueue(), 30_000); // waiting times move on

const saved = sessionStorage.getItem(TOKEN_KEY);
if (saved) void signIn(saved);
