/**
 * Every statement of the population publication store: fixed and parameterised (registered in the
 * statement list, `src/cli/statement-list.ts`).
 */
import { isoTimestamp as ISO } from '../common/sql';

const PUBLICATION_COLUMNS = `p.id, p.results_version AS "resultsVersion", ${ISO('p.computed_at', 'computedAt')}, p.salt, p.counts`;

export const POPULATION_PUBLICATION_STATEMENTS = {
  /** $1 period start, $2 period end, $3 results version: the publication of that version, if made. */
  publicationOfVersion: `SELECT ${PUBLICATION_COLUMNS} FROM population_publications p
WHERE p.period_start = $1 AND p.period_end = $2 AND p.results_version = $3`,

  /**
   * The newest publication of any period, with what the next check needs: a new day's period is
   * read beside the day before's, so the two are checked together like two versions of one period.
   */
  latestPublication: `SELECT ${PUBLICATION_COLUMNS}, p.check_record AS "checkRecord" FROM population_publications p ORDER BY p.id DESC LIMIT 1`,

  /**
   * Serialises the writers of publications (one transaction at a time, in every process): a new
   * publication is stored only if the one it was checked against is still the newest.
   */
  lockPublications: `SELECT pg_advisory_xact_lock(hashtext('vigil.population_publications'))`,

  /** The id of the newest publication. */
  latestPublicationId: `SELECT p.id FROM population_publications p ORDER BY p.id DESC LIMIT 1`,

  /** $1 period start, $2 period end, $3 results version, $4 computed at, $5 salt, $6 counts, $7 check record. */
  insertPublication: `INSERT INTO population_publications (period_start, period_end, results_version, computed_at, salt, counts, check_record)
VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb) ON CONFLICT (period_start, period_end, results_version) DO NOTHING RETURNING id`,

  /** $1 how many of the newest publications to keep (the newest is what the next one is checked with). */
  prunePublications: `DELETE FROM population_publications p WHERE p.id NOT IN (SELECT k.id FROM population_publications k ORDER BY k.id DESC LIMIT $1)`,
} as const;
