import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { AccessGate, CohortRead } from '../../cohort/cohort.repository';
import { ProblemException } from '../../common/http/problem';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { evaluateCareGaps, isBuiltInMeasureName as isBuiltIn, MeasureId, resolveMeasureId } from '../../clinical/care-gaps';
import { PublishedCareGapsService } from '../../measure-packages';
import { Period, trailingYear } from '../../clinical/shared/clinical-dates';
import type { CareGapResult } from '../../clinical/care-gaps';
import type { PatientChart } from '../../cohort/chart.types';
import { CareGapsQueryDto } from '../dto/care-gaps-query.dto';
import { ABSENCE_ASSUMPTION, AppliedWindow, MEDICATION_ASSUMPTION, todayUtc } from '../envelope';
import { careGapRow } from '../../clinical/care-gaps/care-gap-row';
import { careGapEncounterFilter } from '../../clinical/care-gaps/cql/encounter-retrieves';
import { careGapObservationFilter } from '../../clinical/care-gaps/cql/observation-retrieves';
import { foundChart, PARTIAL_ASSUMPTION } from './derived-tool';
import { Tool } from './tool';

/** Said on every result: what an attestation is, and what it is not. */
export const ATTESTATION_ASSUMPTION =
  'An attestation is an approved closure of a gap (who filed it, when, the evidence cited): it is shown beside the measured status and never changes it; only the record closes a gap. It stands for the measurement periods that contain the day it was made.';

/** The longest measurement period a caller may ask for (the measures' own look-backs reach further on their own). */
const MAX_PERIOD_DAYS = 366 * 5;

@Injectable()
export class CareGapLookupTool implements Tool<CareGapsQueryDto> {
  readonly name = 'care_gap_lookup' as const;
  readonly summary =
    'Quality measures (eCQM) evaluated over a measurement period: populations per group, open / closed / not applicable with the deciding criterion, the evidence rows and what would close the gap; approved closures beside it as attestations, which never change the measured status.';
  readonly queryDto = CareGapsQueryDto;

  constructor(
    private readonly published: PublishedCareGapsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(read: CohortRead, gate: AccessGate, query: CareGapsQueryDto) {
    const { period, window, ageOn } = measurementPeriod(query);
    // The attestations come with the chart and the access probe, in the same statement. The built-in
    // measures need only the observations and encounters they retrieve (`gatedCareGapChart`); a loaded
    // measure may retrieve any, so it gets the whole chart.
    const builtInOnly = !query.measure || query.measure.every(isBuiltIn);
    const found = builtInOnly
      ? await read.gatedCareGapChart(gate, period, { observations: careGapObservationFilter(period), encounters: careGapEncounterFilter(period) })
      : await read.gatedChartWithAttestations(gate, period);
    const { chart, partial } = foundChart(found);
    const { attestations } = found;
    const results = await this.evaluate(chart, period, query.measure);
    return {
      patient: chart.patient,
      // Beside each measured status, never in it: the engine computed the status from the record alone.
      rows: results.map((result) => ({ ...careGapRow(result), attestations: attestations.get(result.measureId) ?? [] })),
      window,
      truncated: false,
      partial,
      assumptions: [
        ABSENCE_ASSUMPTION,
        MEDICATION_ASSUMPTION,
        'Measures follow the stewards’ QI-Core CQL for the 2025 reporting year with the official VSAC value-set expansions (see the measure catalogue for versions and the few remaining differences); this is decision support, not a quality report.',
        ATTESTATION_ASSUMPTION,
        ...(partial ? [PARTIAL_ASSUMPTION] : []),
      ],
      ageOn,
    };
  }

  /**
   * The measures asked for, in the order asked: a built-in name by the hand-written engine, any other
   * key by the loaded measure the period picks. No `measure`: the built-in measures.
   */
  private async evaluate(chart: PatientChart, period: Period, names: readonly string[] | undefined) {
    const timeZone = this.config.clinic.timeZone;
    if (!names) return evaluateCareGaps(chart, { period, timeZone });
    const unique = [...new Set(names.map((name) => (isBuiltIn(name) ? resolveMeasureId(name) : name)))];
    const builtIn = unique.filter(isBuiltIn) as MeasureId[];
    const loaded = unique.filter((name) => !isBuiltIn(name));
    const results = new Map<string, CareGapResult<string>>([
      ...(builtIn.length > 0 ? evaluateCareGaps(chart, { period, measureIds: builtIn, timeZone }) : []).map((result) => [result.measureId, result] as const),
      ...(await this.published.evaluate(chart, loaded, period, timeZone)).map((result) => [result.measureId, result] as const),
    ]);
    return unique.map((name) => results.get(name)!);
  }
}

/**
 * `periodStart` + `periodEnd` (DEQM) when given, else the 12 months ending on `asOf` (default today).
 * Both at once is refused rather than one of them ignored: the caller would read an answer for a
 * period other than the one it asked for.
 */
export function measurementPeriod(query: CareGapsQueryDto): { period: Period; window: AppliedWindow; ageOn: string } {
  const { periodStart, periodEnd } = query;
  if (periodStart !== undefined || periodEnd !== undefined) {
    const problems = [];
    if (query.asOf !== undefined) {
      problems.push({ field: 'asOf', reason: 'conflictsWithPeriod', message: 'asOf must not be combined with periodStart and periodEnd' });
    }
    if (periodStart === undefined) problems.push({ field: 'periodStart', reason: 'required', message: 'periodStart is required with periodEnd' });
    if (periodEnd === undefined) problems.push({ field: 'periodEnd', reason: 'required', message: 'periodEnd is required with periodStart' });
    if (periodStart && periodEnd && periodEnd < periodStart) {
      problems.push({ field: 'periodEnd', reason: 'before_start', message: 'periodEnd must not be before periodStart' });
    }
    if (periodStart && periodEnd && (Date.parse(periodEnd) - Date.parse(periodStart)) / 86_400_000 > MAX_PERIOD_DAYS) {
      problems.push({ field: 'periodEnd', reason: 'too_long', message: 'the measurement period may be at most 5 years' });
    }
    if (problems.length > 0) throw new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'The measurement period is invalid.', problems);
    const period = { start: periodStart!, end: periodEnd! };
    return {
      period,
      ageOn: period.end,
      window: { from: period.start, to: period.end, asOf: period.end, semantics: `Measures evaluated over the measurement period ${period.start} to ${period.end} (inclusive days, practice time zone).` },
    };
  }
  const asOf = query.asOf ?? todayUtc();
  const period = trailingYear(asOf);
  return {
    period,
    ageOn: asOf,
    window: { from: period.start, to: period.end, asOf, semantics: `Measures evaluated over the 12 months ending ${asOf} (${period.start} to ${period.end}, inclusive days).` },
  };
}
