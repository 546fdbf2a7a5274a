import { citationId, PatientChart } from '../cohort/chart.types';

/**
 * The day each citable row of a chart happened (an encounter's start, a result's effective time, a
 * procedure's performance, an order's authoring, a diagnosis's recording), by citation id: what
 * "the last relevant result" of a stored measure result is read from.
 */
export function evidenceDays(chart: PatientChart): Map<string, string> {
  const days = new Map<string, string>();
  const add = (id: string, at: string | null) => {
    if (at) days.set(id, at.slice(0, 10));
  };
  chart.encounters.forEach((row) => add(citationId('enc', row.id), row.startAt));
  chart.observations.forEach((row) => add(citationId('obs', row.id), row.effectiveAt));
  chart.conditions.forEach((row) => add(citationId('cond', row.id), row.recordedAt));
  chart.medications.forEach((row) => add(citationId('med', row.id), row.authoredAt));
  chart.procedures.forEach((row) => add(citationId('proc', row.id), row.performedAt));
  return days;
}

/** The most recent day among the cited rows, or null when none is dated (or nothing is cited). */
export function latestDay(days: Map<string, string>, citations: readonly string[]): string | null {
  let latest: string | null = null;
  for (const citation of citations) {
    const day = days.get(citation);
    if (day && (latest === null || day > latest)) latest = day;
  }
  return latest;
}
