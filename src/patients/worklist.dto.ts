import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches, MaxLength } from 'class-validator';
import { IntegerQueryField } from '../common/validation/fields';
import { OptionalFreeTextField } from '../common/validation/text';
import { GAP_STATUSES } from '../population/microcells';
import { MEASURE_NAMES } from '../clinical/care-gaps';

export const WORKLIST_LIMIT_DEFAULT = 25;

export class WorklistQueryDto {
  @ApiPropertyOptional({ enum: MEASURE_NAMES, description: 'Only this measure (KHE is accepted for CMS951).' })
  @IsOptional()
  @IsIn(MEASURE_NAMES as unknown as string[])
  measure?: string;

  @ApiPropertyOptional({ enum: GAP_STATUSES })
  @IsOptional()
  @IsIn(GAP_STATUSES as unknown as string[])
  status?: string;

  @ApiPropertyOptional({ type: String, maxLength: 80, pattern: '^[a-z0-9-]+(:[a-z0-9-]+)?$', example: 'not-numerator', description: 'A reason code (`not-numerator:no-screening`) or its class (`not-numerator`).' })
  @IsOptional()
  @MaxLength(80)
  @Matches(/^[a-z0-9-]+(:[a-z0-9-]+)?$/, { message: 'reason must be a reason code or class, e.g. not-numerator or not-numerator:no-screening' })
  reason?: string;

  @ApiPropertyOptional({ enum: ['name', 'age', 'lastResult'], default: 'name', description: 'By family and given name; by age (`asc`: youngest first); or by the day of the most recent row a matching result cites (`asc`: oldest and never-dated first).' })
  @IsOptional()
  @IsIn(['name', 'age', 'lastResult'])
  sort?: 'name' | 'age' | 'lastResult';

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'asc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @OptionalFreeTextField({ min: 1, max: 400, description: 'Opaque cursor from the previous page’s `nextCursor` (same sort and order).' })
  cursor?: string;

  @IntegerQueryField({ min: 1, max: 100, default: WORKLIST_LIMIT_DEFAULT, description: 'Patients per page.' })
  limit?: number;
}

class WorklistPeriodDto {
  @ApiProperty({ format: 'date' }) start: string;
  @ApiProperty({ format: 'date' }) end: string;
}

export class WorklistPageDto {
  @ApiProperty({ description: 'The care team listed.' })
  careTeam: string;

  @ApiProperty({ type: WorklistPeriodDto, description: 'The measurement period of the stored results (the trailing year they were computed for).' })
  period: WorklistPeriodDto;

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'One item per patient: `patient` (the patient header of your projection; `handle` is the id the other routes take) and `results` (the matching stored results, each with `computedAt` and `stale`: the data changed after it was computed).',
  })
  items: Record<string, unknown>[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' })
  nextCursor: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The oldest `computedAt` of the results on this page: the answer is as of then.' })
  computedAt: string | null;
}
