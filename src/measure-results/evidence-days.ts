import { CitationKind, citationId, PatientChart } from '../cohort/chart.types';

/**
 * The day each cited row of a chart happened (an encounter's start, a result's effective time, a
 * diagnosis's recording, an order's authoring, a procedure's performance), by citation id: what
 * "the last relevant result" of a stored measure result is read from. Only the rows among
 * `citations` are looked at, by id: most of a chart is cited by no result, and the recompute does
 * this for every patient.
 */
export function evidenceDays(chart: PatientChart, citations: Iterable<string>): Map<string, string> {
  const cited = new Map<string, Set<string>>();
  for (const citation of citations) {
    const colon = citation.indexOf(':');
    const kind = citation.slice(0, colon);
    let ids = cited.get(kind);
    if (!ids) cited.set(kind, (ids = new Set()));
    ids.add(citation.slice(colon + 1));
  }
  const days = new Map<string, string>();
  const add = <T extends { id: string }>(kind: CitationKind, rows: readonly T[], at: (row: T) => string | null) => {
    const ids = cited.get(kind);
    if (!ids) return;
    for (const row of rows) {
      const instant = ids.has(row.id) ? at(row) : null;
      if (instant) days.set(citationId(kind, row.id), instant.slice(0, 10));
    }
  };
  add('enc', chart.encounters, (row) => row.startAt);
  add('obs', chart.observations, (row) => row.effectiveAt);
  add('cond', chart.conditions, (row) => row.recordedAt);
  add('med', chart.medications, (row) => row.authoredAt);
  add('proc', chart.procedures, (row) => row.performedAt);
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
