import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DateOnlyField } from '../common/validation/fields';
import { GAP_STATUSES } from './microcells';

export class PopulationMeasuresQueryDto {
  @DateOnlyField('The last day of the measurement period; only the latest period with complete stored results is published. Default: that period.', '2026-12-02')
  periodEnd?: string;
}

export class PopulationPeriodDto {
  @ApiProperty({ format: 'date' }) start: string;
  @ApiProperty({ format: 'date' }) end: string;
}

/** One published number: a count (0 or at least 11), or a suppression and its rule. */
export class PublishedCountDto {
  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647, description: 'Absent when suppressed: 0 or at least 11.' }) count?: number;
  @ApiPropertyOptional({ enum: [true], description: 'Present (true) when the count is withheld.' }) suppressed?: true;
  @ApiPropertyOptional({ enum: ['primary', 'complementary'], description: '`primary`: a count of 1 to 10; `complementary`: withheld so no primary one can be derived.' })
  rule?: 'primary' | 'complementary';
}


export class PublishedTableDto {
  @ApiProperty({ description: '`measures`, or `<measure>/<careTeam|ageBand|sex|reasonClass>`.', example: 'CMS122/careTeam' }) id: string;
  @ApiProperty({ nullable: true, type: String, description: 'Null for the `measures` table.' }) measureId: string | null;
  @ApiProperty({ enum: ['careTeam', 'ageBand', 'sex', 'status', 'measure'] }) rowDimension: string;
  @ApiProperty({ enum: ['status', 'reasonClass'] }) columnDimension: string;
  @ApiProperty({ type: [String], description: 'Row labels: care-team codes, age bands (`0-9` … `90+`), sexes, statuses or measures.' }) rows: string[];
  @ApiProperty({ type: [String], description: `Column labels: statuses (${GAP_STATUSES.join(', ')}) or reason classes.` }) columns: string[];
  @ApiProperty({ type: 'array', items: { type: 'array', items: { $ref: '#/components/schemas/PublishedCountDto' } }, description: 'cells[row][column].' })
  cells: PublishedCountDto[][];
  @ApiProperty({ type: [PublishedCountDto] }) rowTotals: PublishedCountDto[];
  @ApiProperty({ type: [PublishedCountDto], nullable: true, description: 'Null in the `measures` table: a sum over measures counts evaluations, not patients.' })
  columnTotals: PublishedCountDto[] | null;
  // Inline rather than a $ref: OpenAPI 3.0 ignores `nullable` beside a reference, so `null` would not validate.
  @ApiProperty({
    type: 'object',
    nullable: true,
    description: 'Null in the `measures` table. Otherwise a published count, as `PublishedCountDto`.',
    properties: {
      count: { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 },
      suppressed: { type: 'boolean', enum: [true] },
      rule: { type: 'string', enum: ['primary', 'complementary'] },
    },
  })
  grandTotal: PublishedCountDto | null;
}

export class SuppressionPolicyDto {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 1000, example: 11 }) smallestShownCount: number;
  @ApiProperty() suppressedCounts: string;
  @ApiProperty() zeroShown: boolean;
  @ApiProperty() published: string;
  @ApiProperty() primary: string;
  @ApiProperty() complementary: string;
  @ApiProperty() zeroReason: string;
  @ApiProperty() attackerModel: string;
  @ApiProperty() derivability: string;
  @ApiProperty({ type: [String] }) limits: readonly string[];
}

export class PopulationMeasuresDto {
  @ApiProperty({ type: PopulationPeriodDto }) period: PopulationPeriodDto;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'The newest computation among the stored results counted.' }) computedAt: string | null;
  @ApiProperty({
    description: 'The version of the stored results counted. One publication per period and version: the same version always answers the same tables; a recompute makes a new version.',
    example: 'run-42.0123456789abcdef',
  })
  resultsVersion: string;
  @ApiProperty({ type: SuppressionPolicyDto }) policy: SuppressionPolicyDto;
  @ApiProperty({ type: [PublishedTableDto] }) tables: PublishedTableDto[];
}
