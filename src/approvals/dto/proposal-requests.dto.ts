import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { ProposalKind, ProposalStatus } from '../enum';
import { CITATION, CITATION_MAX_LENGTH, MAX_CITATIONS } from './proposal-content.dto';

export class CreateProposalDto {
  @ApiProperty({ enum: ProposalKind })
  @IsIn(Object.values(ProposalKind))
  kind: ProposalKind;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The kind’s typed content (see the CloseCareGap/OrderLab/AddCareNote/ScheduleOutreach content schemas).',
    example: { loincCode: '4548-4', priority: 'routine', reason: 'HbA1c overdue' },
  })
  @IsObject()
  content: Record<string, unknown>;

  @ApiProperty({ minLength: 10, maxLength: 2000, description: 'Why: shown to the reviewer.' })
  @IsString()
  @Length(10, 2000)
  rationale: string;

  @ApiProperty({ type: [String], maxItems: MAX_CITATIONS, items: { type: 'string', maxLength: CITATION_MAX_LENGTH }, example: ['obs:6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11'], description: 'Rows of this patient the proposal rests on.' })
  @IsArray()
  @ArrayMaxSize(MAX_CITATIONS)
  @Matches(CITATION, { each: true, message: 'each citation must look like obs:<uuid>' })
  citations: string[];
}

export class DecisionDto {
  @ApiProperty({ description: 'The version being decided: a decision on a stale version is refused (409).', minimum: 1 })
  @IsInt()
  @Min(1)
  version: number;

  @ApiPropertyOptional({ minLength: 3, maxLength: 1000, description: 'Required to reject or cancel.' })
  @IsOptional()
  @IsString()
  @Length(3, 1000)
  reason?: string;
}

export class EditAndApproveDto extends DecisionDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The new content (re-validated).' })
  @IsObject()
  content: Record<string, unknown>;

  @ApiPropertyOptional({ minLength: 10, maxLength: 2000 })
  @IsOptional()
  @IsString()
  @Length(10, 2000)
  rationale?: string;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_CITATIONS, items: { type: 'string', maxLength: CITATION_MAX_LENGTH } })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_CITATIONS)
  @Matches(CITATION, { each: true, message: 'each citation must look like obs:<uuid>' })
  citations?: string[];
}

export class ListProposalsQueryDto {
  @ApiPropertyOptional({ enum: ProposalStatus })
  @IsOptional()
  @IsIn(Object.values(ProposalStatus))
  status?: ProposalStatus;

  @ApiPropertyOptional({ enum: ProposalKind })
  @IsOptional()
  @IsIn(Object.values(ProposalKind))
  kind?: ProposalKind;

  @ApiPropertyOptional({ format: 'uuid', maxLength: 36 })
  @IsOptional()
  @Matches(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: 'patientId must be a UUID' })
  patientId?: string;

  @ApiPropertyOptional({ format: 'uuid', maxLength: 36, description: 'Only proposals filed by this staff user.' })
  @IsOptional()
  @Matches(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: 'proposerId must be a UUID' })
  proposerId?: string;

  @ApiPropertyOptional({ enum: ['newest', 'oldest'], default: 'newest', description: '`oldest`: the longest-waiting first.' })
  @IsOptional()
  @IsIn(['newest', 'oldest'])
  sort?: 'newest' | 'oldest';

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50, description: 'Page size.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ maxLength: 200, description: 'Opaque cursor from the previous page’s `nextCursor`.' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  cursor?: string;
}
