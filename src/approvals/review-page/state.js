// @ts-check
/** What the page holds between renders, shared by its modules (the token is session.js's alone). */
import { noFilters } from './queue-view.js';

export const state = {
  /** The queue as last read, in the server's order. @type {any[]} */ items: [],
  /** @type {string | null} */ nextCursor: null,
  /** The queue's filters and sort. */ filters: noFilters(),
  /** Every queue row read this session, by id: the filters offer the patients, proposers and teams seen. @type {Map<string, any>} */ seen: new Map(),
  /** The open proposal's id. @type {string | null} */ selected: null,
  /** The open proposal as last read. @type {any} */ detail: null,
  /** The version of the open proposal the reviewer is reading (and deciding). @type {number | undefined} */ readVersion: undefined,
  /** Each proposal's patient as the queue or the detail last named it: live events carry ids only. @type {Map<string, any>} */ patients: new Map(),
};

/** Forgets everything read with the previous session's token. */
export function resetState() {
  Object.assign(state, { items: [], nextCursor: null, filters: noFilters(), seen: new Map(), selected: null, detail: null, readVersion: undefined, patients: new Map() });
}
