import { OneOfField } from '../../common/validation/fields';
import { EncounterClass } from '../../cohort/enum';
import { WindowQueryDto } from './window-query.dto';

export class EncountersQueryDto extends WindowQueryDto {
  @OneOfField(Object.values(EncounterClass), 'Only encounters of this class.')
  class?: EncounterClass;
}
