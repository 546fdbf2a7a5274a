import { MAX_CARE_GAP_MEASURES } from '../tools/dto/care-gaps-query.dto';
import { applyDecorators } from '@nestjs/common';
import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsDefined, IsIn, IsOptional, IsString, Length, Matches, ValidateBy, ValidateIf } from 'class-validator';
import { CARE_TEAM_CODE } from '../common/care-team-code';
import { IntegerQueryField, isCalendarDate } from '../common/validation/fields';
import { SEALED_CURSOR } from '../phi/sealed-cursor';
import { GAP_STATUSES } from './gaps-document';

/**
 * The most patients one answer evaluates: each is a live evaluation of six measures over the whole
 * record, so a larger care team is answered in pages (`_count`, `_cursor`).
 */
export const MAX_PAGE_PATIENTS = 200;
/** The longest `_cursor` the service issues: a sealed patient id (`CursorSealer`), base64url. */
const CURSOR_MAX_LENGTH = 200;

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
    ApiPropertyOptional({ type: 'array', maxItems: MAX_CARE_GAP_MEASURES, items: { type: 'string', maxLength: MEASURE_NAME_MAX }, description, example }),
    listOf(),
    IsOptional(),
    ArrayMinSize(1),
    ArrayMaxSize(MAX_CARE_GAP_MEASURES),
    IsString({ each: true }),
    Length(1, MEASURE_NAME_MAX, { each: true }),
  );
}

/**
 * A DEQM parameter Vigil does not take, refused by name with the reason (rather than as an unknown
 * field), and left out of the OpenAPI document: it is not part of what Vigil offers.
 */
function NotTaken(message: string): PropertyDecorator {
  return applyDecorators(
    ApiHideProperty(),
    ValidateIf((_object, value) => value !== undefined),
    ValidateBy({ name: 'not_supported', validator: { validate: () => false, defaultMessage: () => message } }),
  );
}

/**
 * The Da Vinci DEQM `$care-gaps` parameters Vigil answers (GET form; the POST form's Parameters
 * resource is read into it). `organization`, `practitioner`, `topic` and `program` are refused by
 * name: Vigil keeps no Organization to attribute patients to, and a care team is named as
 * `subject=Group/<code>`.
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
  @IsIn(GAP_STATUSES as unknown as string[], {
    each: true,
    message: `each value of status must be one of ${GAP_STATUSES.join(', ')}, the gap statuses of DEQM STU3, which the documents claim: Vigil computes no prospective gap, and a measure that does not apply to a patient is no gap (STU4's not-applicable)`,
  })
  status: string[];

  @MeasureList('Measures by id: Vigil’s (`CMS122`, …, `KHE`), the stewards’ Measure resource id, or the key of a measure loaded as data that `GET /measures` lists as evaluable (`CMS139`). Default (no measure parameter): the six built-in measures.', ['CMS122'])
  measureId?: string[];

  @MeasureList(
    'Measures by business identifier: the short name (`CMS125FHIR`, or `https://madie.cms.gov/measure/shortName|CMS125FHIR`), a loaded measure’s too (its `Measure.identifier` of the short-name type; where editions share it, the one in force on the period’s last day).',
    ['CMS125FHIR'],
  )
  measureIdentifier?: string[];

  @MeasureList('Measures by canonical URL, optionally with `|version` (which must be the version Vigil evaluates, or a loaded edition’s).', ['https://madie.cms.gov/Measure/BreastCancerScreeningFHIR'])
  measureUrl?: string[];

  @IntegerQueryField({
    min: 1,
    max: MAX_PAGE_PATIENTS,
    description: `A care team (subject=Group/…) in pages of this many patients, in a stable order: the answer's \`Link\` header (\`rel="next"\`) asks for the next page. Without it, a team of more than ${MAX_PAGE_PATIENTS} patients is refused (400 naming \`subject\`) rather than cut.`,
  })
  _count?: number;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: CURSOR_MAX_LENGTH,
    pattern: SEALED_CURSOR.source,
    description: 'Where the next page starts: only as the `Link` header (`rel="next"`) of the previous page gives it, for the user it was issued to and the same parameters, for an hour.',
  })
  @IsOptional()
  @IsString()
  @Length(1, CURSOR_MAX_LENGTH)
  @Matches(SEALED_CURSOR, { message: '_cursor must be as the previous page’s Link header gave it' })
  _cursor?: string;

  @NotTaken('organization is not supported: Vigil keeps no Organization to attribute patients to; ask for one of your care teams as subject=Group/<code>')
  organization?: unknown;

  @NotTaken('practitioner is not supported: ask for one of your care teams as subject=Group/<code>')
  practitioner?: unknown;

  @NotTaken('topic is not supported: name the measures (measureId, measureIdentifier or measureUrl)')
  topic?: unknown;

  @NotTaken('program is not supported: name the measures (measureId, measureIdentifier or measureUrl)')
  program?: unknown;
}
