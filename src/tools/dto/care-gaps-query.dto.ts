import { CodeListField, DateOnlyField } from '../../common/validation/fields';
import { MEASURE_IDS, MeasureId } from '../clinical/care-gaps';

export class CareGapsQueryDto {
  @DateOnlyField('Evaluate as of this day (UTC); the measurement period is the 12 months ending on it. Default: today.')
  asOf?: string;

  @CodeListField({
    pattern: new RegExp(`^(${MEASURE_IDS.join('|')})$`),
    max: MEASURE_IDS.length,
    description: `Only these measures (${MEASURE_IDS.join(', ')}). Default: all.`,
    example: ['CMS122', 'CMS165'],
    itemName: `measure id (${MEASURE_IDS.join(', ')})`,
  })
  measure?: MeasureId[];
}
