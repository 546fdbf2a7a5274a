// @ts-check
/** The page's few DOM helpers. Values reach the page as text or attributes only, never as markup. */

/** @param {string} id */
export const el = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {string} tag @param {string} [text] @param {string} [className] */
export function node(tag, text, className) {
  const element = document.createElement(tag);
  if (text !== undefined) element.textContent = text;
  if (className) element.className = className;
  return element;
}

/** @param {string} iso @param {string} text */
export function timeNode(iso, text) {
  const time = /** @type {HTMLTimeElement} */ (node('time', text));
  time.dateTime = iso;
  return time;
}

/** @param {HTMLElement} list @param {Array<[string, string | Node]>} facts */
export function fillFacts(list, facts) {
  list.replaceChildren(
    ...facts.flatMap(([term, value]) => {
      const dd = node('dd');
      dd.append(typeof value === 'string' ? document.createTextNode(value) : value);
      return [node('dt', term), dd];
    }),
  );
}

/** The sentence last announced and when: a sentence right after it is added to it. */
let last = { at: 0, text: '' };

/** Says a sentence through the polite live region, for screen readers too. @param {string} message */
export function announce(message) {
  // Cleared first so that the same sentence twice is announced twice. A sentence that follows another
  // within two seconds (the live update that follows a decision) is added after it rather than
  // replacing it before a screen reader could read it.
  const announcer = el('announcer');
  const text = Date.now() - last.at < 2_000 ? `${last.text} ${message}` : message;
  last = { at: Date.now(), text };
  announcer.textContent = '';
  window.setTimeout(() => (announcer.textContent = text), 50);
}

/** The page-level error, or none. @param {string | null} message */
export function showError(message) {
  const box = el('error');
  box.textContent = message ?? '';
  box.hidden = !message;
}

/** @param {string | null} message */
export function setLiveState(message) {
  const live = el('live-state');
  live.textContent = message ?? '';
  live.hidden = !message;
}

/**
 * A field's own error beside it (or none), tied to the field for screen readers.
 * @param {HTMLElement} field @param {HTMLElement} error @param {string | null} message
 */
export function setFieldError(field, error, message) {
  error.textContent = message ?? '';
  error.hidden = !message;
  field.setAttribute('aria-invalid', String(Boolean(message)));
}

/** A select's options, keeping its value if it is still offered. @param {HTMLSelectElement} select @param {Array<[string, string]>} options */
export function fillSelect(select, options) {
  const value = select.value;
  select.replaceChildren(
    ...options.map(([optionValue, text]) => {
      const option = /** @type {HTMLOptionElement} */ (node('option', text));
      option.value = optionValue;
      return option;
    }),
  );
  select.value = options.some(([optionValue]) => optionValue === value) ? value : (options[0]?.[0] ?? '');
}
