import { Inject, Injectable } from '@nestjs/common';
import { evaluateCareGaps, isBuiltInMeasureName, resolveMeasureId } from '../clinical/care-gaps';
import { Period } from '../clinical/shared/clinical-dates';
import { PatientChart } from '../cohort/chart.types';
import { ProblemException } from '../common/http/problem';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { PublishedCareGapsService } from '../measure-packages';

/** The field a refused measure is named by, in a proposal’s body. */
export const MEASURE_FIELD = 'content.measureId';

/**
 * The measure a `close_care_gap` names, as `care_gap_lookup` reads it: a built-in name by the
 * hand-written engine, any other key by the loaded measure the period picks (the edition in force on
 * its last day, `PublishedCareGapsService`), so a closure is checked against the very answer a
 * clinician reads. A key the period has no care gap for is refused by name, as the tool refuses it.
 */
@Injectable()
export class CareGapMeasures {
  constructor(
    private readonly published: PublishedCareGapsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Refuses (a `400` naming `content.measureId`, with the tool’s reason) a loaded key `period` has no care gap for. */
  async require(measureId: string, period: Period): Promise<void> {
    if (isBuiltInMeasureName(measureId)) return;
    try {
      await this.published.requireCareGap(measureId, period);
    } catch (error) {
      throw asMeasureIdProblem(error);
    }
  }

  /** The canonical (`url|version`) of the loaded edition `measureId` is read in for `period`; null for a built-in measure. */
  async canonical(measureId: string, period: Period): Promise<string | null> {
    if (isBuiltInMeasureName(measureId)) return null;
    try {
      const edition = await this.published.chosenEdition(measureId, period);
      return `${edition.url}|${edition.version}`;
    } catch (error) {
      throw asMeasureIdProblem(error);
    }
  }

  /** Is `measureId` an open gap in `chart` for `period`? A loaded key the period has no care gap for is refused (`require`). */
  async isOpenGap(chart: PatientChart | null, measureId: string, period: Period): Promise<boolean> {
    if (!chart) return false;
    const timeZone = this.config.clinic.timeZone;
    if (isBuiltInMeasureName(measureId)) {
      const [result] = evaluateCareGaps(chart, { period, measureIds: [resolveMeasureId(measureId)], timeZone });
      return result?.status === 'open-gap';
    }
    try {
      const [result] = await this.published.evaluate(chart, [measureId], period, timeZone);
      return result?.status === 'open-gap';
    } catch (error) {
      throw asMeasureIdProblem(error);
    }
  }
}

/** The tool’s refusal of a measure (`measure`), said of the proposal’s field; any other error unchanged. */
function asMeasureIdProblem(error: unknown): unknown {
  if (!(error instanceof ProblemException) || error.code !== 'validation_failed') return error;
  const errors = (error.errors ?? []).map((problem) => (problem.field === 'measure' ? { ...problem, field: MEASURE_FIELD } : problem));
  return new ProblemException(error.getStatus(), error.code, error.title, error.detail, errors);
}

/** Whether `error` is a refusal of the measure itself (not loaded, no edition for the period, no gap to read). */
export const isMeasureRefusal = (error: unknown): boolean =>
  error instanceof ProblemException && error.code === 'validation_failed' && (error.errors ?? []).some((problem) => problem.field === MEASURE_FIELD);
