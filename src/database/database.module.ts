import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DatabaseTarget, dataSourceOptions } from './data-source.options';
import { DATABASE_POOL_STATS, poolStatsReader } from './pool-stats';

export const DATABASE_TARGET = Symbol('DATABASE_TARGET');

/** The TypeORM connection for the database chosen at start-up (see `prepareDatabase`), and its pool's counters. */
@Module({})
export class DatabaseModule {
  static forRoot(target: DatabaseTarget): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(target), retryAttempts: 2, retryDelay: 1000 })],
      providers: [
        { provide: DATABASE_TARGET, useValue: target },
        { provide: DATABASE_POOL_STATS, inject: [DataSource], useFactory: poolStatsReader },
      ],
      exports: [DATABASE_TARGET, DATABASE_POOL_STATS],
    };
  }
}
