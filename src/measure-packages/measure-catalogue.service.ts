import { Injectable } from '@nestjs/common';
import { AccessContext } from '../access/access-context';
import { AuditedAccess } from '../access/audited-access.service';
import { gapUnevaluableReason, MEASURES } from '../clinical/care-gaps';
import { chooseEdition, EditionChoice, Period } from './edition-selection';
import { CatalogueRow, LoadedEdition, MeasureIdentifier, MeasurePackagesRepository } from './measure-packages.repository';
import type { BuiltInMeasureDto, LoadedMeasureDto, MeasureCatalogueDto } from './measure-catalogue.dto';

/**
 * What measures Vigil knows: the built-in measures care_gap_lookup evaluates, and every measure
 * loaded as data, each edition side by side. `evaluable` says whether care_gap_lookup reads a
 * loaded measure as a care gap (a patient-based proportion measure).
 */
@Injectable()
export class MeasureCatalogueService {
  constructor(
    private readonly packages: MeasurePackagesRepository,
    private readonly audited: AuditedAccess,
  ) {}

  /** `GET /measures`: reference material, no patient data, yet one audit row like every route's. */
  read(context: AccessContext, key?: string): Promise<MeasureCatalogueDto> {
    return this.audited.audited(context, null, async () => {
      const value = await this.catalogue(key);
      return { value, fields: ['measures', 'loaded'], rowCount: value.measures.length + value.loaded.length };
    });
  }

  /** The built-in measures, as the catalogue has always listed them. */
  builtIn(key?: string): BuiltInMeasureDto[] {
    return Object.values(MEASURES)
      .filter((measure) => key === undefined || measure.id === key)
      .map(({ id, version, library, title, description, groups, inverse, differences }) => ({
        key: id, version, library, title, description, groups: [...groups], inverse, differences: [...differences], evaluable: true,
      }));
  }

  async loaded(key?: string): Promise<LoadedMeasureDto[]> {
    return (await this.packages.catalogue()).filter((row) => key === undefined || row.key === key).map(loadedEntry);
  }

  /**
   * Every loaded edition with its short names (`Measure.identifier` of the `short-name` type, e.g.
   * `https://madie.cms.gov/measure/shortName|CMS139FHIR`): how DEQM's `measureIdentifier` names a measure.
   */
  async loadedWithShortNames(): Promise<IdentifiedMeasure[]> {
    return (await this.packages.catalogue()).map((row) => ({ ...loadedEntry(row), shortNames: shortNamesOf(row.identifiers) }));
  }

  async catalogue(key?: string): Promise<MeasureCatalogueDto> {
    return { measures: this.builtIn(key), loaded: await this.loaded(key) };
  }

  /** The loaded edition of `key` for `period` (or the named `version`); see `chooseEdition`. */
  async measureForPeriod(key: string, period: Period, version?: string): Promise<EditionChoice<LoadedEdition>> {
    return chooseEdition(await this.packages.editionsOf(key), period, version);
  }
}

/** A loaded edition and its short-name identifiers (system null where the Measure gives none). */
export type IdentifiedMeasure = LoadedMeasureDto & { shortNames: { system: string | null; value: string }[] };

/** The identifiers typed `short-name` (in either code system the stewards have used for the type). */
function shortNamesOf(identifiers: readonly MeasureIdentifier[] | null): IdentifiedMeasure['shortNames'] {
  return (identifiers ?? [])
    .filter((identifier) => typeof identifier.value === 'string' && (identifier.type?.coding ?? []).some((coding) => coding.code === 'short-name'))
    .map((identifier) => ({ system: identifier.system ?? null, value: identifier.value as string }));
}

function loadedEntry(row: CatalogueRow): LoadedMeasureDto {
  return {
    key: row.key,
    title: row.title,
    version: row.version,
    url: row.url,
    edition: row.edition,
    scoring: row.scoring,
    basis: row.basis,
    groups: row.groups,
    measurementPeriod: row.periodStart && row.periodEnd ? { start: row.periodStart, end: row.periodEnd } : null,
    loadedAt: row.loadedAt,
    libraries: row.libraryCount,
    valueSets: row.valueSetCount,
    valueSetsFromSupplement: row.supplementedValueSetCount,
    evaluable: gapUnevaluableReason(row) === null,
  };
}
