// @ts-check
/**
 * Edit-and-approve: a form for the proposal's kind, its fields and rules read from the API's own
 * schema (`schema-form.js`), checked before sending and judged by the API, whose per-field errors
 * are shown beside the same fields. Saving writes a new version, approved by its editor; it executes
 * only once someone else approves it.
 */
import { api, openApiDocument } from './api.js';
import { announce, el, node, setFieldError, showError } from './dom.js';
import { fieldLabel, KINDS, label, patientLabel } from './format.js';
import { checkFields, contentOf, contentSchemaOf, fieldsOfSchema, ruleText, todayUtc } from './schema-form.js';
import { state } from './state.js';

const EDIT_LABELS = { rationale: 'Rationale', reason: 'Reason for the edit' };
/** @type {import('./schema-form.js').FieldSpec[]} */
let fields = [];
/** @type {() => Promise<void>} */
let afterSave = async () => undefined;
/** What to re-read after a saved edit (the queue and the proposal), wired by detail.js. @param {() => Promise<void>} reload */
export const onSaved = (reload) => void (afterSave = reload);

const idOf = (/** @type {string} */ path) => `edit-${path.replace(/\./g, '-')}`;
const control = (/** @type {string} */ path) => /** @type {HTMLInputElement} */ (document.getElementById(idOf(path)));

/** Opens the form for the open proposal, filled with the version being read. */
export async function openEditForm() {
  const detail = state.detail;
  if (!detail) return;
  showError(null);
  let openapi;
  try {
    openapi = await openApiDocument();
  } catch (error) {
    showError(/** @type {Error} */ (error).message);
    return;
  }
  const content = contentSchemaOf(openapi, detail.kind);
  const edit = openapi?.components?.schemas?.EditAndApproveDto;
  if (!content || !edit) {
    showError('This kind of proposal cannot be edited here: its schema is not in the API description.');
    return;
  }
  const version = detail.versions.find((/** @type {any} */ v) => v.version === (state.readVersion ?? detail.currentVersion));
  fields = [
    ...fieldsOfSchema(content, 'content', fieldLabel),
    ...fieldsOfSchema({ properties: { rationale: edit.properties.rationale, reason: edit.properties.reason } }, '', (name) => label(EDIT_LABELS, name)),
  ];
  el('edit-intro').textContent =
    `You are editing version ${version.version} of ${label(KINDS, detail.kind)} for ${patientLabel(detail.patient)}. Saving writes version ${version.version + 1} ` +
    'with your approval; it is carried out only once another reviewer approves it. The citations stay as cited.';
  el('edit-fields').replaceChildren(...fields.map((field) => fieldNode(field, field.path === 'rationale' ? version.rationale : field.path === 'reason' ? '' : version.content?.[field.name])));
  el('edit-form').hidden = false;
  el('edit-open').setAttribute('aria-expanded', 'true');
  control(fields[0].path).focus();
}

/** @param {import('./schema-form.js').FieldSpec} field @param {unknown} value */
function fieldNode(field, value) {
  const wrapper = node('div', undefined, 'field');
  const id = idOf(field.path);
  const labelNode = node('label', `${field.label} (${field.required ? 'required' : 'optional'})`);
  labelNode.setAttribute('for', id);
  const hint = node('p', ruleText(field), 'hint');
  hint.id = `${id}-hint`;
  hint.hidden = !hint.textContent;
  /** @type {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} */
  let input;
  if (field.options) {
    const select = /** @type {HTMLSelectElement} */ (node('select'));
    const options = [...(field.required ? [] : [['', '(none)']]), ...field.options.map((option) => [option, option])];
    for (const [optionValue, text] of options) {
      const option = /** @type {HTMLOptionElement} */ (node('option', text));
      option.value = optionValue;
      select.append(option);
    }
    input = select;
  } else if (field.multiline) {
    input = /** @type {HTMLTextAreaElement} */ (node('textarea'));
    input.rows = 3;
  } else {
    input = /** @type {HTMLInputElement} */ (node('input'));
    input.type = field.date ? 'date' : 'text';
    if (field.earliest === 'today-utc') input.min = todayUtc();
  }
  input.id = id;
  input.name = field.path;
  if (field.required) input.required = true;
  input.value = value === undefined || value === null ? '' : String(value);
  const error = node('p', undefined, 'field-error');
  error.id = `${id}-error`;
  error.hidden = true;
  input.setAttribute('aria-describedby', `${hint.id} ${error.id}`);
  wrapper.append(labelNode, hint, input, error);
  return wrapper;
}

