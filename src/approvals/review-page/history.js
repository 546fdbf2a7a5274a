// @ts-check
/**
 * A proposal's history in words, in the order things happened, and its approvals counted as the
 * server counts them, with why an approval does not count. Pure, so the unit tests import it.
 */
import { DECISIONS, label, person } from './format.js';

/** @param {any} d */
const who = (d) => person(d.actorName, d.actorRole);

/** The author of each version, by number. @param {any} detail @returns {Map<number, any>} */
const authors = (detail) => new Map(detail.versions.map((/** @type {any} */ v) => [v.version, v]));

/**
 * Approvals that count for the current version, as the server counts them: of that version, not by
 * its author (a reviewer who edited it), not withdrawn since, not discounted (the approver lost
 * access to the patient). @param {any} detail
 */
export function countingApprovers(detail) {
  const author = authors(detail).get(detail.currentVersion)?.createdBy;
  const ofVersion = detail.decisions.filter((/** @type {any} */ d) => d.version === detail.currentVersion);
  const gone = new Set(ofVersion.filter((/** @type {any} */ d) => d.decision === 'withdraw' || d.decision === 'discount').map((/** @type {any} */ d) => d.actorId));
  return [...new Set(ofVersion.filter((/** @type {any} */ d) => d.decision === 'approve' && d.actorId !== author && !gone.has(d.actorId)).map((/** @type {any} */ d) => d.actorId))];
}

/**
 * Why approvals on record do not count toward the current version, one sentence each; empty when
 * every approval counts. @param {any} detail @returns {string[]}
 */
export function uncountedApprovals(detail) {
  const author = authors(detail).get(detail.currentVersion)?.createdBy;
  const current = detail.currentVersion;
  const withdrawn = new Set(detail.decisions.filter((/** @type {any} */ d) => d.decision === 'withdraw').map((/** @type {any} */ d) => `${d.version}:${d.actorId}`));
  const discounted = new Set(detail.decisions.filter((/** @type {any} */ d) => d.decision === 'discount').map((/** @type {any} */ d) => `${d.version}:${d.actorId}`));
  return detail.decisions
    .filter((/** @type {any} */ d) => d.decision === 'approve')
    .flatMap((/** @type {any} */ d) => {
      const key = `${d.version}:${d.actorId}`;
      if (d.version !== current) return [`${who(d)} approved version ${d.version}; approvals do not carry over to version ${current}, which changed what is approved.`];
      if (d.actorId === author) return [`${who(d)} wrote version ${current} (an edit), so their own approval of it does not count: someone else must approve it.`];
      if (withdrawn.has(key)) return [`${who(d)} withdrew their approval of version ${current}.`];
      if (discounted.has(key)) return [`${who(d)}’s approval no longer counts: they no longer have access to this patient.`];
      return [];
    });
}

/**
 * Every version written and every decision, oldest first; things done in one transaction (an edit
 * and the editor's approval) in the order they were done (the server lists decisions that way).
 * @param {any} detail @returns {Array<{ at: string, text: string }>}
 */
export function historyEntries(detail) {
  const byVersion = authors(detail);
  const edited = new Set(detail.decisions.filter((/** @type {any} */ d) => d.decision === 'edit').map((/** @type {any} */ d) => d.version));
  const versions = detail.versions
    // A later version's edit decision says who wrote it and why: one entry, not two.
    .filter((/** @type {any} */ v) => v.version === 1 || !edited.has(v.version))
    .map((/** @type {any} */ v) => ({
      at: v.createdAt,
      text: `Version ${v.version} ${v.version === 1 ? 'proposed' : 'written'} by ${person(v.createdByName, v.createdByRole)}.`,
    }));
  const decisions = detail.decisions.map((/** @type {any} */ d) => ({ at: d.createdAt, text: decisionText(d, byVersion.get(d.version)) }));
  // Stable: at one instant, the version before the decisions on it, and those in the server's order.
  return [...versions, ...decisions].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** @param {any} d @param {any} version the version decided */
function decisionText(d, version) {
  // A quoted reason ends the sentence itself.
  const reason = d.reason ? `: “${d.reason}”` : '.';
  switch (d.decision) {
    case 'edit':
      return `Edited version ${d.version - 1} into version ${d.version} by ${who(d)}${reason}`;
    case 'approve':
      return d.actorId === version?.createdBy && d.version > 1
        ? `Approved version ${d.version} by ${who(d)}, who wrote it: an author’s own approval does not count.`
        : `Approved version ${d.version} by ${who(d)}${reason}`;
    case 'discount':
      return `Approval of version ${d.version} by ${who(d)} no longer counts: they lost access to this patient.`;
    default:
      return `${label(DECISIONS, d.decision)} version ${d.version} by ${who(d)}${reason}`;
  }
}
