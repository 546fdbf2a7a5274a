import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsIn, IsISO8601, IsOptional, IsString, Matches, registerDecorator, ValidationArguments } from 'class-validator';
import { FreeTextField } from '../../common/validation/text';
import { MEASURE_NAMES } from '../../clinical/care-gaps';
import { todayUtc } from '../../tools/envelope';
import { ProposalKind } from '../enum';
import { CARE_GAP_MEASURE_KEY, CARE_GAP_MEASURE_KEY_MAX, CITATION_FORMS_TEXT, CITATION_MAX_LENGTH, isCitation, NOT_A_CITATION } from '../../clinical/citation-grammar';

/**
 * The typed payload of each proposal kind: closed DTOs, validated exactly like HTTP input (and
 * later like the model's `propose_action` arguments).
 */

/** LOINC codes a proposal may order: common primary-care labs (kept as data; extend deliberately). */
export const ORDERABLE_LOINC = ['4548-4', '33914-3', '62238-1', '9318-7', '2093-3', '13457-7', '2089-1', '24331-1', '2160-0', '718-7'] as const;

/** DEQM-style remark codes (why a gap is closed without new data). A remark never closes a gap alone. */
export const GAP_REMARK_CODES = ['performed-elsewhere', 'patient-declined', 'medical-reason', 'data-entry-correction'] as const;

/**
 * A date something is due (`YYYY-MM-DD`) may not be in the past: a reviewer would approve a task
 * already overdue. "Today" is the UTC day, the service's today everywhere outside the measures.
 * Every kind's content passes here when it is filed, drafted, submitted and edited.
 */
function NotInThePast(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'notInThePast',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || value >= todayUtc(),
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must be today (UTC) or later`,
      },
    });
}

export class CloseCareGapContentDto {
  // The shape only: whether a loaded key names a measure with a care gap for today’s period is the intake’s check (`CareGapMeasures`).
  @ApiProperty({
    type: String,
    pattern: CARE_GAP_MEASURE_KEY.source,
    maxLength: CARE_GAP_MEASURE_KEY_MAX,
    example: 'CMS122',
    description:
      `The measure whose gap to close: the built-in ${MEASURE_NAMES.join(', ')} (KHE is CMS951), or the key of a measure loaded as data that \`GET /measures\` lists as evaluable. ` +
      'The gap must be open today, in the trailing year ending today; a loaded measure answers by its edition in force on that year’s last day. A key that is not loaded, ' +
      'has no edition in force then, or has no gap to read is refused by name (`400` naming `content.measureId`, `errors[].reason`).',
  })
  @IsString()
  @Matches(CARE_GAP_MEASURE_KEY, { message: 'measureId must be a measure key (CMS122, or a loaded measure’s key)' })
  measureId: string;

  @ApiPropertyOptional({ enum: GAP_REMARK_CODES, description: 'Why, alongside the evidence; never enough on its own.' })
  @IsOptional()
  @IsIn(GAP_REMARK_CODES as unknown as string[])
  remarkCode?: string;
}

export class OrderLabContentDto {
  @ApiProperty({ enum: ORDERABLE_LOINC, example: '4548-4' })
  @IsIn(ORDERABLE_LOINC as unknown as string[])
  loincCode: string;

  @ApiProperty({ enum: ['routine', 'urgent'] })
  @IsIn(['routine', 'urgent'])
  priority: string;

  @FreeTextField({ min: 3, max: 500 })
  reason: string;
}

export class AddCareNoteContentDto {
  @ApiProperty({ enum: ['care-plan', 'follow-up', 'communication'] })
  @IsIn(['care-plan', 'follow-up', 'communication'])
  noteType: string;

  @FreeTextField({ min: 1, max: 4000 })
  text: string;
}

export class ScheduleOutreachContentDto {
  @ApiProperty({ enum: ['phone', 'letter', 'portal-message', 'sms'] })
  @IsIn(['phone', 'letter', 'portal-message', 'sms'])
  channel: string;

  // `x-earliest`: the earliest day accepted, for forms that check before sending (the review page's edit form).
  @ApiProperty({ format: 'date', example: '2026-07-15', maxLength: 10, description: 'Today (UTC) or later: a date in the past is refused (400 naming `content.dueDate`).', ...{ 'x-earliest': 'today-utc' } })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'dueDate must be a date as YYYY-MM-DD' })
  @IsISO8601({ strict: true }, { message: 'dueDate must be an existing calendar date' })
  @NotInThePast()
  dueDate: string;

  @FreeTextField({ min: 3, max: 500 })
  reason: string;
}

/**
 * Each item a citation id as a tool returned it (`CITATION_FORMS`). A refusal names the accepted
 * forms in words and has its own reason (`not_a_citation`), for REST and the model's tools alike.
 */
export function IsCitationList(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: NOT_A_CITATION,
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => !Array.isArray(value) || value.every(isCitation),
        defaultMessage: () => CITATION_FORMS_TEXT,
      },
    });
}
export { CITATION_MAX_LENGTH };
export const MAX_CITATIONS = 50;
export const citationListValidators = [ArrayMaxSize(MAX_CITATIONS)];

/** Each kind's content DTO (KIND_POLICY validates with these; the OpenAPI document shows them as `oneOf`). */
export const PROPOSAL_CONTENT_BY_KIND = {
  [ProposalKind.CloseCareGap]: CloseCareGapContentDto,
  [ProposalKind.OrderLab]: OrderLabContentDto,
  [ProposalKind.AddCareNote]: AddCareNoteContentDto,
  [ProposalKind.ScheduleOutreach]: ScheduleOutreachContentDto,
} as const;
export const PROPOSAL_CONTENT_SCHEMAS = Object.values(PROPOSAL_CONTENT_BY_KIND);
