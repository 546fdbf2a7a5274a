import { ApiProperty } from '@nestjs/swagger';
import { DateOnlyField, IntegerQueryField } from '../common/validation/fields';
import { OptionalFreeTextField } from '../common/validation/text';

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 50;

/** One search: `mrn` alone, or `name` ("family", "family, given", or the whole name either way round) with an optional `birthDate`. */
export class PatientSearchQueryDto {
  @OptionalFreeTextField({ min: 1, max: 64, description: 'The medical record number, in any case. Not with `name`.', example: 'VGL-000103' })
  mrn?: string;

  @OptionalFreeTextField({
    min: 2,
    max: 100,
    description:
      'A family-name prefix, optionally followed by a comma and a given-name prefix ("obrien, sio"); or, in two words or more, the whole name given or family name first, the last word perhaps cut short ("Siobhan O\'Brien"). Accents, case, spaces, apostrophes, hyphens and full stops do not matter.',
    example: 'Mercer',
  })
  name?: string;

  @DateOnlyField('Only patients born on this day (with `name`).', '1965-03-02')
  birthDate?: string;

  @IntegerQueryField({ min: 1, max: SEARCH_LIMIT_MAX, default: SEARCH_LIMIT_DEFAULT, description: 'Most patients returned.' })
  limit?: number;
}

export class PatientSearchResultDto {
  @ApiProperty({ enum: ['mrn', 'name', 'name_birth_date'], description: 'Which form of search ran.' })
  searchedBy: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'The matching patients on your care teams, by name: the patient header of your role\'s projection (`handle` is the patient id).',
  })
  patients: Record<string, unknown>[];

  @ApiProperty({ description: 'More patients matched than `limit`: narrow the search.' })
  truncated: boolean;

  @ApiProperty()
  limit: number;
}
