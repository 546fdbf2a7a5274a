import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { MeasureCatalogueController } from './measure-catalogue.controller';
import { MeasureCatalogueService } from './measure-catalogue.service';
import { MeasurePackagesRepository } from './measure-packages.repository';
import { PublishedCareGapsService } from './published-care-gaps.service';

/**
 * The stewards' measures as data: the loaded packages (read here; written only by the
 * `measures-load` command), the edition a period picks, and the measure catalogue (`GET /measures`,
 * and MCP's `vigil://measures` through `MeasureCatalogueService`), and care gaps under a loaded
 * measure (`PublishedCareGapsService`, which care_gap_lookup calls).
 */
@Module({
  imports: [AccessModule],
  controllers: [MeasureCatalogueController],
  providers: [MeasurePackagesRepository, MeasureCatalogueService, PublishedCareGapsService],
  exports: [MeasureCatalogueService, PublishedCareGapsService],
})
export class MeasurePackagesModule {}
