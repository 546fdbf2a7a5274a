import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { IntegerQueryField } from '../common/validation/fields';

export class BreakGlassReportQueryDto {
  @IntegerQueryField({ min: 1, max: 100, default: 50, description: 'Page size.' })
  limit?: number;

  @ApiPropertyOptional({ description: 'The previous page’s `nextCursor`.', pattern: '^[1-9][0-9]{0,17}$', maxLength: 18 })
  @IsOptional()
  @Matches(/^[1-9][0-9]{0,17}$/)
  cursor?: string;
}

export class BreakGlassUseDto {
  @ApiProperty({ description: 'The audit event id.' }) id: string;
  @ApiProperty({ format: 'date-time' }) occurredAt: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) actorId: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The staff user’s username, if the user still exists.' }) actorUsername: string | null;
  @ApiProperty({ nullable: true, type: String }) actorRole: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) patientId: string | null;
  @ApiProperty({ description: 'What was read (the tool).' }) action: string;
  @ApiProperty({ description: 'The reason the clinician gave.' }) reason: string;
  @ApiProperty({ nullable: true, type: String }) correlationId: string | null;
  @ApiProperty() channel: string;
}

export class BreakGlassReportDto {
  @ApiProperty({ type: [BreakGlassUseDto] }) items: BreakGlassUseDto[];
  @ApiProperty({ nullable: true, type: String }) nextCursor: string | null;
}
