import { ApiProperty } from '@nestjs/swagger';
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

const COUNT = { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 } as const;
const COUNTS_DESCRIPTION = 'Perturbed counts (cell-key perturbation, see `policy`): 0, or at least 11; not additive.';

export class PublishedTableDto {
  @ApiProperty({ description: '`measures`, or `<measure>/<careTeam|ageBand|sex|reasonClass>`.', example: 'CMS122/careTeam' }) id: string;
  @ApiProperty({ nullable: true, type: String, description: 'Null for the `measures` table.' }) measureId: string | null;
  @ApiProperty({ enum: ['careTeam', 'ageBand', 'sex', 'status', 'measure'] }) rowDimension: string;
  @ApiProperty({ enum: ['status', 'reasonClass'] }) columnDimension: string;
  @ApiProperty({ type: [String], description: 'Row labels: care-team codes, age bands (`0-9` … `90+`), sexes, statuses or measures.' }) rows: string[];
  @ApiProperty({ type: [String], description: `Column labels: statuses (${GAP_STATUSES.join(', ')}) or reason classes.` }) columns: string[];
  @ApiProperty({ type: 'array', items: { type: 'array', items: COUNT }, description: `cells[row][column]. ${COUNTS_DESCRIPTION}` }) cells: number[][];
  @ApiProperty({ type: 'array', items: COUNT, description: COUNTS_DESCRIPTION }) rowTotals: number[];
  @ApiProperty({ type: 'array', items: COUNT, nullable: true, description: 'Null in the `measures` table: a sum over measures counts evaluations, not patients.' })
  columnTotals: number[] | null;
  @ApiProperty({ ...COUNT, nullable: true, description: 'Null in the `measures` table.' }) grandTotal: number | null;
}

export class PtableOutcomeDto {
  @ApiProperty({ ...COUNT, description: 'A value the count may be published as.' }) value: number;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: 1000, description: 'Its odds, out of `weightDenominator`.' }) weight: number;
}

export class PtableRowDto {
  @ApiProperty(COUNT) count: number;
  @ApiProperty({ type: [PtableOutcomeDto] }) outcomes: PtableOutcomeDto[];
}

export class PtableChangeDto {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: -1000, maximum: 1000 }) change: number;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: 1000 }) weight: number;
}

export class PtableBeyondDto {
  @ApiProperty({ ...COUNT, description: 'Every count from this one on is published as itself plus one of `changes`.' }) fromCount: number;
  @ApiProperty({ type: [PtableChangeDto] }) changes: PtableChangeDto[];
}

export class PtableDto {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 1000 }) weightDenominator: number;
  @ApiProperty({ type: [PtableRowDto], description: 'The counts below `beyond.fromCount`, each with every value it may be published as.' }) rows: PtableRowDto[];
  @ApiProperty({ type: PtableBeyondDto }) beyond: PtableBeyondDto;
}

/** The method and its public parameters: everything an analyst needs to know what a published value says. */
export class PerturbationPolicyDto {
  @ApiProperty({ enum: ['cell-key-perturbation'] }) method: 'cell-key-perturbation';
  @ApiProperty() published: string;
  @ApiProperty() rule: string;
  @ApiProperty({ type: PtableDto }) ptable: PtableDto;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: 1000, example: 10, description: 'No count from 1 to this is published as itself.' }) largestProtectedCount: number;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 1000, example: 11 }) smallestNonZeroShown: number;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: 1000, example: 2 }) maxPerturbation: number;
  @ApiProperty({ enum: [false], description: 'Published cells need not add up to published totals.' }) additive: false;
  @ApiProperty() cellKey: string;
  @ApiProperty() attackerModel: string;
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
  @ApiProperty({ type: PerturbationPolicyDto }) policy: PerturbationPolicyDto;
  @ApiProperty({ type: [PublishedTableDto] }) tables: PublishedTableDto[];
  @ApiProperty({
    type: [String],
    description: 'Tables left out of this publication (by id): when no draw of the full set was clean, whole tables are withheld, finest first, until no count of 1 to 10 can be solved for. Almost always empty.',
  })
  withheldTables: string[];
}
