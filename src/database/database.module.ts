import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseTarget, dataSourceOptions } from './data-source.options';

export const DATABASE_TARGET = Symbol('DATABASE_TARGET');

/** The TypeORM connection for the database chosen at start-up (see `prepareDatabase`). */
@Module({})
export class DatabaseModule {
  static forRoot(target: DatabaseTarget): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(target), retryAttempts: 2, retryDelay: 1000 })],
      providers: [{ provide: DATABASE_TARGET, useValue: target }],
      exports: [DATABASE_TARGET],
    };
  }
}
