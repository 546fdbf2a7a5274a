import { MEASURE_IDS } from '../clinical/care-gaps';
import type { EvaluableMeasures } from '../measure-packages';

/**
 * How many stored rows a patient has for a period when its results are complete: one per built-in
 * measure and one per loaded measure the period has a care gap for. A patient with fewer current
 * rows is due (the recompute's chunks and the stale sweep both count this way), so loading a measure
 * makes every patient of the periods it covers due, and the sweep fills them in.
 */
export function rowsPerPatient(loaded: Pick<EvaluableMeasures, 'editions'>): number {
  return MEASURE_IDS.length + loaded.editions.length;
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
