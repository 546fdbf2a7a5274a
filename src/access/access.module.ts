import { Module } from '@nestjs/common';
import { CohortModule } from '../cohort/cohort.module';
import { AccessRepository } from './access.repository';
import { AccessService } from './access.service';

/** The access rules: one named check per permission, and the queries behind them. */
@Module({ imports: [CohortModule], providers: [AccessRepository, AccessService], exports: [AccessService] })
export class AccessModule {}
