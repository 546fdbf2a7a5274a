import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IntegerQueryField } from '../common/validation/fields';
import { QueueHealthDto } from '../queue/queue-health';

export class ReadinessQueryDto {
  @IntegerQueryField({ min: 50, max: 5000, default: 1000, description: 'How long each dependency may take to answer, in milliseconds.' })
  timeoutMs?: number;
}

export type DependencyStatus = 'up' | 'down';

export class DependencyCheckDto {
  @ApiProperty({ enum: ['up', 'down'] })
  status: DependencyStatus;

  @ApiProperty({ description: 'Round-trip time of the check, in milliseconds.' })
  latencyMs: number;

  @ApiPropertyOptional({ description: 'Why the dependency is down (error type only, never a message).' })
  error?: string;
}

export class DatabaseCheckDto extends DependencyCheckDto {
  @ApiProperty({ description: 'True when Vigil runs its embedded Postgres (PGlite).' })
  embedded: boolean;
}

/** Why the deliveries make readiness `degraded`. */
export type DeliveryProblem = 'dead_lettered' | 'backlog_too_old';

export class DeliveryHealthDto {
  @ApiProperty({
    enum: ['ok', 'degraded', 'unknown'],
    description: '`degraded`: a delivery is dead-lettered, or an open one has waited longer than `maxAgeSeconds`. `unknown`: the database could not be read (the counts are then 0).',
  })
  status: 'ok' | 'degraded' | 'unknown';

  @ApiProperty({ type: [String], enum: ['dead_lettered', 'backlog_too_old'], description: 'What makes it `degraded`; empty otherwise.' })
  problems: DeliveryProblem[];

  @ApiProperty({ description: 'Deliveries waiting for their first attempt, every destination.' })
  pending: number;

  @ApiProperty({ description: 'Deliveries waiting for a retry.' })
  retrying: number;

  @ApiProperty({ description: 'Dead-lettered deliveries (`deliveries-retry` sends them again).' })
  dead: number;

  @ApiProperty({ type: Number, nullable: true, description: 'How long the oldest pending or retrying delivery has waited, in seconds; null when none.' })
  oldestUndeliveredSeconds: number | null;

  @ApiProperty({ description: '`DELIVERY_BACKLOG_MAX_AGE_SECONDS`: the wait beyond which the backlog is `backlog_too_old`.' })
  maxAgeSeconds: number;
}

export class ReadinessChecksDto {
  @ApiProperty({ type: QueueHealthDto, description: 'The approval queue: down while Redis is; proposals wait in the Postgres outbox meanwhile.' })
  queue: QueueHealthDto;

  @ApiProperty({ type: DatabaseCheckDto })
  database: DatabaseCheckDto;

  @ApiProperty({ type: DependencyCheckDto })
  redis: DependencyCheckDto;

  @ApiProperty({ type: DeliveryHealthDto, description: 'Approved effects not yet at their destinations (FHIR server, webhook).' })
  deliveries: DeliveryHealthDto;
}

export class ReadinessDto {
  @ApiProperty({
    enum: ['ok', 'degraded', 'down'],
    description:
      '`ok`: all up. `degraded`: Redis down (reads work; queued work waits in Postgres), or deliveries dead-lettered or waiting too long (`checks.deliveries`). `down`: database down.',
  })
  status: 'ok' | 'degraded' | 'down';

  @ApiProperty({ type: ReadinessChecksDto })
  checks: ReadinessChecksDto;
}

export class LivenessDto {
  @ApiProperty({ enum: ['ok'] })
  status: 'ok';

  @ApiProperty()
  uptimeSeconds: number;
}
