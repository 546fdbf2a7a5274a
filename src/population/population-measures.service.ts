import { Inject, Injectable, Optional } from '@nestjs/common';
import { AccessContext } from '../access/access-context';
import { AccessService } from '../access/access.service';
import { Sex } from '../cohort/enum';
import { MeasureResultsRepository, PopulationMicrocellRow } from '../measure-results/measure-results.repository';
import { Microcell, ageBandOf, isGapStatus } from './microcells';
import { CheckedPublication, PERTURBATION_POLICY, PopulationCounts, publicationSaltOf, publishPopulationCounts } from './population-counts';
import { MEASURE_IDS } from '../clinical/care-gaps';
import { Period } from '../clinical/shared/clinical-dates';
import { AuditedAccess } from '../access/audited-access.service';
import { periodNotAvailable, resultsNotReady } from './population-measures.problems';
import { PopulationPublication, PublicationCache, resultsVersionOf } from './population-publications';
import { PopulationPublicationRepository, StoredPublication } from './population-publication.repository';

/** Replaces the publisher (its check takes seconds) only in the service's own unit tests. */
export const POPULATION_PUBLISHER = Symbol('POPULATION_PUBLISHER');

/**
 * The analysts' counts (issue 14): the stored care-gap results of the one complete period, grouped
 * into microcells in the database (no patient id leaves it), published by the pure `population`
 * module with its perturbation, once per (period, results version), and served whole from then on.
 * A recompute is a new version and so a new publication, checked together with the one served
 * before it; every publication is stored, so every API process serves the same one
 * (docs/population-counts.md).
 */
@Injectable()
export class PopulationMeasuresService {
  private readonly publications = new PublicationCache();

  constructor(
    private readonly access: AccessService,
    private readonly results: MeasureResultsRepository,
    private readonly store: PopulationPublicationRepository,
    private readonly phi: AuditedAccess,
    @Optional() @Inject(POPULATION_PUBLISHER) private readonly publish: typeof publishPopulationCounts = publishPopulationCounts,
  ) {}

  /** The publication for `periodEnd` (default: the latest complete period); one audit row naming the tables, no patient. */
  measures(context: AccessContext, periodEnd: string | undefined): Promise<PopulationPublication> {
    return this.phi.audited(context, null, async () => {
      this.access.populationRead(context);
      const publication = await this.publication(periodEnd);
      return { value: publication, fields: publication.tables.map((table) => table.id), rowCount: publication.tables.length };
    });
  }

  private async publication(periodEnd: string | undefined): Promise<PopulationPublication> {
    const latest = await this.results.latestCompletePeriod();
    if (!latest) throw resultsNotReady();
    // The store keeps one period: older ones are pruned (perhaps partway) once a newer one completes.
    if (periodEnd !== undefined && periodEnd !== latest.period.end) throw periodNotAvailable(latest.period);
    const period = latest.period;
    const key = this.publications.keyOf(period, resultsVersionOf(period, await this.results.populationResultsVersion(period)));
    return this.publications.get(key) ?? this.publications.compute(key, () => this.storedOrPublished(period));
  }

  /**
   * The stored publication of the results' current version, or a new one: drawn, checked with the
   * newest stored one (of whichever period: a new day's period is read beside the day before's),
   * and stored if that is still the newest (else another process published in between, and this
   * draw is checked again, against that).
   */
  private async storedOrPublished(period: Period): Promise<PopulationPublication> {
    for (let attempt = 1; ; attempt += 1) {
      const inputs = await this.results.populationInputs(period);
      const resultsVersion = resultsVersionOf(period, inputs.version);
      const stored = await this.store.ofVersion(period, resultsVersion);
      if (stored) return served(period, stored);
      const previous = await this.store.newest();
      // The six built-in measures only: the disclosure check's integer programs grow with every
      // measure, so the stored rows of loaded measures are not counted (docs/population-counts.md).
      const microcells = inputs.microcells.filter((row) => (MEASURE_IDS as readonly string[]).includes(row.measureId)).map(microcellOf);
      const domains = { careTeams: inputs.careTeamCodes, sexes: Object.values(Sex), measureIds: MEASURE_IDS };
      const salt = publicationSaltOf(microcells, domains);
      // A new version with the inputs of the newest publication (a recompute that changed nothing) shows the same tables again.
      const checked: CheckedPublication = previous?.salt === salt
        ? { counts: { policy: PERTURBATION_POLICY, ...previous.counts } as PopulationCounts, record: previous.checkRecord }
        : await this.publish(microcells, domains, { previous: previous?.checkRecord ?? null });
      const publication: Omit<StoredPublication, 'id'> = {
        resultsVersion, computedAt: inputs.version.newestComputedAt, salt, counts: { tables: checked.counts.tables, withheldTables: checked.counts.withheldTables },
      };
      const outcome = await this.store.store(period, publication, checked.record, previous?.id ?? null);
      if (outcome === 'stored') return served(period, { id: '', ...publication });
      if (attempt >= MAX_STORE_ATTEMPTS) throw new Error('population publication: other processes kept publishing while this one checked its draw');
    }
  }
}

/** Each attempt is one check; another process can publish at most once per new results version in between. */
const MAX_STORE_ATTEMPTS = 5;

function served(period: Period, stored: StoredPublication): PopulationPublication {
  const counts = stored.counts as Omit<PopulationCounts, 'policy'>;
  return { period, computedAt: stored.computedAt, resultsVersion: stored.resultsVersion, policy: PERTURBATION_POLICY, tables: counts.tables, withheldTables: counts.withheldTables };
}

function microcellOf(row: PopulationMicrocellRow): Microcell {
  if (!isGapStatus(row.status)) throw new RangeError('stored result with an unknown care-gap status');
  return {
    careTeams: row.careTeams,
    ageBand: ageBandOf(row.ageDecade),
    sex: row.sex,
    measureId: row.measureId,
    status: row.status,
    reasonClass: row.reasonClass,
    count: row.count,
    keySum: Number(row.keySum),
  };
}
