import { CodeListField, DateOnlyField } from '../../common/validation/fields';
import { MEASURE_IDS, MEASURE_NAMES } from '../../clinical/care-gaps';

export class CareGapsQueryDto {
  @DateOnlyField(
    'Evaluate over the 12 months ending on this day (in the practice time zone). Default: today. Not with periodStart or periodEnd (400).',
  )
  asOf?: string;

  @DateOnlyField('First day of the measurement period (Da Vinci DEQM $care-gaps `periodStart`); needs periodEnd.', '2025-01-01')
  periodStart?: string;

  @DateOnlyField('Last day of the measurement period, inclusive (DEQM `periodEnd`); needs periodStart.', '2025-12-31')
  periodEnd?: string;

  @CodeListField({
    pattern: new RegExp(`^(${MEASURE_NAMES.join('|')})$`),
    max: MEASURE_IDS.length,
    maxLength: Math.max(...MEASURE_NAMES.map((name) => name.length)),
    description: `Only these measures (${MEASURE_NAMES.join(', ')}; KHE is CMS951). Default: all.`,
    example: ['CMS122', 'CMS165'],
    itemName: `measure id (${MEASURE_NAMES.join(', ')})`,
  })
  measure?: string[];
}
