import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CohortRepository } from './cohort.repository';
import { COHORT_ENTITIES } from './entities';

/**
 * The cohort: patients, care teams, staff and the clinical record. The only module that reads or
 * writes patient data; the typed tools reach it through its repository.
 */
@Module({
  imports: [TypeOrmModule.forFeature(COHORT_ENTITIES)],
  providers: [CohortRepository],
  exports: [CohortRepository],
})
export class CohortModule {}
