// @ts-check
/** One proposal: who and what, its versions and what changed, evidence, history, and the reader's decision. */
import { api, openApiDocument } from './api.js';
import { announce, el, fillFacts, node, setFieldError, showError, timeNode } from './dom.js';
import { closeEditForm, onSaved } from './edit-form.js';
import { ageSex, citedLine, contentValue, deliveryLine, DESTINATIONS, fieldLabel, KINDS, label, patientField, patientLabel, patientName, person, when } from './format.js';
import { inOrder } from './diff.js';
import { countingApprovers, historyEntries, uncountedApprovals } from './history.js';
import { loadQueue, renderQueue } from './queue.js';
import { checkField, contentSchemaOf, fieldsOfSchema, ruleText } from './schema-form.js';
import { state } from './state.js';
import { renderChanges, renderVersions } from './versions.js';

/** Reads in flight: only the newest one is shown (a refresh of the last proposal must not replace the one opened since). */
let reads = 0;

/** @param {string} id @param {boolean} focus whether the reader opened it (rather than a live refresh) */
export async function openDetail(id, focus) {
  const read = ++reads;
  if (focus) showError(null);
  const detail = await api(`/proposals/${encodeURIComponent(id)}`);
  // The kind's fields in their schema order (read once per page load); without it, as stored.
  const order = Object.keys(contentSchemaOf(await openApiDocument().catch(() => null), detail.kind)?.properties ?? {});
  if (read !== reads) return;
  const another = state.selected !== id;
  state.selected = id;
  state.detail = detail;
  state.patients.set(id, detail.patient);
  // The version the reviewer opened is the one their decision names; a live refresh that brings a
  // newer version must not silently change what "Approve" approves (the server answers 409 instead).
  if (focus || state.readVersion === undefined) state.readVersion = detail.currentVersion;
  if (detail.currentVersion !== state.readVersion) {
    showError(`Version ${detail.currentVersion} arrived while you were reading version ${state.readVersion}: reopen the proposal to review it.`);
  }
  if (focus || another) resetDecisionForms();
  renderDetail(detail, order);
  renderQueue();
  el('detail').hidden = false;
  if (focus) el('detail-title').focus();
}

/** Forms left half-filled for another proposal (or before a decision) start empty. */
function resetDecisionForms() {
  closeEditForm();
  for (const name of ['reject', 'cancel']) {
    const field = /** @type {HTMLTextAreaElement} */ (el(`${name}-reason`));
    field.value = '';
    setFieldError(field, el(`${name}-reason-error`), null);
  }
}

/** @param {any} detail @param {string[]} order the kind's fields, in the order its schema lists them */
function renderDetail(detail, order) {
  const readVersion = state.readVersion ?? detail.currentVersion;
  const version = detail.versions.find((/** @type {any} */ v) => v.version === readVersion) ?? detail.versions.at(-1);
  el('detail-title').textContent = `${label(KINDS, detail.kind)} for ${patientLabel(detail.patient)}: ${detail.status}`;
  const patient = detail.patient;
  /** @type {Array<[string, string | Node]>} */
  const summary = [
    ['Status', detail.status + (detail.outcome ? ` (${detail.outcome})` : '') + (detail.failureKind ? ` (${detail.failureKind})` : '')],
    ['Patient', patientName(patient)],
    ['MRN', patientField(patient, 'mrn')],
    ['Born', patientField(patient, 'birthDate')],
    ['Age, sex', ageSex(patient) || patientField(patient, 'age')],
    ...(patient?.deceasedAt ? [/** @type {[string, Node]} */ (['Deceased', timeNode(patient.deceasedAt, when(patient.deceasedAt))])] : []),
    ['Proposed by', person(detail.proposerName, detail.proposerRole) + (detail.agentTurnId ? ' via agent' : '')],
    ['Waiting since', detail.submittedAt ? timeNode(detail.submittedAt, when(detail.submittedAt)) : 'not submitted (a draft)'],
    ['Expires', timeNode(detail.expiresAt, when(detail.expiresAt))],
    ['Approvals', `${countingApprovers(detail).length} of ${detail.requiredApprovals} for version ${detail.currentVersion}`],
    // Once the effect is applied: where it stands at each destination (the live queue refreshes it).
    ...(detail.deliveries ?? []).map((/** @type {any} */ delivery) => /** @type {[string, string]} */ ([`Delivery to ${label(DESTINATIONS, delivery.destination)}`, deliveryLine(delivery)])),
  ];
  fillFacts(el('detail-summary'), summary);
  const uncounted = uncountedApprovals(detail);
  el('detail-approvals-note').textContent = uncounted.length ? `Why some approvals do not count: ${uncounted.join(' ')}` : '';
  el('detail-approvals-note').hidden = uncounted.length === 0;

  el('detail-version').textContent = `(version ${version.version}${detail.versions.length > 1 ? ` of ${detail.versions.length}` : ''})`;
  fillFacts(el('detail-content'), inOrder(Object.keys(version?.content ?? {}), order).map((key) => [fieldLabel(key), contentValue(version.content[key])]));
  el('detail-rationale').textContent = version?.rationale ?? '';
  // Each cited item as the reviewer's role may see it, in words, or why it is withheld: never a bare id.
  const cited = new Map((detail.evidence?.items ?? []).map((/** @type {any} */ item) => [item.id, item]));
  const citations = (version?.citations ?? []).map((/** @type {string} */ citation) => {
    const item = node('li');
    item.append(node('code', citation));
    const said = cited.get(citation);
    if (said) item.append(document.createTextNode(` — ${citedLine(said)}`));
    return item;
  });
  el('detail-citations').replaceChildren(...(citations.length ? citations : [node('li', 'None cited.')]));
  renderChanges(detail, version.version, order);
  renderVersions(detail, order);
  el('detail-history').replaceChildren(
    ...historyEntries(detail).map((entry) => {
      const item = node('li');
      item.append(timeNode(entry.at, when(entry.at)), document.createTextNode(` ${entry.text}`));
      return item;
    }),
  );
  renderDecisions(detail, version.version);
}

