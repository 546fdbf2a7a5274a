/**
 * Which loaded edition of a measure answers for a measurement period. Editions live side by side
 * (each year's measure changes its logic), so the period picks one: the edition in force on the
 * period's last day, i.e. whose own measurement period (a calendar year, as the stewards publish
 * them) contains that day. So a calendar year gets its own edition, and a clinic's rolling year
 * (the trailing year the stored results and worklists keep) the edition of the year it ends in;
 * the logic itself is evaluated over the period asked, as CQL's `Measurement Period` parameter
 * allows. A named version picks that version and nothing else. Nothing is guessed: a period ending
 * on a day no edition is in force is said so, with the editions there are, rather than answered by
 * the nearest one (a new year needs its new edition loaded).
 */

export interface Period {
  /** YYYY-MM-DD, inclusive. */
  start: string;
  end: string;
}

export interface EditionLike {
  key: string;
  version: string;
  periodStart: string | null;
  periodEnd: string | null;
  loadedAt: string;
}

export type EditionChoice<T extends EditionLike> =
  | { chosen: T }
  | {
      /** `unknown-measure`: nothing loaded under the key; `unknown-version`: not that version; `no-edition-for-period`: none is in force on its last day. */
      refused: 'unknown-measure' | 'unknown-version' | 'no-edition-for-period';
      /** The editions that are loaded under the key. */
      editions: T[];
    };

const inForceAtEnd = (edition: EditionLike, period: Period) =>
  edition.periodStart !== null && edition.periodEnd !== null && edition.periodStart <= period.end && period.end <= edition.periodEnd;

/**
 * Of `editions` (one measure's), the one for `period`, or `version` when named. When several are in
 * force on its last day (a re-issued edition of the same year), the one whose period starts last, then the
 * last loaded: the newest edition in force.
 */
export function chooseEdition<T extends EditionLike>(editions: T[], period: Period, version?: string): EditionChoice<T> {
  if (editions.length === 0) return { refused: 'unknown-measure', editions };
  if (version !== undefined) {
    const named = editions.find((edition) => edition.version === version);
    return named ? { chosen: named } : { refused: 'unknown-version', editions };
  }
  const covering = editions
    .filter((edition) => inForceAtEnd(edition, period))
    .sort((a, b) => ((b.periodStart as string).localeCompare(a.periodStart as string)) || b.loadedAt.localeCompare(a.loadedAt));
  return covering.length > 0 ? { chosen: covering[0] } : { refused: 'no-edition-for-period', editions };
}
