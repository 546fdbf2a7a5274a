import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { IntegerQueryField } from '../common/validation/fields';
import { SEALED_CURSOR } from '../phi/sealed-cursor';

/**
 * Longer than any cursor the report issues: a sealed (`CursorSealer`) event id of at most 18 digits
 * is under 100 characters of base64url.
 */
export const BREAK_GLASS_CURSOR_MAX_LENGTH = 256;

export class BreakGlassReportQueryDto {
  @IntegerQueryField({ min: 1, max: 100, default: 50, description: 'Page size.' })
  limit?: number;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: BREAK_GLASS_CURSOR_MAX_LENGTH,
    pattern: SEALED_CURSOR.source,
    description: 'The previous page’s `nextCursor`, sealed: it pages only for the user it was issued to, for an hour.',
  })
  @IsOptional()
  @IsString()
  @Length(1, BREAK_GLASS_CURSOR_MAX_LENGTH)
  @Matches(SEALED_CURSOR, { message: 'cursor must be a nextCursor as the service issued it' })
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
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for the next page; null on the last.' }) nextCursor: string | null;
}
