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

export class ReadinessChecksDto {
  @ApiProperty({ type: QueueHealthDto, description: 'The approval queue: down while Redis is; proposals wait in the Postgres outbox meanwhile.' })
  queue: QueueHealthDto;

  @ApiProperty({ type: DatabaseCheckDto })
  database: DatabaseCheckDto;

  @ApiProperty({ type: DependencyCheckDto })
  redis: DependencyCheckDto;
}

export class ReadinessDto {
  @ApiProperty({
    enum: ['ok', 'degraded', 'down'],
    description: '`ok`: all up. `degraded`: Redis down (reads work; queued work waits in Postgres). `down`: database down.',
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
