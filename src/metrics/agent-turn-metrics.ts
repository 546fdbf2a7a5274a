import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Counter, Registry } from 'prom-client';
import { STORED_TURN_STATUSES } from '../agent/entities/agent-turn.entity';
import { TurnFinishedEvent, turnFinishedChannel } from '../agent/turn-events';
import { METRICS_REGISTRY } from './metrics-registry';

/** Agent turns ended in this process, by status (answered, insufficient_data, refused, …). */
@Injectable()
export class AgentTurnMetrics implements OnModuleDestroy {
  private readonly turns: Counter<'status'>;
  private readonly onTurnFinished = (message: unknown) => this.turns.inc({ status: (message as TurnFinishedEvent).status });

  constructor(@Inject(METRICS_REGISTRY) registry: Registry) {
    this.turns = new Counter({ name: 'vigil_agent_turns_total', help: 'Agent turns ended, by status.', labelNames: ['status'], registers: [registry] });
    // Every status from 0, so a rate over a status no turn has had yet is 0 rather than no data.
    for (const status of STORED_TURN_STATUSES) if (status !== 'running') this.turns.inc({ status }, 0);
    subscribe(turnFinishedChannel.name, this.onTurnFinished);
  }

  onModuleDestroy(): void {
    unsubscribe(turnFinishedChannel.name, this.onTurnFinished);
  }
}