/** @param {Array<{ path: string, message: string }>} problems */
function showProblems(problems) {
  for (const field of fields) {
    const message = problems.filter((problem) => problem.path === field.path).map((problem) => problem.message).join(' ');
    setFieldError(control(field.path), el(`${idOf(field.path)}-error`), message || null);
  }
  const first = fields.find((field) => problems.some((problem) => problem.path === field.path));
  if (first) control(first.path).focus();
}

export function closeEditForm() {
  el('edit-form').hidden = true;
  el('edit-open').setAttribute('aria-expanded', 'false');
  el('edit-fields').replaceChildren();
  fields = [];
}

/** @param {SubmitEvent} event */
async function onSubmit(event) {
  event.preventDefault();
  const detail = state.detail;
  if (!detail) return;
  showError(null);
  const values = Object.fromEntries(fields.map((field) => [field.path, control(field.path).value.trim()]));
  const problems = checkFields(fields, values);
  const version = detail.versions.find((/** @type {any} */ v) => v.version === (state.readVersion ?? detail.currentVersion));
  const content = contentOf(fields.filter((field) => field.path.startsWith('content.')), values);
  const unchanged = JSON.stringify(content) === JSON.stringify(contentOf(fields.filter((field) => field.path.startsWith('content.')), Object.fromEntries(fields.map((field) => [field.path, String(version.content?.[field.name] ?? '')]))));
  if (problems.length === 0 && unchanged && values.rationale === version.rationale) {
    problems.push({ path: fields[0].path, message: `Nothing was changed: to approve version ${version.version} as it is, use Approve.` });
  }
  showProblems(problems);
  if (problems.length > 0) return;
  const body = {
    version: version.version,
    content,
    ...(values.rationale !== version.rationale ? { rationale: values.rationale } : {}),
    ...(values.reason ? { reason: values.reason } : {}),
  };
  const submit = /** @type {HTMLButtonElement} */ (el('edit-submit'));
  submit.disabled = true;
  try {
    const result = await api(`/proposals/${encodeURIComponent(detail.id)}/edit-and-approve`, { method: 'POST', body });
    closeEditForm();
    state.readVersion = undefined;
    announce(`Edited and approved: version ${result.currentVersion} of ${label(KINDS, detail.kind)} for ${patientLabel(detail.patient)}. It needs another reviewer’s approval.`);
    await afterSave();
    el('detail-title').focus();
  } catch (error) {
    const { errors = [], message, status } = /** @type {any} */ (error);
    const known = errors.filter((/** @type {any} */ e) => fields.some((field) => field.path === e.field));
    showProblems(known.map((/** @type {any} */ e) => ({ path: e.field, message: e.message })));
    if (known.length === 0) showError(status === 409 ? `${message} Reopen the proposal to see its newest version.` : message);
  } finally {
    submit.disabled = false;
  }
}

export function wireEditForm() {
  el('edit-form').addEventListener('submit', (event) => void onSubmit(/** @type {SubmitEvent} */ (event)));
  el('edit-open').addEventListener('click', () => (el('edit-form').hidden ? void openEditForm() : closeEditForm()));
  el('edit-cancel').addEventListener('click', () => {
    closeEditForm();
    el('edit-open').focus();
  });
}
