import { PatientChart } from '../cohort/chart.types';
import { Period } from './shared/clinical-dates';
import { careGapRow } from './care-gaps/care-gap-row';
import { evaluateCareGaps, MEASURE_IDS, resolveMeasureId } from './care-gaps';
import { checkMissingData, MissingDataItem } from './missing-data';
import { attributeReadmissionRisk, reportAttribution } from './readmission';
import { citationFormOf } from './citation-grammar';
import { missingDataCitation } from './derived-citations';

/** Which tool computes each derived citation kind (the tool's projection shape cuts the row). */
export const DERIVED_TOOL = { gap: 'care_gap_lookup', missing: 'missing_data_check', risk: 'feature_attribution', prediction: 'feature_attribution_summary' } as const;
export type DerivedShape = (typeof DERIVED_TOOL)[keyof typeof DERIVED_TOOL];

/** The longest measurement period `care_gap_lookup` evaluates (five years): a longer id is no row it returns. */
const MAX_PERIOD_DAYS = 366 * 5;

const isDay = (value: string | undefined): value is string => value !== undefined && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** A `missing_data_check` row: the tool's and a cited row's one shape. */
export function missingDataRow(item: MissingDataItem, asOf: string): Record<string, unknown> {
  return {
    citation: missingDataCitation(item.element, asOf),
    element: item.element,
    status: item.status,
    lastSeen: item.lastSeen,
    requiredBecause: item.requiredBecause ?? null,
    evidence: item.evidence,
  };
}

/**
 * A care-gap citation's measure and period (`gap:CMS122@2025-01-01..2025-12-31`), or null when it is
 * no such citation or its period is not one `care_gap_lookup` evaluates (days out of order, longer
 * than five years).
 */
export function gapCitationParts(citation: string): { measure: string; period: Period } | null {
  if (citationFormOf(citation)?.kind !== 'gap') return null;
  const [measure, when] = citation.slice(citation.indexOf(':') + 1).split('@');
  const [start, end] = when.split('..');
  if (!isDay(start) || !isDay(end) || end < start) return null;
  if ((Date.parse(end) - Date.parse(start)) / 86_400_000 > MAX_PERIOD_DAYS) return null;
  return { measure, period: { start, end } };
}

/**
 * The derived rows (`gap:`, `missing:`, `risk:`, `prediction:`) that `citations` name, recomputed
 * from the chart exactly as their tools compute them: a derived id names a row of this patient only
 * when the tool, run on the day or period the id carries, returns a row with that very id.
 * Ids of any other form are ignored (stored rows are checked against the record).
 */
export function derivedRows(chart: PatientChart, citations: readonly string[], timeZone: string): Map<string, { shape: DerivedShape; row: Record<string, unknown> }> {
  const found = new Map<string, { shape: DerivedShape; row: Record<string, unknown> }>();
  const attributions = new Map<string, ReturnType<typeof reportAttribution> | null>();
  for (const citation of new Set(citations)) {
    const kind = citationFormOf(citation)?.kind;
    const when = citation.slice(citation.indexOf('@') + 1);
    if (kind === 'gap') {
      const gap = gapCitationParts(citation);
      if (!gap || !(MEASURE_IDS as readonly string[]).includes(gap.measure)) continue;
      const [result] = evaluateCareGaps(chart, { period: gap.period, measureIds: [resolveMeasureId(gap.measure)], timeZone });
      const row = result ? careGapRow(result) : undefined;
      if (row?.citation === citation) found.set(citation, { shape: DERIVED_TOOL.gap, row });
    } else if (!isDay(when)) {
      continue;
    } else if (kind === 'missing') {
      const item = checkMissingData(chart, when).find((candidate) => missingDataCitation(candidate.element, when) === citation);
      if (item) found.set(citation, { shape: DERIVED_TOOL.missing, row: missingDataRow(item, when) });
    } else if (kind === 'risk' || kind === 'prediction') {
      if (!attributions.has(when)) {
        const result = attributeReadmissionRisk(chart, when);
        attributions.set(when, result ? reportAttribution(result, when) : null);
      }
      const report = attributions.get(when);
      const row = kind === 'risk' ? report?.rows.find((candidate) => candidate.citation === citation) : report?.summary.citation === citation ? report.summary : undefined;
      if (row) found.set(citation, { shape: DERIVED_TOOL[kind], row: row as unknown as Record<string, unknown> });
    }
  }
  return found;
}
