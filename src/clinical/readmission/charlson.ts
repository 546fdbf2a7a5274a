import { citationId, ConditionRow } from '../../cohort/chart.types';
import { conditionStart } from '../shared/chart-rows';
import { inValueSet } from '../shared/value-set';
import { CHARLSON_CATEGORIES, CharlsonCategory } from './charlson-value-sets';

export interface CharlsonScore {
  score: number;
  /** The categories that scored, each with the condition rows that put it there. */
  categories: { id: string; title: string; weight: number; evidence: string[] }[];
}

/**
 * Charlson comorbidity index from the conditions known by a day (onset, or the day recorded, on or
 * before it). Any clinical status counts: a resolved myocardial infarction is still history. Each
 * category scores once; a superseded category (e.g. uncomplicated diabetes when complicated diabetes
 * is present) does not score.
 */
export function charlsonIndex(conditions: readonly ConditionRow[], byDay: string): CharlsonScore {
  const known = conditions.filter((row) => conditionStart(row) <= byDay);
  const hits = new Map<CharlsonCategory, ConditionRow[]>();
  for (const category of CHARLSON_CATEGORIES) {
    const rows = known.filter((row) => inValueSet(row, category.valueSet));
    if (rows.length > 0) hits.set(category, rows);
  }
  const superseded = new Set([...hits.keys()].map((category) => category.supersedes).filter((id) => id !== undefined));
  const categories = [...hits.entries()]
    .filter(([category]) => !superseded.has(category.id))
    .map(([category, rows]) => ({
      id: category.id,
      title: category.title,
      weight: category.weight,
      evidence: rows.map((row) => citationId('cond', row.id)),
    }));
  return { score: categories.reduce((sum, category) => sum + category.weight, 0), categories };
}
