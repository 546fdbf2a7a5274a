import { LRUCache } from 'lru-cache';
import { Injectable } from '@nestjs/common';
import { AccessContext } from '../access/access-context';
import { AccessService } from '../access/access.service';
import { Sex } from '../cohort/enum';
import { MeasureResultsRepository, PopulationMicrocellRow } from '../measure-results/measure-results.repository';
import { Microcell, ageBandOf, isGapStatus } from './microcells';
import { PopulationCounts, publicationSaltOf, publishPopulationCounts } from './population-counts';
import { MEASURE_IDS } from '../clinical/care-gaps';
import { Period } from '../clinical/shared/clinical-dates';
import { AuditedAccess } from '../access/audited-access.service';
import { periodNotAvailable, resultsNotReady } from './population-measures.problems';
import { PopulationPublication, PublicationCache, resultsVersionOf } from './population-publications';

/**
 * The analysts' counts (issue 14): the stored care-gap results of the one complete period, grouped
 * into microcells in the database (no patient id leaves it), published by the pure `population`
 * module with its perturbation, once per (period, results version), and served whole from then on.
 * A recompute is a new version and so a new publication (docs/population-counts.md).
 */
@Injectable()
export class PopulationMeasuresService {
  private readonly publications = new PublicationCache();
  /**
   * Checked draws by the digest of their inputs. Checking a draw takes seconds of integer
   * programming (docs/population-counts.md, "The check"); a recompute that changes no result is a
   * new version with the same inputs, and is served without checking again.
   */
  private readonly draws = new LRUCache<string, Promise<PopulationCounts>>({ max: DRAWS_KEPT });

  constructor(
    private readonly access: AccessService,
    private readonly results: MeasureResultsRepository,
    private readonly phi: AuditedAccess,
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
    return this.publications.get(key) ?? this.publications.compute(key, () => this.compute(period));
  }

  private async compute(period: Period): Promise<PopulationPublication> {
    const inputs = await this.results.populationInputs(period);
    const microcells = inputs.microcells.map(microcellOf);
    const domains = { careTeams: inputs.careTeamCodes, sexes: Object.values(Sex), measureIds: MEASURE_IDS };
    const counts = await this.checkedDraw(microcells, domains);
    return { period, computedAt: inputs.version.newestComputedAt, resultsVersion: resultsVersionOf(period, inputs.version), ...counts };
  }

  private checkedDraw(microcells: Microcell[], domains: Parameters<typeof publishPopulationCounts>[1]): Promise<PopulationCounts> {
    const salt = publicationSaltOf(microcells, domains);
    let pending = this.draws.get(salt);
    if (!pending) {
      pending = publishPopulationCounts(microcells, domains);
      this.draws.set(salt, pending);
      pending.catch(() => this.draws.delete(salt));
    }
    return pending;
  }
}

/** As many as the publications kept: each of them may be a version of the same inputs. */
const DRAWS_KEPT = 4;

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
