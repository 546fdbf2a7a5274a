import { HttpStatus, Injectable } from '@nestjs/common';
import { gapUnevaluableReason, isBuiltInMeasureName, publishedCareGap, PublishedMeasure } from '../clinical/care-gaps';
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

/** A loaded edition chosen for a period, with what evaluating it needs. */
export type ChosenEdition = EvaluableEdition & PublishedMeasure;

/** One edition over one chart: its care gap, or the problem its logic raised on this record (naming the measure, never the record's values). */
export type EditionOutcome = { key: string; result: CareGapResult<string> } | { key: string; failure: ProblemException };

/** Which loaded measures a period has a care gap for (`chooseEdition`, as the live tool), and which it has not, and why. */
export interface EvaluableMeasures {
  /** By key: the edition the period picks, for each loaded key that is no built-in name and whose chosen edition has a gap to read. */
  editions: ChosenEdition[];
  /** The other loaded keys (built-in names aside), by key. */
  left: { key: string; reason: 'no_edition_for_period' | 'not_a_care_gap_measure' }[];
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
    return (await this.evaluateEach(chart, editions, period, timeZone)).map((outcome) => {
      if ('failure' in outcome) throw outcome.failure;
      return outcome.result;
    });
  }

  /** Refuses, as `evaluate` would (a `400` naming the key), a loaded key the period has no care gap for. */
  async requireCareGap(key: string, period: Period): Promise<void> {
    await this.chosenEdition(key, period);
  }

  /** The edition `evaluate` reads `key` in for `period`, refused as `evaluate` refuses it. */
  async chosenEdition(key: string, period: Period): Promise<ChosenEdition> {
    return this.editionFor(await this.packages.editionsOfKeys([key]), key, period);
  }

  /**
   * Every loaded measure the period has a care gap for, read once (the stored-results recompute asks
   * this per chunk, then evaluates each patient with `evaluateEach`): the same choice `evaluate` makes
   * for one key, so a stored row and the live answer come from the same edition.
   */
  async evaluableFor(period: Period): Promise<EvaluableMeasures> {
    const byKey = new Map<string, EvaluableEdition[]>();
    for (const edition of await this.packages.allEditions()) {
      if (isBuiltInMeasureName(edition.key)) continue;
      byKey.set(edition.key, [...(byKey.get(edition.key) ?? []), edition]);
    }
    const result: EvaluableMeasures = { editions: [], left: [] };
    for (const [key, editions] of [...byKey].sort(([a], [b]) => a.localeCompare(b))) {
      const choice = chooseEdition(editions, period);
      if ('refused' in choice) result.left.push({ key, reason: 'no_edition_for_period' });
      else if (gapUnevaluableReason(choice.chosen) !== null) result.left.push({ key, reason: 'not_a_care_gap_measure' });
      else result.editions.push(choice.chosen);
    }
    return result;
  }

  /**
   * Each edition over one chart, in order. A measure whose logic fails on this record is that
   * measure's outcome, the others still answer; anything else (a package that does not compile, the
   * process's time zone, the database) is thrown.
   */
  async evaluateEach(chart: PatientChart, editions: readonly ChosenEdition[], period: Period, timeZone: string): Promise<EditionOutcome[]> {
    if (editions.length === 0) return [];
    const options = { timezoneOffset: practiceOffsetHours(timeZone, period), now: new Date() };
    // The chart as FHIR, wrapped and indexed once for every measure asked (each keeps its own results).
    const patient = new MeasurePatient(chartToFhir(chart, { timezoneOffset: options.timezoneOffset }), options);
    const outcomes: EditionOutcome[] = [];
    for (const edition of editions) {
      const { measure, main } = await this.compile(edition.id);
      try {
        outcomes.push({ key: edition.key, result: evaluateOrExplain(edition, () => publishedCareGap(edition, { compiled: measure, mainLibrary: main, patient, period })) });
      } catch (error) {
        if (!(error instanceof ProblemException) || error.code !== MEASURE_EVALUATION_FAILED) throw error;
        outcomes.push({ key: edition.key, failure: error });
      }
    }
    return outcomes;
  }

  private editionFor(loaded: EvaluableEdition[], key: string, period: Period): ChosenEdition {
    const choice = chooseEdition(loaded.filter((row) => row.key === key), period);
    if ('refused' in choice) {
      const loaded = choice.editions.map((edition) => `${edition.version} (${edition.periodStart ?? '?'}..${edition.periodEnd ?? '?'})`).join(', ');
      const detail =
        choice.refused === 'unknown-measure'
          ? `No measure ${key} is built in or loaded (GET /measures lists them).`
          : `No loaded edition of ${key} is in force on ${period.end}, the last day of the measurement period ${period.start}..${period.end}; loaded: ${loaded}. Load the edition for that year, or ask for a period ending within a loaded edition's.`;
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

/** The problem code of a loaded measure whose logic failed on one record. */
export const MEASURE_EVALUATION_FAILED = 'measure_evaluation_failed';

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
      MEASURE_EVALUATION_FAILED,
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
