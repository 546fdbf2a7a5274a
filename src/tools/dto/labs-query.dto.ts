import { CodeListField } from '../../common/validation/fields';
import { ValidatedByValueOnly } from '../../common/validation/query-memo';
import { WindowQueryDto } from './window-query.dto';

export const MAX_LOINC_CODES = 20;

/** Its rules read only the query (a memoised validation: `ValidatedByValueOnly`). */
@ValidatedByValueOnly()
export class LabsQueryDto extends WindowQueryDto {
  @CodeListField({
    pattern: /^\d{1,7}-\d$/,
    max: MAX_LOINC_CODES,
    maxLength: 9,
    description: 'Only results with these LOINC codes.',
    example: ['4548-4', '33914-3'],
    itemName: 'LOINC code such as 4548-4',
  })
  code?: string[];
}
