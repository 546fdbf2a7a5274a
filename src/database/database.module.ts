import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { connectionOptions, DatabaseTarget, EntityList } from './data-source.options';
import { DATABASE_NOTIFICATIONS_TARGET, DatabaseNotifications } from './database-notifications';
import { DATABASE_POOL_STATS, poolStatsReader } from './pool-stats';
import { ReaderPool } from './reader-pool';

export const DATABASE_TARGET = Symbol('DATABASE_TARGET');

/**
 * The TypeORM connection for the database chosen at start-up (see `prepareDatabase`), its pool's
 * counters, the cohort's reader pool (`ReaderPool`, on a Postgres server) and the process's Postgres
 * notifications (a connection of their own, opened on demand).
 */
@Module({})
export class DatabaseModule {
  /** `entities`: every module's tables, handed in by the composition root (the app, the worker). */
  static forRoot(target: DatabaseTarget, entities: EntityList): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [TypeOrmModule.forRoot({ ...connectionOptions(target, entities), retryAttempts: 2, retryDelay: 1000 })],
      providers: [
        { provide: DATABASE_TARGET, useValue: target },
        {
          provide: DATABASE_POOL_STATS,
          inject: [DataSource, ReaderPool],
          useFactory: (service: DataSource, readers: ReaderPool) => poolStatsReader({ service, reader: readers.dataSource }),
        },
        { provide: DATABASE_NOTIFICATIONS_TARGET, useValue: target },
        DatabaseNotifications,
        { provide: ReaderPool, useFactory: () => ReaderPool.open(target) },
      ],
      exports: [DATABASE_TARGET, DATABASE_POOL_STATS, DatabaseNotifications, ReaderPool],
    };
  }
}
