import { MEASURE_IDS } from '../clinical/care-gaps';
import type { EvaluableMeasures } from '../measure-packages';

/** What a patient's complete results for a period are: how many current rows, and the loaded editions they come from. */
export interface ExpectedResults {
  /** One per built-in measure and one per loaded measure the period has a care gap for. */
  rows: number;
  /** The `measure_packages` ids of the editions the period takes now. */
  editionIds: string[];
}

/**
 * A patient with fewer current rows than `rows` is due (the recompute's chunks and the stale sweep
 * both count this way; a row counts only if it came from a built-in measure or one of `editionIds`,
 * and a loaded measure's recorded failure on the same data counts as its row). So loading a measure,
 * or a re-issued edition of one, makes every patient of the periods it covers due, and the sweep
 * fills them in.
 */
export function expectedResults(loaded: Pick<EvaluableMeasures, 'editions'>): ExpectedResults {
  return { rows: MEASURE_IDS.length + loaded.editions.length, editionIds: loaded.editions.map((edition) => edition.id) };
}

/**
 * The stored order of a patient's results: the built-in measures in the live tool's order, then the
 * loaded ones by key.
 */
export function compareMeasures(a: string, b: string): number {
  const order = (id: string) => {
    const index = (MEASURE_IDS as readonly string[]).indexOf(id);
    return index === -1 ? MEASURE_IDS.length : index;
  };
  return order(a) - order(b) || a.localeCompare(b);
}
