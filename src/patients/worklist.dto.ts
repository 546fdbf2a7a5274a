import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { IntegerQueryField } from '../common/validation/fields';
import { GAP_STATUSES } from '../population/microcells';
import { MEASURE_NAMES } from '../clinical/care-gaps';
import { CARE_GAP_MEASURE_KEY, CARE_GAP_MEASURE_KEY_MAX } from '../clinical/citation-grammar';
import { REASON_FILTERS } from '../clinical/care-gaps/reason-codes';
import { SEALED_CURSOR } from '../phi/sealed-cursor';
import { WORKLIST_ATTESTATION_FILTERS, WorklistAttestationFilter } from '../measure-results/worklist-page';

export const WORKLIST_LIMIT_DEFAULT = 25;

/**
 * The longest cursor the service issues: a sealed keyset (`CursorSealer`) of two names of up to
 * 500 UTF-16 units, each at most 6 bytes in JSON (an escaped control character), base64url.
 */
export const WORKLIST_CURSOR_MAX_LENGTH = 8192;

export class WorklistQueryDto {
  @ApiPropertyOptional({
    type: String,
    pattern: CARE_GAP_MEASURE_KEY.source,
    maxLength: CARE_GAP_MEASURE_KEY_MAX,
    example: 'CMS122',
    description:
      `Only this measure: the built-in ${MEASURE_NAMES.join(', ')} (KHE is CMS951), or the key of a measure loaded as data (\`GET /measures\` lists them) ` +
      'that the stored period has a care gap for; one that is not loaded, has no edition in force on the stored period’s last day, or has no gap to read is refused by name (`400`, `errors[].reason`).',
  })
  @IsOptional()
  @IsString()
  @Matches(CARE_GAP_MEASURE_KEY, { message: 'measure must be a measure key (CMS122, or a loaded measure’s key)' })
  measure?: string;

  @ApiPropertyOptional({ enum: GAP_STATUSES })
  @IsOptional()
  @IsIn(GAP_STATUSES as unknown as string[])
  status?: string;

  @ApiPropertyOptional({ enum: REASON_FILTERS, example: 'not-numerator', description: 'A reason code (`not-numerator:no-screening`) or its class (`not-numerator`): one the measures can give.' })
  @IsOptional()
  @IsIn(REASON_FILTERS as string[], { message: 'reason must be a reason code or class the measures give, e.g. not-numerator or not-numerator:no-screening' })
  reason?: string;

  @ApiPropertyOptional({
    enum: WORKLIST_ATTESTATION_FILTERS,
    description:
      'Results by their attestations (approved closures of the gap that stand for the period): `attested`, whatever the measured status; `attested-open`, attested but still an open gap as measured (not yet closed by evidence). An attestation never changes the measured status.',
  })
  @IsOptional()
  @IsIn(WORKLIST_ATTESTATION_FILTERS as unknown as string[], { message: `attestation must be one of ${WORKLIST_ATTESTATION_FILTERS.join(', ')}` })
  attestation?: WorklistAttestationFilter;

  @ApiPropertyOptional({ enum: ['name', 'age', 'lastResult'], default: 'name', description: 'By family and given name; by age (`asc`: youngest first); or by the day of the most recent row a matching result cites (`asc`: oldest and never-dated first).' })
  @IsOptional()
  @IsIn(['name', 'age', 'lastResult'])
  sort?: 'name' | 'age' | 'lastResult';

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'asc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: WORKLIST_CURSOR_MAX_LENGTH,
    pattern: SEALED_CURSOR.source,
    description: 'The previous page’s `nextCursor`, sealed: it pages only for the user it was issued to, with the same team, filters, sort and order, for an hour.',
  })
  @IsOptional()
  @IsString()
  @Length(1, WORKLIST_CURSOR_MAX_LENGTH)
  @Matches(SEALED_CURSOR, { message: 'cursor must be a nextCursor as the service issued it' })
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
    description:
      'One item per patient: `patient` (the patient header of your projection; `handle` is the id the other routes take) and `results` (the matching stored results, each with `computedAt` and `stale`: the data changed after it was computed; and `attestations`: the approved closures that stand for the period, beside the measured `status`, which they never change).',
  })
  items: Record<string, unknown>[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' })
  nextCursor: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The oldest `computedAt` of the results on this page: the answer is as of then.' })
  computedAt: string | null;
}
