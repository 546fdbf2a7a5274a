import { Inject, Injectable } from '@nestjs/common';
import { isBuiltInMeasureName } from '../clinical/care-gaps';
import { careGapRow } from '../clinical/care-gaps/care-gap-row';
import { DerivedShape, derivedRows, DERIVED_TOOL, gapCitationParts } from '../clinical/derived-rows';
import type { PatientChart } from '../cohort/chart.types';
import { ProblemException } from '../common/http/problem';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { PublishedCareGapsService } from '../measure-packages';

export type DerivedRow = { shape: DerivedShape; row: Record<string, unknown> };

/**
 * The derived rows `citations` name, recomputed as their tools compute them (`derivedRows`), care
 * gaps of measures loaded as data included: a `gap:<key>@<period>` of a loaded measure names a row
 * only when `care_gap_lookup` evaluates that measure for that period today and returns that very id.
 * One place for every surface that checks a citation (cited evidence, proposals).
 */
@Injectable()
export class DerivedRowsService {
  constructor(
    private readonly published: PublishedCareGapsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async rows(chart: PatientChart, citations: readonly string[]): Promise<Map<string, DerivedRow>> {
    const timeZone = this.config.clinic.timeZone;
    const found: Map<string, DerivedRow> = derivedRows(chart, citations, timeZone);
    for (const citation of new Set(citations)) {
      const gap = gapCitationParts(citation);
      if (!gap || found.has(citation) || isBuiltInMeasureName(gap.measure)) continue;
      try {
        const [result] = await this.published.evaluate(chart, [gap.measure], gap.period, timeZone);
        const row = careGapRow(result);
        if (row.citation === citation) found.set(citation, { shape: DERIVED_TOOL.gap, row });
      } catch (error) {
        // Not loaded, no edition for the period, no gap to read, or no answer for this record: no such row.
        if (!(error instanceof ProblemException)) throw error;
      }
    }
    return found;
  }
}
