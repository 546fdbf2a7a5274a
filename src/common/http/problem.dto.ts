import { applyDecorators } from '@nestjs/common';
import { ApiBadRequestResponse, ApiInternalServerErrorResponse, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FieldProblem, ProblemDetails } from './problem';

export class FieldProblemDto implements FieldProblem {
  @ApiProperty({ example: 'sort' })
  field: string;

  @ApiProperty({ example: 'unknown_field', description: '`unknown_field`, or the name of the rule that failed (e.g. `isInt`).' })
  reason: string;

  @ApiProperty({ example: 'sort is not a known field' })
  message: string;
}

/** RFC 9457 problem details, as every Vigil error is returned (`application/problem+json`). */
export class ProblemDto implements ProblemDetails {
  @ApiProperty({ example: 'urn:vigil:problem:validation_failed' })
  type: string;

  @ApiProperty({ example: 'Invalid request' })
  title: string;

  @ApiProperty({ example: 400 })
  status: number;

  @ApiPropertyOptional({ example: 'One or more fields are invalid or not allowed; see `errors`.' })
  detail?: string;

  @ApiPropertyOptional({ example: '/health/ready' })
  instance?: string;

  @ApiProperty({ example: 'validation_failed', description: 'Stable machine-readable code.' })
  code: string;

  @ApiPropertyOptional({ example: '5f0c2b7d-8e14-4b8e-9a61-3f1c9a524d0e', description: 'Also the `x-correlation-id` header.' })
  correlationId?: string;

  @ApiPropertyOptional({ type: [FieldProblemDto] })
  errors?: FieldProblemDto[];
}

/** The error responses every route can give; add route-specific ones (404, 409, …) beside it. */
export function ApiProblemResponses(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiBadRequestResponse({ type: ProblemDto, description: 'Invalid or unknown parameters (problem details).' }),
    ApiInternalServerErrorResponse({ type: ProblemDto, description: 'Unexpected error; quote the correlation id.' }),
  );
}
