import { DynamicModule, Module } from '@nestjs/common';
import { Logger as PinoLogger } from 'pino';
import { AgentModule } from './agent/agent.module';
import { PopulationModule } from './population/population.module';
import { ApprovalsModule } from './approvals/approvals.module';
import { ApprovalQueueModule, ApprovalQueueModuleOptions } from './approvals/queue/approval-queue.module';
import { DeliveryQueueModule } from './approvals/delivery/delivery-queue.module';
import { AuditModule, AuditSealerModule } from './audit';
import { AuthModule } from './auth/auth.module';
import { CohortModule } from './cohort/cohort.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseTarget } from './database/data-source.options';
import { SCHEMA_ENTITIES } from './data-source';
import { DatabaseModule } from './database/database.module';
import { DeqmModule } from './deqm/deqm.module';
import { HealthModule } from './health/health.module';
import { MeasureResultsModule, MeasureResultsModuleOptions } from './measure-results/measure-results.module';
import { MeasurePackagesModule } from './measure-packages';
import { McpModule } from './mcp/mcp.module';
import { MetricsModule } from './metrics/metrics.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { PatientsModule } from './patients/patients.module';
import { QueueModule } from './queue/queue.module';
import { RedisModule } from './redis/redis.module';
import { ToolsModule } from './tools/tools.module';
import { TracingModule } from './tracing/tracing.module';

export interface AppModuleOptions {
  config: AppConfig;
  database: DatabaseTarget;
  /** The root logger: Nest's own lines and the request log line write through it (`createApp`). */
  logger: PinoLogger;
  /** Approval-queue overrides (tests give each app its own Redis key prefix). */
  queue?: ApprovalQueueModuleOptions;
  /** Measure-results recompute overrides (tests). */
  measures?: MeasureResultsModuleOptions;
}

@Module({})
export class AppModule {
  static forRoot({ config, database, queue, measures }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(database, SCHEMA_ENTITIES),
        RedisModule,
        CohortModule,
        AuditModule,
        AuditSealerModule.forRoot(database),
        AuthModule,
        RateLimitModule,
        ToolsModule,
        PopulationModule,
        MeasurePackagesModule,
        PatientsModule,
        DeqmModule,
        ApprovalsModule,
        AgentModule,
        McpModule,
        QueueModule,
        ApprovalQueueModule.forRoot(queue),
        // Approved effects out to the organisation's FHIR server and webhook, on the approval queue's settings.
        DeliveryQueueModule.forRoot(queue),
        MeasureResultsModule.forRoot(measures),
        HealthModule,
        MetricsModule.forRoot(config),
        TracingModule,
      ],
    };
  }
}
