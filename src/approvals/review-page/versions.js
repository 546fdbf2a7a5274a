// @ts-check
/** A proposal's versions on the page: what changed from the one before, and each version in full. */
import { el, fillFacts, node, timeNode } from './dom.js';
import { contentValue, fieldLabel, person, when } from './format.js';
import { diffVersions, inOrder, versionPair } from './diff.js';

const CHANGE_WORDS = { added: 'added', removed: 'removed', changed: 'changed', same: 'unchanged' };

/** A field of the diff by its name: content fields by their label, then rationale and citations. @param {string} field */
const diffLabel = (field) => (field === 'rationale' ? 'Rationale' : field === 'citations' ? 'Citations' : fieldLabel(field));

/** @param {unknown} value */
const shown = (value) => (Array.isArray(value) ? (value.length ? value.join(', ') : '(none)') : contentValue(value));

/**
 * The field-by-field changes between the version to decide (`version`) and the one before it; the
 * section stays hidden for a first version. @param {any} detail @param {number} version @param {string[]} order the kind's fields
 */
export function renderChanges(detail, version, order) {
  const { current, previous } = versionPair(detail.versions, version);
  el('detail-changes').hidden = !previous || !current;
  if (!previous || !current) return;
  const changes = diffVersions(previous, current, order);
  const changed = changes.filter((row) => row.change !== 'same').length;
  el('changes-title').textContent = `Changes from version ${previous.version} to version ${current.version} (${changed} field${changed === 1 ? '' : 's'} changed)`;
  el('changes-caption').textContent = `Each field of version ${previous.version} beside version ${current.version}`;
  el('changes-before').textContent = `Version ${previous.version}`;
  el('changes-after').textContent = `Version ${current.version}`;
  el('changes-rows').replaceChildren(
    ...changes.map((row) => {
      const tr = node('tr', undefined, `change-${row.change}`);
      const th = node('th', diffLabel(row.field));
      th.setAttribute('scope', 'row');
      const before = node('td');
      const after = node('td');
      // Removed and inserted text marked as such (not by colour alone: <del>/<ins> and the Change column).
      before.append(row.change === 'changed' || row.change === 'removed' ? node('del', shown(row.before)) : document.createTextNode(row.before === undefined ? '—' : shown(row.before)));
      after.append(row.change === 'changed' || row.change === 'added' ? node('ins', shown(row.after)) : document.createTextNode(row.after === undefined ? '—' : shown(row.after)));
      tr.append(th, before, after, node('td', CHANGE_WORDS[row.change]));
      return tr;
    }),
  );
}

/** Every version, newest first, each in full (content, rationale, citations), behind a disclosure. @param {any} detail @param {string[]} order the kind's fields */
export function renderVersions(detail, order) {
  const versions = [...detail.versions].sort((a, b) => b.version - a.version);
  el('detail-versions').replaceChildren(
    ...versions.map((v) => {
      const details = /** @type {HTMLDetailsElement} */ (node('details'));
      details.dataset.version = String(v.version);
      const summary = node('summary');
      summary.append(
        document.createTextNode(`Version ${v.version}${v.version === detail.currentVersion ? ' (current)' : ''}, by ${person(v.createdByName, v.createdByRole)}, `),
        timeNode(v.createdAt, when(v.createdAt)),
      );
      const facts = node('dl', undefined, 'facts');
      fillFacts(facts, [
        ...inOrder(Object.keys(v.content ?? {}), order).map((key) => /** @type {[string, string]} */ ([fieldLabel(key), contentValue(v.content[key])])),
        ['Rationale', v.rationale ?? ''],
        ['Citations', shown(v.citations ?? [])],
        ['Content hash', `${String(v.contentHash).slice(0, 12)}…`],
      ]);
      details.append(summary, facts);
      return details;
    }),
  );
}
