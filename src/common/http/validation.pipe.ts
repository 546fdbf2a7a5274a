import { HttpStatus, ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { QueryMemoValidationPipe } from '../validation/query-memo';
import { memoizeValidationMetadata } from '../validation/validation-metadata-cache';
import { FieldProblem, ProblemException } from './problem';

/**
 * The one validation pipe: DTOs are closed (unknown fields are refused by name), values are
 * converted to their declared types, and failures become a 400 problem listing every field.
 * Messages name the field and the rule, never the value that was sent. A valid query of a DTO
 * marked `ValidatedByValueOnly` is validated once per distinct query (`QueryMemoValidationPipe`).
 */
export function createValidationPipe(): ValidationPipe {
  memoizeValidationMetadata();
  return new QueryMemoValidationPipe(validationPipeOptions());
}

/** The pipe's options (also its tests' reference: the same pipe without the memo). */
export function validationPipeOptions(): ValidationPipeOptions {
  return {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) =>
      new ProblemException(
        HttpStatus.BAD_REQUEST,
        'validation_failed',
        'Invalid request',
        'One or more fields are invalid or not allowed; see `errors`.',
        flatten(errors),
      ),
  };
}

export function flatten(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([rule, message]) =>
      rule === 'whitelistValidation'
        ? { field, reason: 'unknown_field', message: `${field} is not a known field` }
        : { field, reason: rule, message },
    );
    return [...own, ...flatten(error.children ?? [], field)];
  });
}
