/** The measure-packages module's public surface: what other modules may import. */
export { MeasurePackagesModule } from './measure-packages.module';
export { MeasureCatalogueService } from './measure-catalogue.service';
export type { IdentifiedMeasure } from './measure-catalogue.service';
export { PublishedCareGapsService } from './published-care-gaps.service';
export type { ChosenEdition, EditionOutcome, EvaluableMeasures } from './published-care-gaps.service';
export { MeasurePackagesRepository } from './measure-packages.repository';
export type { CatalogueRow, LoadedEdition, StoreOutcome } from './measure-packages.repository';
export { chooseEdition } from './edition-selection';
export type { EditionChoice, Period } from './edition-selection';
export { readMeasureSource } from './measure-source';
export type { LoadedMeasureDto } from './measure-catalogue.dto';
export type { MeasureSource, SourceMeasure } from './measure-source';
export { resolvePackage } from './package-resolver';
export type { RefusedPackage, ResolvedPackage, Resolution } from './package-resolver';
export { MEASURE_PACKAGE_ENTITIES } from './entities';
export { MEASURE_PACKAGE_STATEMENTS } from './measure-packages.sql';
export { loadedMeasureNeeds } from './measure-needs';
export type { MeasureNeed, MeasureNeeds, NeedsEdition, NeedsSource } from './measure-needs';
