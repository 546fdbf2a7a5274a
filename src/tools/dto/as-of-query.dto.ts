import { DateOnlyField } from '../../common/validation/fields';

export class AsOfQueryDto {
  @DateOnlyField('Evaluate as of this day (UTC). Default: today.')
  asOf?: string;
}
