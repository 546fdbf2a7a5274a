import { HttpStatus, ValidationError, ValidationPipe } from '@nestjs/common';
import { memoizeValidationMetadata } from '../validation/validation-metadata-cache';
import { FieldProblem, ProblemException } from './problem';

/**
 * The one validation pipe: DTOs are closed (unknown fields are refused by name), values are
 * converted to their declared types, and failures become a 400 problem listing every field.
 * Messages name the field and the rule, never the value that was sent.
 */
export function createValidationPipe(): ValidationPipe {
  memoizeValidationMetadata();
  return new ValidationPipe({
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
  });
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
