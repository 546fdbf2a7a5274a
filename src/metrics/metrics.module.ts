import { DynamicModule, Module } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { addEarlyRequestHook } from '../common/http/http-edges';
import { AuditModule } from '../audit';
import { AppConfig } from '../config/app-config';
import { AgentTurnMetrics } from './agent-turn-metrics';
import { AuditSealMetrics } from './audit-seal-metrics';
import { DeliveryMetrics } from './delivery-metrics';
import { HttpMetrics } from './http-metrics';
import { metricsRegistryProviders } from './metrics-registry';
import { MetricsServer } from './metrics-server';
import { OutboxMetrics } from './outbox-metrics';
import { PoolMetrics } from './pool-metrics';
import { QueueMetrics } from './queue-metrics';

/**
 * Prometheus metrics of one process (the API or a worker), served on METRICS_PORT. With
 * METRICS_PORT unset the module is empty: no registry, no middleware, no listener, nothing kept.
 * It reads the other modules (the pool, the outbox, the deliveries' backlog, the queues, the agent's
 * and workers' events, the audit sealer); none of them imports it.
 */
@Module({})
export class MetricsModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (config.metrics.port === undefined) return { module: MetricsModule };
    return {
      module: MetricsModule,
      // The audit module exports the sealer's status once a sealer is provided there.
      imports: [AuditModule],
      providers: [...metricsRegistryProviders, HttpMetrics, PoolMetrics, OutboxMetrics, DeliveryMetrics, QueueMetrics, AgentTurnMetrics, AuditSealMetrics, MetricsServer],
      exports: [HttpMetrics, MetricsServer],
    };
  }
}

/** Times every request of the HTTP app, before any other hook or middleware; nothing when metrics are off. */
export function observeHttpRequests(app: NestFastifyApplication, config: AppConfig): void {
  if (config.metrics.port === undefined) return;
  addEarlyRequestHook(app, app.get(HttpMetrics).onRequest);
}
