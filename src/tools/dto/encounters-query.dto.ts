import { OneOfField } from '../../common/validation/fields';
import { EncounterClass } from '../../cohort/enum';
import { ValidatedByValueOnly } from '../../common/validation/query-memo';
import { WindowQueryDto } from './window-query.dto';

/** Its rules read only the query (a memoised validation: `ValidatedByValueOnly`). */
@ValidatedByValueOnly()
export class EncountersQueryDto extends WindowQueryDto {
  @OneOfField(Object.values(EncounterClass), 'Only encounters of this class.')
  class?: EncounterClass;
}
