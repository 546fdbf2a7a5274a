import { Module } from '@nestjs/common';
import { ToolsModule } from '../tools/tools.module';
import { PopulationMeasuresController } from './population-measures.controller';
import { PopulationMeasuresService } from './population-measures.service';

/**
 * What analysts read: de-identified counts over the stored measure results (the global
 * `MeasureResultsModule` provides the repository), published by the pure `population` module.
 */
@Module({ imports: [ToolsModule], controllers: [PopulationMeasuresController], providers: [PopulationMeasuresService] })
export class AnalyticsModule {}