/** Only what the server says the reader may do now (`yourActions`), each with what it needs named. @param {any} detail @param {number} version */
function renderDecisions(detail, version) {
  const actions = new Set(detail.yourActions ?? []);
  const open = actions.size > 0;
  el('decide-open').hidden = !open;
  el('decide-closed').hidden = open;
  el('decide-closed').textContent =
    detail.status !== 'pending'
      ? `This proposal is ${detail.status}: it can no longer be decided.`
      : Date.parse(detail.expiresAt) <= Date.now()
        ? 'This proposal is past its deadline: it expires unexecuted.'
        : 'Nothing here is yours to decide: reviewers on the patient’s care teams decide, never the person who proposed it.';
  el('decide-version').textContent = `Your decision is about version ${version}, the one shown above.`;
  el('approve').hidden = !actions.has('approve');
  el('approve').textContent = `Approve version ${version}`;
  el('withdraw-approval').hidden = !actions.has('withdraw-approval');
  el('edit-open').hidden = !actions.has('edit-and-approve');
  if (!actions.has('edit-and-approve')) closeEditForm();
  el('reject-form').hidden = !actions.has('reject');
  el('cancel-form').hidden = !actions.has('cancel');
  void describeReasons();
}

/** The reason fields' rules, from the API's decision schema (the same for rejecting and cancelling). */
async function reasonField() {
  const schema = (await openApiDocument())?.components?.schemas?.DecisionDto;
  const [reason] = fieldsOfSchema({ properties: { reason: schema?.properties?.reason } }, '', () => 'The reason');
  // Optional for an approval, required to reject or cancel (the routes refuse one without it).
  return { ...reason, required: true };
}

async function describeReasons() {
  const field = await reasonField().catch(() => null);
  for (const name of ['reject', 'cancel']) {
    el(`${name}-reason-hint`).textContent = field ? ruleText(field) : '';
    el(`${name}-reason-hint`).hidden = !field;
  }
}

const DONE = { approve: 'Approved', reject: 'Rejected', 'withdraw-approval': 'Approval withdrawn', cancel: 'Cancelled' };

/** @param {'approve' | 'reject' | 'withdraw-approval' | 'cancel'} decision @param {string} [reason] */
async function decide(decision, reason) {
  const detail = state.detail;
  if (!detail) return;
  showError(null);
  const buttons = el('decide-open').querySelectorAll('button');
  buttons.forEach((button) => (button.disabled = true));
  try {
    const version = state.readVersion ?? detail.currentVersion;
    const body = reason === undefined ? { version } : { version, reason };
    const result = await api(`/proposals/${encodeURIComponent(detail.id)}/${decision}`, { method: 'POST', body });
    announce(`${DONE[decision]}: ${label(KINDS, detail.kind)} for ${patientLabel(detail.patient)} is now ${result.status}.`);
    resetDecisionForms();
  } catch (error) {
    const message = /** @type {Error} */ (error).message;
    showError(/** @type {any} */ (error).status === 409 ? `${message} The proposal has been reloaded.` : message);
  } finally {
    buttons.forEach((button) => (button.disabled = false));
    state.readVersion = undefined;
    await reload(detail.id);
    // The heading now says where the proposal stands; the reader goes on from there.
    el('detail-title').focus();
  }
}

/** @param {string} id */
async function reload(id) {
  await Promise.all([loadQueue(), openDetail(id, false)]).catch(() => undefined);
}

/** @param {'reject' | 'cancel'} name @param {SubmitEvent} event */
async function onReason(name, event) {
  event.preventDefault();
  showError(null);
  const field = /** @type {HTMLTextAreaElement} */ (el(`${name}-reason`));
  const reason = field.value.trim();
  const problem = checkField(await reasonField().catch(() => ({ name: 'reason', path: 'reason', label: 'The reason', required: true, minLength: 3, maxLength: 1000, multiline: true })), reason);
  setFieldError(field, el(`${name}-reason-error`), problem && `${problem} Say why you ${name} it.`);
  if (problem) {
    field.focus();
    return;
  }
  void decide(name, reason);
}

export function wireDecisions() {
  onSaved(async () => {
    if (state.detail) await reload(state.detail.id);
  });
  el('approve').addEventListener('click', () => void decide('approve'));
  el('withdraw-approval').addEventListener('click', () => void decide('withdraw-approval'));
  el('reject-form').addEventListener('submit', (event) => void onReason('reject', /** @type {SubmitEvent} */ (event)));
  el('cancel-form').addEventListener('submit', (event) => void onReason('cancel', /** @type {SubmitEvent} */ (event)));
}
