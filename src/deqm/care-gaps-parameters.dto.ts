import { HttpStatus } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsInt, IsNotIn, IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { FieldProblem, ProblemException } from '../common/http/problem';
import { validateDto } from '../common/validation/validate-dto';
import { CareGapsOperationQueryDto } from './care-gaps-operation.dto';

/** The parameters DEQM lets a caller repeat; any other may appear once. */
const REPEATABLE = new Set(['status', 'measureId', 'measureIdentifier', 'measureUrl', 'topic', 'program']);
/** More than every parameter Vigil takes, each repeated as often as it may be. */
const MAX_PARAMETERS = 40;
const VALUE_MAX_LENGTH = 500;

/** One `Parameters.parameter`: a name and one value of the primitive types DEQM's parameters have. */
export class OperationParameterDto {
  @ApiProperty({ type: String, maxLength: 64, pattern: '^[A-Za-z_][A-Za-z0-9_]*$', example: 'periodStart' })
  @IsDefined()
  @IsString()
  @Length(1, 64)
  @Matches(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'name must be a parameter name' })
  // Names that reach an object's prototype are refused here, as the HTTP edge refuses them as keys.
  @IsNotIn(['__proto__', 'constructor', 'prototype'], { message: 'name must be a parameter name' })
  name: string;

  @ApiPropertyOptional({ type: String, maxLength: 10, example: '2025-01-01' })
  @IsOptional()
  @IsString()
  @Length(1, 10)
  valueDate?: string;

  @ApiPropertyOptional({ type: String, maxLength: VALUE_MAX_LENGTH, example: 'Group/primary-care-north' })
  @IsOptional()
  @IsString()
  @Length(1, VALUE_MAX_LENGTH)
  valueString?: string;

  @ApiPropertyOptional({ type: String, maxLength: VALUE_MAX_LENGTH, example: 'open-gap' })
  @IsOptional()
  @IsString()
  @Length(1, VALUE_MAX_LENGTH)
  valueCode?: string;

  @ApiPropertyOptional({ type: String, maxLength: VALUE_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @Length(1, VALUE_MAX_LENGTH)
  valueCanonical?: string;

  @ApiPropertyOptional({ type: String, maxLength: VALUE_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @Length(1, VALUE_MAX_LENGTH)
  valueUri?: string;

  @ApiPropertyOptional({ type: Number, example: 50 })
  @IsOptional()
  @IsInt()
  valueInteger?: number;
}

const VALUE_KEYS = ['valueDate', 'valueString', 'valueCode', 'valueCanonical', 'valueUri', 'valueInteger'] as const;

/**
 * The POST form of `$care-gaps`: a FHIR `Parameters` resource carrying the same parameters as the
 * GET form's query, by the same names (`periodStart`, `subject`, `status`, …; `_count`, `_cursor`).
 */
export class CareGapsParametersDto {
  @ApiProperty({ type: String, enum: ['Parameters'] })
  @IsDefined()
  @IsIn(['Parameters'], { message: 'resourceType must be Parameters' })
  resourceType: 'Parameters';

  @ApiProperty({ type: [OperationParameterDto], maxItems: MAX_PARAMETERS, description: 'Each parameter once, or repeated where DEQM allows it (`status`, `measureId`, `measureIdentifier`, `measureUrl`); each with one `value[x]`.' })
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(MAX_PARAMETERS)
  @ValidateNested({ each: true })
  @Type(() => OperationParameterDto)
  parameter: OperationParameterDto[];
}

/**
 * The Parameters resource as the GET form's query, validated by the same class with the same rules,
 * so a bad value is the same 400 naming the same parameter whichever form carried it. A parameter
 * without exactly one value, or a single one given twice, is named by its place (`parameter[2]`).
 */
export async function queryOfParameters(body: CareGapsParametersDto): Promise<CareGapsOperationQueryDto> {
  const plain = new Map<string, unknown>();
  const problems: FieldProblem[] = [];
  body.parameter.forEach((parameter, index) => {
    const values = VALUE_KEYS.filter((key) => parameter[key] !== undefined).map((key) => parameter[key]);
    if (values.length !== 1) {
      problems.push({ field: `parameter[${index}]`, reason: 'one_value', message: `parameter[${index}] must carry exactly one value[x]` });
    } else if (REPEATABLE.has(parameter.name)) {
      plain.set(parameter.name, [...((plain.get(parameter.name) as unknown[] | undefined) ?? []), values[0]]);
    } else if (plain.has(parameter.name)) {
      problems.push({ field: `parameter[${index}]`, reason: 'repeated', message: `${parameter.name} may be given only once` });
    } else {
      plain.set(parameter.name, values[0]);
    }
  });
  if (problems.length > 0) {
    throw new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'One or more parameters are invalid; see `errors`.', problems);
  }
  return validateDto(CareGapsOperationQueryDto, Object.fromEntries(plain));
}
