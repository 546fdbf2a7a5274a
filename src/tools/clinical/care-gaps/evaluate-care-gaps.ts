import { PatientChart } from '../../../cohort/chart.types';
import { assertDay } from '../shared/clinical-dates';
import { isDeceasedBy } from '../shared/chart-rows';
import { CareGapResult, MEASURE_IDS, MeasureId, MeasureOutcome } from './care-gap.types';
import { MEASURES } from './measure-catalogue';
import { MeasureContext, measureContext, notApplicable } from './measure-context';
import { evaluateCms122 } from './measures/cms122-hba1c-poor-control';
import { evaluateCms125 } from './measures/cms125-breast-cancer-screening';
import { evaluateCms130 } from './measures/cms130-colorectal-cancer-screening';
import { evaluateCms165 } from './measures/cms165-blood-pressure-control';
import { evaluateCms347 } from './measures/cms347-statin-therapy';
import { evaluateKidneyHealth } from './measures/kidney-health-evaluation';

const EVALUATORS: Record<MeasureId, (ctx: MeasureContext) => MeasureOutcome> = {
  CMS122: evaluateCms122,
  CMS165: evaluateCms165,
  CMS125: evaluateCms125,
  CMS130: evaluateCms130,
  CMS347: evaluateCms347,
  KHE: evaluateKidneyHealth,
};

/**
 * Evaluates the care-gap measures for one chart as of a day (`YYYY-MM-DD`), over the rolling
 * measurement period of the 12 months ending on it. Pure: reads only the chart, never the clock.
 * Results come in `MEASURE_IDS` order (or the order asked), one per measure id.
 */
export function evaluateCareGaps(chart: PatientChart, asOf: string, measureIds?: readonly MeasureId[]): CareGapResult[] {
  assertDay(asOf, 'as-of date');
  const ids = measureIds && measureIds.length > 0 ? [...new Set(measureIds)] : [...MEASURE_IDS];
  const ctx = measureContext(chart, asOf);
  // A death on or before the as-of day ends every measure: no care is due, whatever the chart says.
  const deceased = isDeceasedBy(chart, asOf);
  return ids.map((id) => {
    const { version, title } = MEASURES[id];
    const outcome = deceased
      ? notApplicable('patient-deceased', 'The patient died on or before the as-of date.', [])
      : EVALUATORS[id](ctx);
    return { measureId: id, version, title, period: { ...ctx.period }, ...outcome };
  });
}
