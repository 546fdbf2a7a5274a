import { CodeListField, DateOnlyField } from '../../common/validation/fields';
import { ValidatedByValueOnly } from '../../common/validation/query-memo';
import { MEASURE_NAMES } from '../../clinical/care-gaps';
import { CARE_GAP_MEASURE_KEY, CARE_GAP_MEASURE_KEY_MAX } from '../../clinical/citation-grammar';

/** Measures in one call: the built-in six and a clinic's loaded ones. */
export const MAX_CARE_GAP_MEASURES = 20;

/** Its rules read only the query (a memoised validation: `ValidatedByValueOnly`); which loaded measures exist is the service's to check. */
@ValidatedByValueOnly()
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
    pattern: CARE_GAP_MEASURE_KEY,
    max: MAX_CARE_GAP_MEASURES,
    maxLength: CARE_GAP_MEASURE_KEY_MAX,
    description:
      `Only these measures: the built-in ${MEASURE_NAMES.join(', ')} (KHE is CMS951), or the key of a measure loaded as data ` +
      '(`GET /measures` lists them; the measurement period picks its edition, the one in force on the period’s last day; a period ending where no edition is loaded, or a measure with no gap to read, is refused by name). Default: the built-in measures.',
    example: ['CMS122', 'CMS165'],
    itemName: 'measure key (CMS122, or a loaded measure’s key)',
  })
  measure?: string[];
}
