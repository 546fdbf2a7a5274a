import { HttpStatus, Injectable } from '@nestjs/common';
import { gapUnevaluableReason, publishedCareGap, PublishedMeasure } from '../clinical/care-gaps';
import type { CareGapResult } from '../clinical/care-gaps';
import { chartToFhir } from '../clinical/chart-fhir';
import { compileMeasure, CompiledMeasure, ElmEvaluationError, ElmLibrary, MeasurePatient } from '../clinical/elm';
import type { PatientChart } from '../cohort/chart.types';
import { ProblemException } from '../common/http/problem';
import { chooseEdition, Period } from './edition-selection';
import { EvaluableEdition, MeasurePackagesRepository } from './measure-packages.repository';

/** Compiled editions kept per process: a measure's closures and value sets take a few megabytes. */
const COMPILED_CACHE_SIZE = 32;

interface Compiled {
  measure: CompiledMeasure;
  main: ElmLibrary;
}

/**
 * Care gaps under measures loaded as data: the edition the period picks (`chooseEdition`), compiled
 * once per process from its stored ELM (a loaded edition never changes, so a compiled one never goes
 * stale), evaluated over the patient's chart as FHIR (`chartToFhir`). A measure that is not loaded,
 * has no edition for the period, or has no gap to read is refused by name, never answered by another.
 */
@Injectable()
export class PublishedCareGapsService {
  private readonly compiled = new Map<string, Promise<Compiled>>();

  constructor(private readonly packages: MeasurePackagesRepository) {}

  async evaluate(chart: PatientChart, keys: readonly string[], period: Period, timeZone: string): Promise<CareGapResult<string>[]> {
    if (keys.length === 0) return [];
    // Only the asked keys' editions, each call: a measure loaded a moment ago answers at once.
    const loaded = await this.packages.editionsOfKeys(keys);
    const editions = keys.map((key) => this.editionFor(loaded, key, period));
    const options = { timezoneOffset: practiceOffsetHours(timeZone, period), now: new Date() };
    // The chart as FHIR, wrapped and indexed once for every measure asked (each keeps its own results).
    const patient = new MeasurePatient(chartToFhir(chart, { timezoneOffset: options.timezoneOffset }), options);
    const results: CareGapResult<string>[] = [];
    for (const edition of editions) {
      const { measure, main } = await this.compile(edition.id);
      results.push(evaluateOrExplain(edition, () => publishedCareGap(edition, { compiled: measure, mainLibrary: main, patient, period })));
    }
    return results;
  }

  private editionFor(loaded: EvaluableEdition[], key: string, period: Period): EvaluableEdition & PublishedMeasure {
    const choice = chooseEdition(loaded.filter((row) => row.key === key), period);
    if ('refused' in choice) {
      const loaded = choice.editions.map((edition) => `${edition.version} (${edition.periodStart ?? '?'}..${edition.periodEnd ?? '?'})`).join(', ');
      const detail =
        choice.refused === 'unknown-measure'
          ? `No measure ${key} is built in or loaded (GET /measures lists them).`
          : `No loaded edition of ${key} covers the measurement period ${period.start}..${period.end}; loaded: ${loaded}. Ask for a period within one edition's.`;
      throw new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', detail, [
        { field: 'measure', reason: choice.refused === 'unknown-measure' ? 'unknown_measure' : 'no_edition_for_period', message: detail },
      ]);
    }
    const why = gapUnevaluableReason(choice.chosen);
    if (why !== null) {
      const detail = `${key} ${choice.chosen.version} is loaded but has no care gap to read: ${why}.`;
      throw new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', detail, [{ field: 'measure', reason: 'not_a_care_gap_measure', message: detail }]);
    }
    return choice.chosen;
  }

  private compile(packageId: string): Promise<Compiled> {
    let entry = this.compiled.get(packageId);
    if (entry) {
      // Most recently used last: the oldest entry is the first one dropped.
      this.compiled.delete(packageId);
      this.compiled.set(packageId, entry);
      return entry;
    }
    entry = (async () => {
      const content = await this.packages.contentOf(packageId);
      if (!content) throw new Error(`loaded measure package ${packageId} has no content`);
      const measure = compileMeasure(content.measure, content.libraries, content.valueSets);
      const name = content.measure.library?.[0]?.split('|')[0].split('/').pop();
      const main = content.libraries.find((library) => library.library.identifier.id === name);
      if (!main) throw new Error(`loaded measure package ${packageId} has no main library`);
      return { measure, main };
    })();
    entry.catch(() => this.compiled.delete(packageId));
    this.compiled.set(packageId, entry);
    if (this.compiled.size > COMPILED_CACHE_SIZE) this.compiled.delete(this.compiled.keys().next().value as string);
    return entry;
  }
}

/**
 * A loaded measure whose logic fails on this record (a FHIRHelpers conversion of a value it cannot
 * convert, a `Message` raised as an error): a problem naming the measure and the ELM statement, never
 * the record's values, and never an answer from part of the logic.
 */
export function evaluateOrExplain<T>(edition: PublishedMeasure, evaluate: () => T): T {
  try {
    return evaluate();
  } catch (error) {
    if (!(error instanceof ElmEvaluationError)) throw error;
    const where = error.location ? ` in ${error.location.library}, ${error.location.statement}` : '';
    throw new ProblemException(
      HttpStatus.INTERNAL_SERVER_ERROR,
      'measure_evaluation_failed',
      'Measure evaluation failed',
      `${edition.key} (${edition.version}) could not be evaluated over this patient's record: its logic failed${where}. Other measures answer when asked for without it.`,
    );
  }
}

/**
 * The practice's offset east of UTC, in hours, at the end of the period: the offset CQL gives the
 * measurement period's bounds and `Now()`. cql-execution also turns a Date into a DateTime in the
 * process's own zone, so the process must keep the same offset: refused, never silently off by a day.
 */
export function practiceOffsetHours(timeZone: string, period: Period, processOffsetAt: (at: Date) => number = (at) => -at.getTimezoneOffset() / 60): number {
  const at = new Date(`${period.end}T12:00:00Z`);
  const practice = zoneOffsetHours(timeZone, at);
  if (practice !== processOffsetAt(at)) {
    throw new ProblemException(
      HttpStatus.INTERNAL_SERVER_ERROR,
      'time_zone_mismatch',
      'Time zone mismatch',
      `Loaded measures are evaluated in the practice's time zone (${timeZone}), and this process runs at another offset: start it with TZ=${timeZone}.`,
    );
  }
  return practice;
}

/** The offset east of UTC, in hours, of IANA zone `timeZone` at the instant `at`. */
export function zoneOffsetHours(timeZone: string, at: Date): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) + Number(match[3]) / 60) : 0;
}
