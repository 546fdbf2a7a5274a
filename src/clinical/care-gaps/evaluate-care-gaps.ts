import { PatientChart } from '../../cohort/chart.types';
import { assertDay, Period } from '../shared/clinical-dates';
import { DayOf, dayOfIn } from '../shared/clinical-day';
import { CareGapResult, GroupResult, MEASURE_IDS, MeasureId } from './care-gap.types';
import { MeasureContext } from './cql/retrieve';
import { MEASURES, NOT_APPLICABLE_TO_CLOSE } from './measure-catalogue';
import { medicationsByReference, nearMisses } from './near-misses';
import { scoreGroup } from './population-rules';

export interface CareGapOptions {
  /** The measurement period as inclusive days. */
  period: Period;
  measureIds?: readonly MeasureId[];
  /** The practice's time zone (IANA), which decides the day of every instant. Default UTC. */
  timeZone?: string;
}

/**
 * Evaluates the care-gap measures for one chart over a measurement period. Pure: reads only the
 * chart, never the clock. Results come in `MEASURE_IDS` order (or the order asked), one per measure.
 */
export function evaluateCareGaps(chart: PatientChart, options: CareGapOptions): CareGapResult[] {
  const { period } = options;
  assertDay(period.start, 'period start');
  assertDay(period.end, 'period end');
  if (period.end < period.start) throw new RangeError('Invalid period: the end is before the start');
  const day: DayOf = dayOfIn(options.timeZone);
  const ids = options.measureIds && options.measureIds.length > 0 ? [...new Set(options.measureIds)] : [...MEASURE_IDS];
  const ctx = new MeasureContext(chart, period, day);
  return ids.map((id) => {
    const entry = MEASURES[id];
    ctx.beginMeasure();
    const evaluation = entry.logic(ctx);
    const groups = evaluation.groups.map((criteria) => scoreGroup(criteria, entry.inverse));
    const deciding = decidingGroup(groups);
    return {
      measureId: id,
      version: entry.version,
      title: entry.title,
      period: { ...period },
      status: deciding.status,
      reason: deciding.reason,
      evidence: [...new Set(Object.values(deciding.evidence).flat())],
      toClose:
        deciding.status === 'open-gap' ? entry.toClose.open : deciding.status === 'closed-gap' ? entry.toClose.closed : NOT_APPLICABLE_TO_CLOSE,
      groups,
      dataQuality: [...evaluation.dataQuality, ...nearMisses(ctx, id, groups), ...medicationsByReference(ctx)],
    };
  });
}

/**
 * The group that decides the patient's status: the first whose denominator holds the patient
 * (CMS347's four groups share one numerator), else the first group (which says why none applied).
 */
function decidingGroup(groups: GroupResult[]): GroupResult {
  return groups.find((group) => group.populations.denominator) ?? groups[0];
}
