import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { PopulationMeasuresController } from './population-measures.controller';
import { PopulationMeasuresService } from './population-measures.service';
import { PopulationPublicationRepository } from './population-publication.repository';

/**
 * What analysts read: de-identified counts over the stored measure results (the global
 * `MeasureResultsModule` provides the repository), published by the pure cell-key perturbation in this
 * module and kept in `population_publications`, so that every API process serves the same draw.
 */
@Module({ imports: [AccessModule], controllers: [PopulationMeasuresController], providers: [PopulationMeasuresService, PopulationPublicationRepository] })
export class PopulationModule {}
