import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

/** A measure key as the stewards write it: `CMS122`, `NHSNACHMonthly1`. */
export const MEASURE_KEY = /^[A-Za-z0-9]{1,64}$/;

export class MeasureCatalogueQueryDto {
  @ApiPropertyOptional({ type: String, maxLength: 64, pattern: MEASURE_KEY.source, example: 'CMS122', description: 'Only this measure (its key), in every edition.' })
  @IsOptional()
  @Matches(MEASURE_KEY, { message: 'key must be a measure key such as CMS122 (letters and digits)' })
  key?: string;
}

export class BuiltInMeasureDto {
  @ApiProperty({ example: 'CMS122' }) key: string;
  @ApiProperty({ example: 'CMS122v13' }) version: string;
  @ApiProperty({ description: 'The CQL library it follows, with its version.' }) library: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: [String], description: 'Its population groups, as care_gap_lookup names them.' }) groups: string[];
  @ApiProperty({ description: 'True when the numerator is the gap (a lower score is better).' }) inverse: boolean;
  @ApiProperty({ type: [String], description: 'Where Vigil differs from the CQL.' }) differences: string[];
  @ApiProperty({ enum: [true], description: 'care_gap_lookup evaluates it.' }) evaluable: true;
}

export class MeasurePopulationDto {
  @ApiProperty({ example: 'initial-population' }) code: string;
  @ApiProperty({ type: String, nullable: true }) id: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The CQL definition it names.', example: 'Initial Population' }) expression: string | null;
  @ApiPropertyOptional({ description: 'For a measure observation: the population it observes.' }) criteriaReference?: string;
  @ApiPropertyOptional({ description: 'For a measure observation: how its values are aggregated (Sum, Count…).' }) aggregateMethod?: string;
}

export class MeasureStratifierDto {
  @ApiProperty({ type: String, nullable: true }) id: string | null;
  @ApiProperty({ type: String, nullable: true }) expression: string | null;
}

export class MeasureGroupDto {
  @ApiProperty({ type: String, nullable: true }) id: string | null;
  @ApiProperty({ example: 'proportion', description: '`proportion`, `ratio`, `continuous-variable` or `cohort`.' }) scoring: string;
  @ApiProperty({ example: 'boolean', description: '`boolean` (patient-based) or the resource type of its episodes (`Encounter`).' }) basis: string;
  @ApiProperty({ type: String, nullable: true, example: 'increase' }) improvementNotation: string | null;
  @ApiProperty({ type: [MeasurePopulationDto] }) populations: MeasurePopulationDto[];
  @ApiProperty({ type: [MeasureStratifierDto] }) stratifiers: MeasureStratifierDto[];
}

export class MeasurePeriodDto {
  @ApiProperty({ format: 'date' }) start: string;
  @ApiProperty({ format: 'date' }) end: string;
}

const COUNT = { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 } as const;

export class LoadedMeasureDto {
  @ApiProperty({ example: 'CMS122' }) key: string;
  @ApiProperty() title: string;
  @ApiProperty({ example: '1.0.000', description: '`Measure.version` as published.' }) version: string;
  @ApiProperty({ description: 'The canonical url of the stewards’ Measure.' }) url: string;
  @ApiProperty({ example: '2025-qicore6', description: 'The edition it was loaded from.' }) edition: string;
  @ApiProperty({ example: 'proportion', description: 'The groups’ scoring, or `mixed`.' }) scoring: string;
  @ApiProperty({ example: 'boolean', description: 'The groups’ population basis, or `mixed`.' }) basis: string;
  @ApiProperty({ type: [MeasureGroupDto] }) groups: MeasureGroupDto[];
  @ApiProperty({ type: MeasurePeriodDto, nullable: true, description: 'Its default measurement period (`Measure.effectivePeriod`).' }) measurementPeriod: MeasurePeriodDto | null;
  @ApiProperty({ format: 'date-time' }) loadedAt: string;
  @ApiProperty({ ...COUNT, minimum: 1, description: 'CQL libraries of its include closure.' }) libraries: number;
  @ApiProperty({ ...COUNT, description: 'Value-set expansions its ELM names.' }) valueSets: number;
  @ApiProperty({ ...COUNT, description: 'Of those, loaded from the operator’s supplement.' }) valueSetsFromSupplement: number;
  @ApiProperty({ description: 'Whether care_gap_lookup evaluates it (name it in `measure`): a patient-based proportion measure, whose numerator closes or opens a gap.' }) evaluable: boolean;
}

export class MeasureCatalogueDto {
  @ApiProperty({ type: [BuiltInMeasureDto], description: 'The measures care_gap_lookup evaluates today.' }) measures: BuiltInMeasureDto[];
  @ApiProperty({ type: [LoadedMeasureDto], description: 'The measures loaded as data (`npm run measures:load`), every edition side by side.' }) loaded: LoadedMeasureDto[];
}
