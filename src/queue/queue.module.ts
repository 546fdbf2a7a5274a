import { Global, Module } from '@nestjs/common';
import { EvictionPolicyCheck } from './eviction-policy-check';
import { QueueConnections } from './queue-connections';
import { OUTBOX_BACKLOG, OutboxBacklog, QueueHealth } from './queue-health';

/**
 * The queue mechanism the features share: Redis connections for queues (`QueueConnections`),
 * readiness (`QueueHealth`) and the eviction-policy check. Each feature builds its queue from the
 * pieces of this folder (`OutboxRelay`, `QueueWorkerHost`, `PeriodicSweep`) and keeps only what is
 * its own: job handlers, repositories and SQL, constants. Global, and it imports no feature: the
 * outbox readiness reports on arrives by the `OUTBOX_BACKLOG` token its owner provides.
 */
@Global()
@Module({
  providers: [
    QueueConnections,
    {
      provide: QueueHealth,
      inject: [OUTBOX_BACKLOG, QueueConnections],
      useFactory: (outbox: OutboxBacklog, connections: QueueConnections) => new QueueHealth(outbox, connections.monitor),
    },
    { provide: EvictionPolicyCheck, inject: [QueueConnections], useFactory: (connections: QueueConnections) => new EvictionPolicyCheck(connections.monitor) },
  ],
  exports: [QueueConnections, QueueHealth],
})
export class QueueModule {}
