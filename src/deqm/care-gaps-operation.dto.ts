import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsDefined, IsIn, IsOptional, IsString, Length, Matches, ValidateBy } from 'class-validator';
import { CARE_TEAM_CODE } from '../common/care-team-code';
import { isCalendarDate } from '../common/validation/fields';
import { MEASURE_IDS } from '../clinical/care-gaps';
import { GAP_STATUSES } from './gaps-document';

/** `Patient/<uuid>` or `Group/<care-team code>` (the one code rule): the one patient, or every patient of one of your care teams. */
export const SUBJECT = new RegExp(`^(Patient/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|Group/${CARE_TEAM_CODE.source.slice(1, -1)})$`);
const MEASURE_NAME_MAX = 200;

/** Repeated parameters (`?status=a&status=b`) or one comma-separated value (`?status=a,b`), as FHIR clients send them. */
const listOf = () => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.split(',').map((item) => item.trim()) : value));

function RequiredDate(description: string, example: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: String, format: 'date', maxLength: 10, required: true, description, example }),
    IsDefined({ message: '$property is required' }),
    ValidateBy({ name: 'isCalendarDate', validator: { validate: (value) => typeof value === 'string' && isCalendarDate(value), defaultMessage: () => '$property must be an existing date as YYYY-MM-DD' } }),
  );
}

function MeasureList(description: string, example: string[]): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'array', maxItems: MEASURE_IDS.length, items: { type: 'string', maxLength: MEASURE_NAME_MAX }, description, example }),
    listOf(),
    IsOptional(),
    ArrayMinSize(1),
    ArrayMaxSize(MEASURE_IDS.length),
    IsString({ each: true }),
    Length(1, MEASURE_NAME_MAX, { each: true }),
  );
}

/**
 * The Da Vinci DEQM `$care-gaps` parameters Vigil answers (GET form). `practitioner`,
 * `organization`, `topic` and `program` are not taken: a care team is named as `subject=Group/<code>`.
 */
export class CareGapsOperationQueryDto {
  @RequiredDate('Start of the gaps-through period (the measurement period), inclusive.', '2025-01-01')
  periodStart: string;

  @RequiredDate('End of the gaps-through period, inclusive; at most 5 years after periodStart.', '2025-12-31')
  periodEnd: string;

  @ApiProperty({
    type: String,
    maxLength: 70,
    pattern: SUBJECT.source,
    required: true,
    description: '`Patient/<id>` (one patient), or `Group/<care-team code>`: every patient of that care team of yours (clinicians and care coordinators).',
    example: 'Group/primary-care-north',
  })
  @IsDefined({ message: 'subject is required' })
  @IsString()
  @Matches(SUBJECT, { message: 'subject must be Patient/<id> or Group/<care-team code>' })
  subject: string;

  @ApiProperty({
    type: 'array',
    required: true,
    maxItems: GAP_STATUSES.length,
    items: { type: 'string', enum: [...GAP_STATUSES] },
    description: 'Which gaps to report: `open-gap`, `closed-gap` or both (repeat the parameter). Vigil computes no prospective gaps.',
    example: ['open-gap', 'closed-gap'],
  })
  @listOf()
  @IsDefined({ message: 'status is required' })
  @ArrayMinSize(1)
  @ArrayMaxSize(GAP_STATUSES.length)
  @IsIn(GAP_STATUSES as unknown as string[], { each: true, message: `each value of status must be one of ${GAP_STATUSES.join(', ')}` })
  status: string[];

  @MeasureList('Measures by id: Vigil’s (`CMS122`, …, `KHE`) or the stewards’ Measure resource id. Default (no measure parameter): all six.', ['CMS122'])
  measureId?: string[];

  @MeasureList('Measures by business identifier: the short name (`CMS125FHIR`, or `https://madie.cms.gov/measure/shortName|CMS125FHIR`).', ['CMS125FHIR'])
  measureIdentifier?: string[];

  @MeasureList('Measures by canonical URL, optionally with `|version` (which must be the version Vigil evaluates).', ['https://madie.cms.gov/Measure/BreastCancerScreeningFHIR'])
  measureUrl?: string[];
}
