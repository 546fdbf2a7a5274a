import { DateOnlyField } from '../../common/validation/fields';
import { ValidatedByValueOnly } from '../../common/validation/query-memo';

/** Its rules read only the query (a memoised validation: `ValidatedByValueOnly`). */
@ValidatedByValueOnly()
export class AsOfQueryDto {
  @DateOnlyField('Evaluate as of this day (UTC). Default: today.')
  asOf?: string;
}
